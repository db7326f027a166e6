// Child process of the request benchmark: the baselines. A bare Node HTTP
// handler (node:http, no framework, no auth, no rules) doing the same SQL as
// the service, on its own tables seeded like the benchmark project — in the
// benchmark's PostgreSQL database (schema "bare") or in a PGlite of its own,
// since a PGlite data directory has one owner. Also the upsert through the
// driver alone (no HTTP), 1 and 16 at a time.
// Argument: JSON { db: 'pglite' | 'postgres', url?, keys, languages, mode: 'http' | 'driver', seconds? }.
// http: prints "listening <url>" and serves until killed. driver: prints { 1: rps, 16: rps }.
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite, protocol } from '@electric-sql/pglite';
import pg from 'pg';
import { replacePGliteParser } from '../../src/db/pglite-parser.js';

interface Options {
  db: 'pglite' | 'postgres';
  url?: string;
  keys: number;
  languages: number;
  mode: 'http' | 'driver';
  seconds?: number;
}
const options = JSON.parse(process.argv[2]!) as Options;

type Query = (sql: string, params: unknown[]) => Promise<unknown[]>;
let query: Query;
let exec: (sql: string) => Promise<unknown>;
let close: () => Promise<void>;
if (options.db === 'postgres') {
  const pool = new pg.Pool({ connectionString: options.url, max: 16, options: '-c search_path=bare' });
  query = async (sql, params) => (await pool.query(sql, params)).rows;
  exec = (sql) => pool.query(sql);
  close = () => pool.end();
} else {
  const dir = mkdtempSync(join(tmpdir(), 'lms-bare-'));
  // The driver at its best, as the service runs it: PGlite's answers parsed by pg-protocol (src/db/pglite-parser.ts).
  replacePGliteParser(protocol);
  const db = new PGlite(join(dir, 'pglite'));
  await db.waitReady;
  query = async (sql, params) => (await db.query(sql, params)).rows;
  exec = (sql) => db.exec(sql);
  close = async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  };
}

// The same tables, columns and keys the statements touch in the service's schema.
const SCHEMA = `
  ${options.db === 'postgres' ? 'DROP SCHEMA IF EXISTS bare CASCADE; CREATE SCHEMA bare;' : ''}
  CREATE TABLE "Project" (id serial PRIMARY KEY, name text NOT NULL, "projectToken" text NOT NULL UNIQUE, "createdAt" timestamptz NOT NULL DEFAULT now());
  CREATE TABLE "Language" (id serial PRIMARY KEY, "projectId" int NOT NULL REFERENCES "Project", key text NOT NULL, name text NOT NULL, "order" int NOT NULL, UNIQUE ("projectId", key));
  CREATE TABLE "TranslationKey" (id serial PRIMARY KEY, "projectId" int NOT NULL REFERENCES "Project", key text NOT NULL, namespace text NOT NULL DEFAULT '', UNIQUE ("projectId", namespace, key));
  CREATE TABLE "Translation" ("keyId" int NOT NULL REFERENCES "TranslationKey" ON DELETE CASCADE, "languageId" int NOT NULL REFERENCES "Language" ON DELETE CASCADE,
    "projectId" int NOT NULL, text text NOT NULL, "reviewStatus" text NOT NULL DEFAULT 'NOT_REVIEWED', "lastModifiedAt" timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY ("keyId", "languageId"));
  INSERT INTO "Project" (name, "projectToken") VALUES ('bare', 'bare-token');
  INSERT INTO "Language" ("projectId", key, name, "order") SELECT 1, 'l' || i, 'Language ' || i, i FROM generate_series(1, ${options.languages}) i;
  INSERT INTO "TranslationKey" ("projectId", key) SELECT 1, 'key.' || i FROM generate_series(1, ${options.keys}) i;
  INSERT INTO "Translation" ("keyId", "languageId", "projectId", text) SELECT k, l, 1, 'text ' || k FROM generate_series(1, ${options.keys}) k, generate_series(1, ${options.languages}) l;`;
