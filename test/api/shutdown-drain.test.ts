// Closing the service (SIGTERM: src/main.ts) finishes the requests in flight
// before the database closes: a write whose body is still arriving when the
// close begins is answered and stored. Idle keep-alive connections are ended
// at once, so the close does not wait for their timeout.
import { request, Agent } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let api: ProjectApi;
let closed = false;

beforeAll(async () => {
  service = await startTestService({ listen: true });
  api = await projectApi(service, await service.account(), 'Drain');
  await api.post('/api/v1/translations', { content: [{ key: 'greeting', language: 'en', text: 'Hello' }] });
}, 60_000);
afterAll(async () => {
  if (!closed) await service.close();
});

it('answers a request in flight when the close begins, and ends idle connections at once', async () => {
  const agent = new Agent({ keepAlive: true });
  // An idle keep-alive connection: one request answered, the socket kept open.
  const idle = await fetch(`${service.url}/healthz`);
  expect(idle.status).toBe(200);
  const body = JSON.stringify({ content: [{ key: 'greeting', language: 'en', text: 'Hello, world' }] });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      `${service.url}/api/v1/translations?importOptions=REPLACE_TRANSLATION_IF_FOUND`,
      {
        method: 'POST',
        agent,
        headers: {
          'x-service-token': api.apiKey,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
    // Half the body now; the rest once the close has begun.
    req.write(body.slice(0, 20));
    setTimeout(() => {
      const started = performance.now();
      closing = service.close().then(() => performance.now() - started);
      closed = true;
      setTimeout(() => req.end(body.slice(20)), 300);
    }, 200);
  });
  let closing: Promise<number> | undefined;
  const answered = await answer;
  expect(answered.status, answered.body).toBe(200);
  // Stored: the write committed before the answer, and the answer before the database closed.
  expect(JSON.parse(answered.body).data).toMatchObject({
    uniqueKeysProcessed: 1,
    message: expect.stringContaining('1 replaced'),
  });
  // The close ends once the request is answered, not after the idle connection's keep-alive timeout (72 s).
  expect(await closing!).toBeLessThan(10_000);
  agent.destroy();
});
