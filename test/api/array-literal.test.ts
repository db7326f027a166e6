// Bulk statements pass their columns as array literals (src/db/array-literal.ts):
// every text must come back from the database exactly as given, whatever
// characters of the literal syntax it holds, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrayLiteral } from '../../src/db/array-literal.js';
import { ensureKeys, keyRefId } from '../../src/content/translations/store.js';
import { startTestService, type TestService } from '../support/service.js';

const HOSTILE = [
  '',
  ' ',
  '  padded  ',
  'NULL',
  'null',
  '"',
  '""',
  '\\',
  '\\\\"',
  'a,b',
  '{x}',
  '{',
  '}',
  '{"a","b"}',
  "it's",
  '\\N',
  'tab\there',
  'line\nbreak',
  'cr\r\n',
  'Straße',
  'ÉCOLE',
  '日本語',
  '😀 emoji',
  '\u00a0nbsp',
  'end\\',
];

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('array literals for bulk parameters', () => {
  it('round-trips texts holding the literal syntax, and NULLs', async () => {
    const values = [...HOSTILE, null];
    // Read back as JSON text: what the database parsed, not how the driver decodes arrays.
    const [row] = await service.db.prisma.$queryRawUnsafe<{ a: string }[]>(
      `SELECT array_to_json($1::text[])::text AS a`,
      arrayLiteral(values),
    );
    expect(JSON.parse(row!.a)).toEqual(values);
  });

  it('round-trips integers, booleans and NULLs through their array types', async () => {
    const [row] = await service.db.prisma.$queryRawUnsafe<{ j: string }[]>(
      `SELECT json_build_array($1::int[], $2::boolean[])::text AS j`,
      arrayLiteral([1, -2, 2 ** 31 - 1, null]),
      arrayLiteral([true, false, null]),
    );
    expect(JSON.parse(row!.j)).toEqual([
      [1, -2, 2 ** 31 - 1, null],
      [true, false, null],
    ]);
  });

  it('creates and finds keys with such names through the bulk key path', async () => {
    const project = await (await service.account()).project('array-literal');
    const projectId = (
      await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: project.projectToken } })
    ).id;
    const refs = HOSTILE.filter((k) => k.trim() !== '').map((key, i) => ({ key, namespace: i % 2 ? '' : `ns ${key}` }));
    const { ids, created } = await ensureKeys(service.db.prisma, projectId, refs, { create: true });
    expect(created).toBe(refs.length);
    const stored = await service.db.prisma.translationKey.findMany({
      where: { projectId },
      select: { id: true, key: true, namespace: true },
    });
    expect(new Map(stored.map((k) => [keyRefId(k), k.id]))).toEqual(ids);
  });

  it('refuses a number that has no literal', () => {
    expect(() => arrayLiteral([Number.NaN])).toThrow(/finite/);
  });
});
