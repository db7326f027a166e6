// The embedded database's answers parsed by pg-protocol instead of PGlite's
// own parser (src/db/pglite-parser.ts): for every kind of message the engine
// writes (rows of every type, several results, errors with their fields,
// notices, notifications, the extended protocol's messages, COPY), whole and
// cut at any byte, the messages equal PGlite's parser's, and those PGlite
// tells apart by class are of its classes. Then a PGlite session on the
// replaced parser answers queries and errors as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite, protocol } from '@electric-sql/pglite';
import { isPGliteParserReplaced, pgliteOwnParse, replacePGliteParser } from '../../../src/db/pglite-parser.js';

let pglite: PGlite;
const { serialize, messages } = protocol;

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.waitReady;
  await pglite.exec(`CREATE TABLE t (id int PRIMARY KEY, name text NOT NULL, at timestamptz, tags text[], doc jsonb, n numeric, b bytea, ok boolean);
    INSERT INTO t VALUES (1, 'one', '2026-11-30T10:00:00Z', '{a,"b c"}', '{"k": [1, "x"]}', 12.50, '\\x00ff', true),
                         (2, 'it''s é😀 \u00a0', NULL, '{}', NULL, NULL, NULL, NULL),
                         (3, '', '1970-01-01T00:00:00Z', NULL, '[]', -0.001, '\\x', false),
                         (4, '\uFEFFa byte order mark first', NULL, NULL, NULL, NULL, NULL, NULL)`);
});
afterAll(() => pglite.close());

/** The engine's bytes for the messages (parsed by PGlite on the way, which these tests do not read). */
const answer = (...sent: Uint8Array[]) =>
  pglite.execProtocolRaw(Uint8Array.from(sent.flatMap((m) => [...m])), { syncToFs: false });

/** The messages of `bytes` as a parser gives them, fed in pieces of `piece` bytes (a message split across writes). */
function parsed(parse: (buffer: Uint8Array, callback: (m: unknown) => void) => void, bytes: Uint8Array, piece: number) {
  const out: unknown[] = [];
  for (let at = 0; at < bytes.length; at += piece) parse(bytes.slice(at, at + piece), (m) => out.push(m));
  return out;
}

/** What a message holds: its own fields (an error's message too), typed arrays as plain lists. */
const plain = (message: unknown): unknown => {
  const m = message as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (m instanceof Error) out.message = m.message;
  for (const [name, value] of Object.entries(m))
    out[name] =
      value instanceof Uint8Array
        ? [...value]
        : Array.isArray(value)
          ? value.map((v) => (typeof v === 'object' && v ? plain(v) : v))
          : value;
  return out;
};

/** Parses the bytes with both parsers, in several cuts, and checks they agree; returns the messages. */
function bothParsers(bytes: Uint8Array): unknown[] {
  const own = pgliteOwnParse(protocol);
  const theirs = parsed((b, cb) => own.call(new protocol.Parser(), b, cb), bytes, bytes.length);
  for (const piece of [bytes.length, 1, 3, 7, 64, 1000]) {
    const ours = new protocol.Parser();
    const got = parsed((b, cb) => ours.parse(b, cb), bytes, piece);
    expect(got.map(plain), `in pieces of ${piece}`).toEqual(theirs.map(plain));
    // The messages PGlite tells apart by class are of its classes.
    for (const [i, m] of got.entries())
      for (const kind of [messages.DatabaseError, messages.NoticeMessage, messages.NotificationResponseMessage])
        expect(m instanceof kind, `message ${i}`).toBe(theirs[i] instanceof kind);
  }
  return theirs;
}

