// The findings updater's statement that removes the old findings of a round's keys whose queue entry is still
// the generation leased (clearFindingsSql, src/findings/updater.ts) reads the keys' own findings, whatever the planner knows of the
// table: planned without column statistics (a Finding table no ANALYZE has read, as on a server without
// autovacuum), the statement joined with the list of keys scanned every finding in the database, each round.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearFindingsSql } from '../../src/findings/updater.js';
import { preparedPlan, rowsRead, type PlanNode } from '../support/query-plan.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi } from '../support/project-api.js';

let service: TestService;
let projectId: number;

beforeAll(async () => {
  service = await startTestService();
  const api = await projectApi(service, await service.account(), 'Dequeue plan');
  const res = await api.post('/api/v1/translations', {
    content: ['en', 'de', 'fr'].map((language) => ({ key: 'planned', language, text: `Planned ${language}` })),
  });
  expect(res.status).toBe(200);
  projectId = (await service.db.prisma.project.findUniqueOrThrow({ where: { projectToken: api.projectToken } })).id;
});

afterAll(async () => {
  await service?.close();
});

class Rollback extends Error {}

describe('a findings round', () => {
  it("clears its keys' old findings from the primary key, without the table's statistics", async (ctx) => {
    // Column statistics can be taken away on PostgreSQL only (the embedded database analyzes on its own schedule).
    if (service.db.kind !== 'postgres') ctx.skip();
    const prisma = service.db.prisma;
    const key = await prisma.translationKey.findFirstOrThrow({ where: { projectId, key: 'planned' } });
    const languages = await prisma.language.findMany({ where: { projectId }, select: { id: true } });
    let root: PlanNode | undefined;
    await prisma
      .$transaction(async (tx) => {
        // Findings of other keys (no foreign key holds them to a key), and the table as if never analyzed.
        await tx.$executeRaw`INSERT INTO "Finding" ("keyId", "languageId", "check", n, "projectId", severity, message)
          SELECT 1000000000 + g / 10, g % 10, 'placeholders-missing', 0, 999999, 'error', 'elsewhere' FROM generate_series(1, 50000) g`;
        await tx.$executeRaw`DELETE FROM pg_statistic WHERE starelid = '"Finding"'::regclass`;
        await tx.$executeRaw`UPDATE pg_class SET reltuples = -1 WHERE oid = '"Finding"'::regclass`;
        // The key's own findings, one a language, and its queue entry of the round.
        for (const language of languages)
          await tx.$executeRaw`INSERT INTO "Finding" ("keyId", "languageId", "check", n, "projectId", severity, message)
            VALUES (${key.id}, ${language.id}, 'placeholders-missing', 0, ${projectId}, 'error', 'old') ON CONFLICT DO NOTHING`;
        await tx.$executeRaw`INSERT INTO "FindingQueue" ("keyId", "projectId", generation) VALUES (${key.id}, ${projectId}, 77)
          ON CONFLICT ("keyId") DO UPDATE SET generation = 77, "leasedUntil" = NULL, "leaseOwner" = NULL`;
        // The plan PostgreSQL may keep for the named statement after five runs: generic, made without the lists'
        // lengths (a plan made for these values read the key's rows either way).
        root = await preparedPlan(tx, clearFindingsSql([[key.id, 77]], [[key.id, null]]), 'force_generic_plan');
        const left = await tx.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM "Finding" WHERE "keyId" = ${key.id} AND "check" = 'placeholders-missing'`;
        expect(left[0]!.n).toBe(0);
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    const read = rowsRead(root!);
    // Each Finding scan read the key's rows, not the 50,000 of the other keys.
    const findings = [...read].filter(([name]) => name.startsWith('Finding '));
    expect(findings.length).toBeGreaterThan(0);
    for (const [name, rows] of findings) expect(rows, name).toBeLessThanOrEqual(languages.length);
  });
});
