// Scenario 6: 1,000 graphql-ws subscribers to one job's progress; latency from
// the moment the service published an event to its arrival at each subscriber.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { BenchService } from '../lib/service.js';
import { projectIdOf } from '../lib/project-id.js';
import { percentile } from '../lib/report.js';
import type { Figure } from '../lib/types.js';
import { ensureKeys, keyRefId } from '../../src/content/translations/store.js';
import { ensureLanguages } from '../../src/content/languages.js';
import { writeTranslations } from '../../src/content/translations/gate.js';
import { openChange } from '../../src/content/changes.js';

const SUBSCRIBERS = 1000;
const KEYS = 3000;

export async function subscriptionScenario(bench: BenchService, db: Figure['db']): Promise<Figure[]> {
  const project = await bench.project('bench-subscriptions');
  const prisma = bench.service.db.prisma;
  const projectId = await projectIdOf(prisma, project.projectToken);
  const refs = Array.from({ length: KEYS }, (_, i) => ({ key: `k${i}`, namespace: '' }));
  const { ids } = await ensureKeys(prisma, projectId, refs, { create: true });
  const langs = await ensureLanguages(prisma, projectId, [{ key: 'en' }, { key: 'de' }], { create: true });
  await writeTranslations(
    prisma,
    projectId,
    refs.map((r, i) => ({
      keyId: ids.get(keyRefId(r))!,
      languageId: langs.ids.get('en')!,
      customerId: null,
      text: `Text ${i}`,
    })),
    { replace: true, change: await openChange(prisma, projectId, 'TRANSLATIONS') },
  );

  // The subscribers run in a process of their own, like a load generator.
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      new URL('../lib/ws-subscribers.ts', import.meta.url).pathname,
      bench.url.replace('http', 'ws') + '/graphql',
      project.apiKey,
      String(SUBSCRIBERS),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  if ((await lines.next()).value !== 'ready') throw new Error('subscribers did not start');
  const res = await fetch(`${bench.url}/api/v1/jobs/auto-translate`, {
    method: 'POST',
    headers: { 'x-service-token': project.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ translationProvider: 'PSEUDO', targetProjectLanguage: 'de', targetLanguage: 'de' }),
  });
  if (res.status !== 200) throw new Error(`job failed to start: ${await res.text()}`);
  const latencies = JSON.parse((await lines.next()).value as string) as number[];
  const events = latencies.length / SUBSCRIBERS;
  const p99 = percentile(latencies, 99);
  return [
    {
      scenario: '1,000 graphql-ws subscribers',
      db,
      metric: 'delivery p50',
      value: percentile(latencies, 50),
      unit: 'ms',
      note: `${events.toFixed(0)} events each`,
    },
    {
      scenario: '1,000 graphql-ws subscribers',
      db,
      metric: 'delivery p99',
      value: p99,
      unit: 'ms',
      target: 'p99 < 100 ms',
      met: p99 < 100,
    },
  ];
}