describe("PGlite's answers parsed by pg-protocol", () => {
  it('is what the service opens PGlite with', () => {
    replacePGliteParser(protocol);
    expect(isPGliteParserReplaced(protocol)).toBe(true);
  });

  it('gives the rows of every type, nulls, several results and their counts as PGlite does', async () => {
    const bytes = await answer(
      serialize.query(
        `SELECT * FROM t ORDER BY id; SELECT count(*), 'x' AS "a b", NULL::text AS none; UPDATE t SET n = n WHERE id > 0`,
      ),
    );
    const got = bothParsers(bytes).map((m) => (m as { name: string }).name);
    expect(got).toEqual([
      'rowDescription',
      'dataRow',
      'dataRow',
      'dataRow',
      'dataRow',
      'commandComplete',
      'rowDescription',
      'dataRow',
      'commandComplete',
      'commandComplete',
      'readyForQuery',
    ]);
  });

  it('gives a long row, split over many writes of the engine, whole', async () => {
    const long = 'ü'.repeat(30_000);
    const bytes = await answer(serialize.query(`SELECT '${long}' AS long, generate_series(1, 3) AS n`));
    const rows = bothParsers(bytes).filter((m) => (m as { name: string }).name === 'dataRow') as { fields: string[] }[];
    expect(rows.map((r) => r.fields)).toEqual([1, 2, 3].map((n) => [long, String(n)]));
  });

  it("gives errors with every field, as instances of PGlite's DatabaseError", async () => {
    const duplicate = await answer(serialize.query(`INSERT INTO t (id, name) VALUES (1, 'again')`));
    const syntax = await answer(serialize.query(`SELEC 1`));
    const missing = await answer(serialize.query(`INSERT INTO t (id) VALUES (9)`));
    for (const bytes of [duplicate, syntax, missing]) {
      const error = bothParsers(bytes).find((m) => (m as { name: string }).name === 'error');
      expect(error).toBeInstanceOf(messages.DatabaseError);
    }
    const [error] = bothParsers(duplicate) as (InstanceType<typeof messages.DatabaseError> & Record<string, unknown>)[];
    expect(error).toMatchObject({ code: '23505', constraint: 't_pkey', table: 't', severity: 'ERROR' });
    expect(error!.detail).toContain('(id)=(1)');
  });

  it("gives notices and notifications as PGlite's classes", async () => {
    const notice = bothParsers(
      await answer(serialize.query(`DO $$ BEGIN RAISE NOTICE 'heads up %', 42 USING HINT = 'a hint'; END $$`)),
    );
    expect(notice.find((m) => m instanceof messages.NoticeMessage)).toMatchObject({
      message: 'heads up 42',
      hint: 'a hint',
    });
    await pglite.exec(`LISTEN channel`);
    const notified = bothParsers(await answer(serialize.query(`NOTIFY channel, 'payload é'`)));
    expect(notified.find((m) => m instanceof messages.NotificationResponseMessage)).toMatchObject({
      channel: 'channel',
      payload: 'payload é',
    });
    await pglite.exec(`UNLISTEN channel`);
  });

  it("gives the extended protocol's messages and COPY's as PGlite does", async () => {
    const extended = bothParsers(
      await answer(
        serialize.parse({ name: 'p1', text: 'SELECT name FROM t WHERE id = $1::int' }),
        serialize.describe({ type: 'S', name: 'p1' }),
        serialize.bind({ statement: 'p1', values: ['2'] }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ),
    ).map((m) => (m as { name: string }).name);
    expect(extended).toEqual([
      'parseComplete',
      'parameterDescription',
      'rowDescription',
      'bindComplete',
      'rowDescription',
      'dataRow',
      'commandComplete',
      'readyForQuery',
    ]);
    const copy = bothParsers(await answer(serialize.query(`COPY (SELECT id, name FROM t ORDER BY id) TO STDOUT`)));
    expect(copy.map((m) => (m as { name: string }).name)).toEqual([
      'copyOutResponse',
      'copyData',
      'copyData',
      'copyData',
      'copyData',
      'copyDone',
      'commandComplete',
      'readyForQuery',
    ]);
  });

  it('leaves a PGlite session answering queries, results and errors as before', async () => {
    expect((await pglite.query<{ name: string }>(`SELECT name FROM t WHERE id = $1`, [2])).rows).toEqual([
      { name: "it's é😀 \u00a0" },
    ]);
    // A text's leading byte order mark is the text's (PGlite's decoder ignores none either).
    expect((await pglite.query<{ name: string }>(`SELECT name FROM t WHERE id = 4`)).rows[0]!.name).toBe(
      '\uFEFFa byte order mark first',
    );
    await expect(pglite.query(`INSERT INTO t (id, name) VALUES (1, 'again')`)).rejects.toMatchObject({ code: '23505' });
    await expect(pglite.query(`INSERT INTO t (id, name) VALUES (1, 'again')`)).rejects.toBeInstanceOf(
      messages.DatabaseError,
    );
    const rows = await pglite.query<{ n: number }>(`SELECT generate_series(1, 20000) AS n`);
    expect(rows.rows.length).toBe(20_000);
    expect(rows.rows.at(-1)).toEqual({ n: 20_000 });
  });
});
