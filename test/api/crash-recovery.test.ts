// An import is one transaction, also when the process dies: the service runs
// as a real child process (npm start's entry point) and is killed with SIGKILL
// while an import is in flight, 6 times in a row in `npm test` (each round an
// import and a restart, 5–10 s on 2 cores under the suite's load;
// CRASH_ROUNDS=20 runs a longer series), at moments spread over the
// import's duration; after each restart the project holds every key of the
// import or none of them, and every import acknowledged before stays whole.
// Runs on the embedded PGlite (its data folder reopened) and on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEmbeddedDatabase, startServiceProcess, type ServiceProcess } from '../support/process.js';
import { createPostgresDatabase } from '../support/pg-database.js';

const TOKEN = 'lms_pat_crash_recovery_token_0123456789';
const ROUNDS = Number(process.env.CRASH_ROUNDS) || 6;
/** Keys per import: enough for the import to take a while, few enough to keep the test short. */
const KEYS = 800;

describe('SIGKILL during imports', { timeout: 600_000 }, () => {
  let dataDir: string;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let env: Record<string, string>;
  let service: ServiceProcess | undefined;
  let apiKey: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'lms-crash-'));
    if (process.env.TEST_DB_KIND === 'postgres') database = await createPostgresDatabase();
    // The kills are about imports, not about creating the database: the first start opens a migrated copy.
    else seedEmbeddedDatabase(dataDir);
    env = {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'crash@example.com',
      ADMIN_PASSWORD: 'crash-password',
      ADMIN_TOKEN: TOKEN,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'error',
      JOB_WORKERS: '0',
      ...(database && { DATABASE_URL: database.url }),
    };
    service = await startServiceProcess(env);
    const res = await fetch(`${service.url}/api/v2/projects`, {
      method: 'POST',
      headers: { authorization: TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'crash' }),
    });
    apiKey = (await res.json()).data.apiKey;
  });
  afterAll(async () => {
    await service?.kill();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const file = (round: number) =>
    JSON.stringify(
      Object.fromEntries(
        Array.from({ length: KEYS }, (_, k) => [`import${round}.key${k}`, `Text ${k} of import ${round}`]),
      ),
    );

  function startImport(round: number): Promise<number> {
    const form = new FormData();
    form.set('file', new Blob([file(round)], { type: 'application/json' }), `import${round}.json`);
    return fetch(
      `${service!.url}/api/v2/import?uploadFormat=single-language-json&languageKey=en&namespace=import${round}`,
      { method: 'POST', headers: { 'x-service-token': apiKey }, body: form },
    ).then(
      (res) => res.status,
      () => 0,
    );
  }

  /** Keys and texts of each import round (its own namespace) found in the project. */
  async function contents(): Promise<Map<number, { keys: number; texts: number }>> {
    const res = await fetch(`${service!.url}/graphql`, {
      method: 'POST',
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `query { ${Array.from({ length: ROUNDS + 1 }, (_, r) => `k${r}: translationKeyPage(size: 1, filter: { namespace: "import${r}" }) { page { totalElements } } t${r}: translationCount(filter: { namespace: "import${r}", text: "of import ${r}" })`).join(' ')} }`,
      }),
    });
    const { data, errors } = await res.json();
    expect(errors, JSON.stringify(errors?.[0])).toBeUndefined();
    return new Map(
      Array.from({ length: ROUNDS + 1 }, (_, r) => [
        r,
        { keys: data[`k${r}`].page.totalElements, texts: data[`t${r}`] },
      ]),
    );
  }

  it(`leaves each of ${ROUNDS} imports whole or absent, on ${process.env.TEST_DB_KIND ?? 'pglite'}`, async () => {
    // One import run to its end: its duration spreads the kills over an import's life.
    const started = performance.now();
    expect(await startImport(0)).toBe(200);
    const duration = performance.now() - started;
    const acknowledged = new Set([0]);
    const outcomes: string[] = [];
    // The kill moment closes in on the commit: later after a round that left
    // nothing, earlier after one that was whole, so the kills land on both
    // sides of it and around it (machine load moves it from run to run).
    let factor = 1;
    for (let round = 1; round <= ROUNDS; round++) {
      const pending = startImport(round);
      await new Promise((resolve) => setTimeout(resolve, duration * factor * (0.6 + 0.8 * Math.random())));
      await service!.kill('SIGKILL');
      const status = await pending;
      if (status === 200) acknowledged.add(round);
      service = await startServiceProcess(env);
      const found = await contents();
      for (const [r, { keys, texts }] of found) {
        const whole = keys === KEYS && texts === KEYS;
        const absent = keys === 0 && texts === 0;
        expect(whole || absent, `round ${round}: import ${r} holds ${keys} of ${KEYS} keys and ${texts} texts`).toBe(
          true,
        );
        if (acknowledged.has(r)) expect(whole, `import ${r} was acknowledged, then lost`).toBe(true);
      }
      const outcome = found.get(round)!.keys ? 'whole' : 'none';
      outcomes.push(outcome);
      factor *= outcome === 'none' ? 1.5 : 0.6;
    }
    // The kills must have landed on both sides of the commit to test anything.
    expect(outcomes, `outcomes: ${outcomes.join(', ')}`).toContain('none');
    expect(outcomes).toContain('whole');
  });
});
