// A multipart POST without a deadline. fetch (undici) gives up on a response
// whose headers take more than 300 s, which a 50 MiB import on a loaded
// machine can take; node:http waits as long as the request runs.
import { request } from 'node:http';

export async function postForm(
  url: string,
  headers: Record<string, string>,
  form: FormData,
): Promise<{ status: number; body: string }> {
  const encoded = new Request(url, { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': encoded.headers.get('content-type')!,
          'content-length': String(body.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
