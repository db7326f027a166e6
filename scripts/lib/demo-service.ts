// The service the console scripts (screenshots, Lighthouse) photograph and
// audit: started in this process on a temporary embedded database, listening
// on a free loopback port, with an account, a personal token and a REST caller
// to fill it. close() stops it and deletes the database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildService } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createAccount, createPersonalToken } from '../../src/accounts/accounts.js';

export interface DemoService {
  url: string;
  /** The temporary data directory (deleted by close), for files the script writes. */
  dataDir: string;
  /** The account's personal token, for REST calls made as it. */
  token: string;
  /** A REST call; answers the envelope's `data`, throws on any status but 2xx. */
  rest(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export async function startDemoService(
  name: string,
  account: { email: string; password: string },
  /** More settings (src/config.ts), e.g. the PUBLIC_URL the screens show. */
  env: Record<string, string> = {},
): Promise<DemoService> {
  const dataDir = mkdtempSync(join(tmpdir(), `lms-${name}-`));
  const service = await buildService(loadConfig({ ...env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0' }), {
    logger: false,
    worker: false,
  });
  const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
  const created = await createAccount(account, service.config.defaultPlan);
  const token = await createPersonalToken(created.id, name);
  return {
    url,
    dataDir,
    token,
    async rest(method, path, body, headers) {
      const res = await fetch(url + path, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: Record<string, string> }).data;
    },
    async close() {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
