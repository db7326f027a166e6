// The editor's calls to the service: GraphQL over HTTP (fetch, without
// cookies), the multipart upload of a screenshot, screenshot thumbnails (read
// with the token, shown as blob URLs) and the change subscription over
// graphql-ws. Every request carries the in-context token in its header; the
// browser adds the page's Origin, which the service checks against the
// project's allowed origins.
import { createClient, type Client } from 'graphql-ws';

export const TOKEN_HEADER = 'X-InContext-Token';

export class ServiceError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export class ServiceClient {
  private socket?: Client;
  readonly base: string;

  constructor(
    url: string,
    private readonly token: string,
  ) {
    this.base = url.replace(/\/+$/, '');
  }

  async gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const res = await fetch(`${this.base}/graphql`, {
      method: 'POST',
      mode: 'cors',
      credentials: 'omit',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: this.token },
      body: JSON.stringify({ query, variables }),
    });
    return this.answer<T>(res);
  }

  /** Uploads an image with the GraphQL multipart request spec; returns the new screenshot's id. */
  async uploadScreenshot(image: Blob, name: string): Promise<number> {
    const form = new FormData();
    const query = 'mutation ($file: Upload!, $name: String) { uploadScreenshot(file: $file, name: $name) { id } }';
    form.append('operations', JSON.stringify({ query, variables: { file: null, name } }));
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    form.append('0', image, name);
    const res = await fetch(`${this.base}/graphql`, {
      method: 'POST',
      mode: 'cors',
      credentials: 'omit',
      headers: { [TOKEN_HEADER]: this.token },
      body: form,
    });
    return (await this.answer<{ uploadScreenshot: { id: number } }>(res)).uploadScreenshot.id;
  }

  /** A screenshot file (thumbnailPath, imagePath) as a blob URL: an <img> cannot send the token. */
  async imageUrl(path: string): Promise<string> {
    const res = await fetch(`${this.base}${path}`, {
      mode: 'cors',
      credentials: 'omit',
      headers: { [TOKEN_HEADER]: this.token },
    });
    if (!res.ok) throw new ServiceError(`Could not load ${path}: HTTP ${res.status}`);
    return URL.createObjectURL(await res.blob());
  }

  /** Subscribes over graphql-ws (the socket opens on first use); returns the unsubscribe. */
  subscribe<T>(query: string, onData: (data: T) => void, onError: (error: unknown) => void = () => {}): () => void {
    this.socket ??= createClient({
      url: `${this.base.replace(/^http/, 'ws')}/graphql`,
      connectionParams: { [TOKEN_HEADER]: this.token },
      retryAttempts: Infinity,
      shouldRetry: () => true,
    });
    return this.socket.subscribe<T>(
      { query },
      {
        next: (value) => (value.errors?.length ? onError(value.errors) : value.data && onData(value.data as T)),
        error: onError,
        complete: () => {},
      },
    );
  }

  close(): void {
    void this.socket?.dispose();
    this.socket = undefined;
  }

  private async answer<T>(res: Response): Promise<T> {
    let body: { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
    try {
      body = (await res.json()) as typeof body;
    } catch {
      throw new ServiceError(`The service answered HTTP ${res.status}`);
    }
    if (body.errors?.length) throw new ServiceError(body.errors[0]!.message, body.errors[0]!.extensions?.code);
    if (!body.data) throw new ServiceError(`The service answered HTTP ${res.status} without data`);
    return body.data;
  }
}
