// A large project written straight in SQL (the benchmarks measure reading it,
// not importing it): keys `from`..`to` (1-based) in every language of LANGUAGES
// (the first is the project's default), texts of a few words drawn per cell so
// that a text filter finds some cells, not every cell or none. Called again
// with a further range, it grows the same project.
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { LANGUAGES } from './data.js';

const WORDS = ['welcome', 'account', 'settings', 'invoice', 'delete', 'profile', 'search', 'message', 'payment', 'Straße', 'École', 'order', 'cancel', 'upload', 'share', 'report'];

export async function seedKeys(prisma: PrismaClient, projectId: number, from: number, to: number): Promise<void> {
  await prisma.$executeRawUnsafe(
    `INSERT INTO "Language" ("projectId", key, name, "order", "isDefault")
     SELECT $1, k, 'Language ' || k, o, false FROM unnest($2::text[]) WITH ORDINALITY AS t(k, o) ON CONFLICT DO NOTHING`,
    projectId, LANGUAGES,
  );
  const [{ before }] = await prisma.$queryRawUnsafe<{ before: number }[]>(`SELECT coalesce(max(id), 0)::int AS before FROM "TranslationKey"`);
  await prisma.$executeRawUnsafe(
    `INSERT INTO "TranslationKey" ("projectId", key, namespace)
     SELECT $1, 'screen' || (n / 50) || '.section' || (n / 10 % 5) || '.key.' || lpad(n::text, 7, '0'), 'ns' || (n % 5) FROM generate_series($2::int, $3::int) n`,
    projectId, from, to,
  );
  const words = `ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}]`;
  await prisma.$executeRawUnsafe(
    `INSERT INTO "Translation" ("keyId", "languageId", "projectId", text)
     SELECT k.id, l.id, $1,
            l.key || ': ' || (${words})[1 + (k.id * 7 + l.id) % ${WORDS.length}] || ' ' || (${words})[1 + (k.id / 3 + l.id * 5) % ${WORDS.length}]
            || ' of ' || k.key || ' with {name}'
       FROM "TranslationKey" k JOIN "Language" l ON l."projectId" = k."projectId"
      WHERE k."projectId" = $1 AND k.id > $2`,
    projectId, before,
  );
  await prisma.$executeRawUnsafe('ANALYZE');
}