await exec(SCHEMA);

const UPSERT = `INSERT INTO "Translation" ("keyId", "languageId", "projectId", text, "reviewStatus", "lastModifiedAt")
  VALUES ($1, $2, 1, $3, 'NOT_REVIEWED', now())
  ON CONFLICT ("keyId", "languageId") DO UPDATE SET text = EXCLUDED.text, "lastModifiedAt" = now()`;
const LANGUAGES = `SELECT key, name FROM "Language" WHERE "projectId" = $1 ORDER BY "order", key`;
const PROJECT = `SELECT id, name, "projectToken", "createdAt" FROM "Project" WHERE id = $1`;
// GET /api/v2/project also reports the project's figures: the same aggregates over its keys and cells.
const PROJECT_FIGURES = [
  `SELECT l.key AS language, count(*)::int AS n FROM "Translation" t JOIN "Language" l ON l.id = t."languageId" WHERE t."projectId" = $1 AND t.text <> '' GROUP BY l.key`,
  `SELECT namespace AS name, count(*)::int AS keys FROM "TranslationKey" WHERE "projectId" = $1 AND namespace <> '' GROUP BY namespace ORDER BY namespace`,
  `SELECT count(*)::int AS keys FROM "TranslationKey" WHERE "projectId" = $1`,
];
// The first 100 cells at the database's limit: the first keys along the (projectId, namespace, key) index, as many
// as 100 cells need, crossed with the languages, their cells by primary key. (It was the cross join of every key
// and language, sorted, then cut: 27x slower than the service's page, a baseline that proved nothing.)
const PAGE = `SELECT k.key, k.namespace, l.key AS language, coalesce(t.text, '') AS text, coalesce(t."reviewStatus", 'NOT_REVIEWED') AS "reviewStatus", t."lastModifiedAt"
  FROM (SELECT id, key, namespace FROM "TranslationKey" WHERE "projectId" = $1 ORDER BY namespace, key
         LIMIT (SELECT (100 + count(*) - 1) / greatest(count(*), 1) FROM "Language" WHERE "projectId" = $1)) k
  CROSS JOIN "Language" l LEFT JOIN "Translation" t ON t."keyId" = k.id AND t."languageId" = l.id
 WHERE l."projectId" = $1 ORDER BY k.namespace, k.key, l."order", l.key LIMIT 100`;

if (options.mode === 'driver') {
  const rate = async (concurrency: number) => {
    const end = performance.now() + (options.seconds ?? 5) * 1000;
    let done = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end) {
          await query(UPSERT, [
            1 + Math.floor(Math.random() * options.keys),
            1 + Math.floor(Math.random() * options.languages),
            `driver ${done}`,
          ]);
          done++;
        }
      }),
    );
    return done / (options.seconds ?? 5);
  };
  const one = await rate(1);
  const sixteen = await rate(16);
  process.stdout.write(JSON.stringify({ 1: one, 16: sixteen }) + '\n');
  await close();
  process.exit(0);
}

const reads: Record<string, string> = { '/languages': LANGUAGES, '/page': PAGE };
const server = createServer((req, res) => {
  const answer = (rows: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 200, msg: 'OK', data: rows }));
  };
  const fail = (error: unknown) => {
    res.writeHead(500);
    res.end(String(error));
  };
  if (req.method === 'GET' && req.url === '/project') {
    Promise.all([query(PROJECT, [1]), ...PROJECT_FIGURES.map((sql) => query(sql, [1]))]).then(answer, fail);
    return;
  }
  if (req.method === 'GET' && reads[req.url!]) {
    query(reads[req.url!]!, [1]).then(answer, fail);
    return;
  }
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    const { key, language, text } = JSON.parse(body) as { key: number; language: number; text: string };
    query(UPSERT, [key, language, text]).then(() => answer({ key, language, text }), fail);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void close().then(() => process.exit(0));
});
