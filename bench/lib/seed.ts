// A large project written straight in SQL (the benchmarks measure reading it,
// not importing it): keys `from`..`to` (1-based) in every language of LANGUAGES
// (the first is the project's default), texts of a few words drawn per cell so
// that a text filter finds some cells, not every cell or none. Called again
// with a further range, it grows the same project.
import { Prisma, type PrismaClient } from '../../src/generated/prisma/client.js';
import { LANGUAGES } from './data.js';

const WORDS = [
  'welcome',
  'account',
  'settings',
  'invoice',
  'delete',
  'profile',
  'search',
  'message',
  'payment',
  'Straße',
  'École',
  'order',
  'cancel',
  'upload',
  'share',
  'report',
];

export async function seedKeys(prisma: PrismaClient, projectId: number, from: number, to: number): Promise<void> {
  await prisma.$executeRaw(Prisma.sql`/* bench:seed-languages */ INSERT INTO "Language" ("projectId", key, name, "order", "isDefault")
     SELECT ${projectId}, k, 'Language ' || k, o, false FROM unnest(${LANGUAGES}::text[]) WITH ORDINALITY AS t(k, o) ON CONFLICT DO NOTHING`);
  const [{ before }] = await prisma.$queryRaw<{ before: number }[]>(
    Prisma.sql`/* bench:seed-last-key */ SELECT coalesce(max(id), 0)::int AS before FROM "TranslationKey"`,
  );
  await prisma.$executeRaw(Prisma.sql`/* bench:seed-keys */ INSERT INTO "TranslationKey" ("projectId", key, namespace)
     SELECT ${projectId}, 'screen' || (n / 50) || '.section' || (n / 10 % 5) || '.key.' || lpad(n::text, 7, '0'), 'ns' || (n % 5)
       FROM generate_series(${from}::int, ${to}::int) n`);
  await prisma.$executeRaw(Prisma.sql`/* bench:seed-translations */ INSERT INTO "Translation" ("keyId", "languageId", "projectId", text)
     SELECT k.id, l.id, ${projectId},
            l.key || ': ' || w.words[1 + (k.id * 7 + l.id) % ${WORDS.length}] || ' ' || w.words[1 + (k.id / 3 + l.id * 5) % ${WORDS.length}]
            || ' of ' || k.key || ' with {name}'
       FROM "TranslationKey" k JOIN "Language" l ON l."projectId" = k."projectId" CROSS JOIN (SELECT ${WORDS}::text[] AS words) w
      WHERE k."projectId" = ${projectId} AND k.id > ${before}`);
  await prisma.$executeRaw(Prisma.sql`ANALYZE`);
}
