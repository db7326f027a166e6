// Creating and dropping throw-away PostgreSQL databases (tests and benchmarks).
import pg from 'pg';

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(baseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates `name` (from `template` when given) on the server of `baseUrl`; returns its URL and a drop function. */
export async function createDatabase(
  baseUrl: string,
  name: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  await admin(baseUrl, (c) => c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  return {
    url: withDatabase(baseUrl, name),
    drop: () => admin(baseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}
