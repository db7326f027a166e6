// The client of the timed page requests: node:http on one keep-alive
// connection, the body read as bytes. The page scenarios run the service in
// their own process, so whatever the client does runs on the service's
// thread and lands in the request's time. fetch (undici, WHATWG streams)
// added 0.7 ms to a 104 KB page over node:http in the same process
// (medians of 150 alternating requests, 2026-12-01; 5.76 against 5.03 ms,
// inject 3.70 ms): client work that no baseline does and no service change
// can remove. docs/benchmarks.md, "The client of the page rows".
import http from 'node:http';

export interface Answer {
  status: number;
  body: Buffer;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function send(url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * A request, sent again once if its kept-alive connection was reset: on PGlite the seeding runs in the
 * service's own process for minutes, and a connection left from before may be closed by the server's
 * timeouts just as it is reused. The requests sent here only read.
 */
export async function request(
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
  }: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  try {
    return await send(url, method, headers, body);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ECONNRESET') throw error;
    return send(url, method, headers, body);
  }
}

/** The answer's body as JSON. */
export const json = <T>(answer: Answer): T => JSON.parse(answer.body.toString('utf8')) as T;
