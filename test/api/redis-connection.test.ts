// The service's Redis connections (src/events/redis.ts, src/auth/shared-through-redis.ts):
// named after the process, and all closed when the service closes.
import { afterAll, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startTestService } from '../support/service.js';

const admin = new Redis('redis://127.0.0.1:6379', { lazyConnect: true });
afterAll(() => admin.quit());

/** This process's service connections, by CLIENT LIST. */
async function ours(): Promise<number> {
  const list = (await admin.client('LIST')) as string;
  return list.split('\n').filter((line) => line.includes(` name=localization-service:${process.pid} `)).length;
}

it('opens its Redis connections when configured and closes every one on close', async () => {
  await admin.connect();
  expect(await ours()).toBe(0);
  const service = await startTestService({ env: { REDIS_URL: 'redis://127.0.0.1:6379' }, worker: false });
  // Publish, subscribe, and the credential broadcast's subscriber.
  expect(await ours()).toBe(3);
  expect((await service.request({ url: '/readyz' })).json().checks.redis).toBe('ok');
  await service.close();
  await expect.poll(ours).toBe(0);
});
