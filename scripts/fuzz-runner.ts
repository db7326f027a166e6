// The fuzz runner: makes mutated files from the seeds (scripts/fuzz-seeds.ts)
// and has them judged (scripts/fuzz-check.ts) by a pool of child processes,
// each with a heap limit, each case with a time limit. A case that runs out
// of time is a hang (its process is killed), one that takes its process down
// is a crash (out of heap: "heap"); both cost only that process, which is
// replaced. Case n of seed s is always the same file, so any finding can be
// replayed alone (`npm run fuzz -- --seed s --case n`).
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatIds, registeredFormat } from '../src/formats/registry.js';
import type { ImportOption } from '../src/transfer/options.js';
import { FINDINGS, type CheckResult, type FuzzInput } from './fuzz-check.js';
import { caseRandom, mutate, mutateZipEntry, tokenFamiliesOf, type Random } from './fuzz-mutate.js';
import { allSeeds, CORPUS_ROOT, type Seed } from './fuzz-seeds.js';

export interface FuzzOptions {
  count: number;
  seed: number;
  workers?: number;
  /** A case running longer is a hang. */
  timeoutMs?: number;
  /** Heap (old space) of each worker process. */
  heapMb?: number;
  /** Only these format ids (default: every registered format). */
  formats?: string[];
  /** Run this one case number only (replay). */
  onlyCase?: number;
  corpusRoot?: string;
  /** Where the files of findings are written (default: a temp folder). */
  findingsDir?: string;
  progress?: (done: number, total: number) => void;
  /** A module exporting check() to use instead of fuzz-check.ts (the runner's own tests). */
  checkModule?: string;
}

export interface Finding {
  caseNumber: number;
  formatId: string;
  verdict: string;
  detail: string;
  origin: string;
  mutations: string[];
  file: string;
}

export interface FuzzReport {
  cases: number;
  seeds: number;
  verdicts: Record<string, number>;
  findings: Finding[];
  slowest: { ms: number; formatId: string; caseNumber: number; origin: string };
  perFormat: Record<string, { cases: number; accepted: number; rejected: number }>;
  seconds: number;
}

interface Case {
  caseNumber: number;
  input: FuzzInput;
  origin: string;
  mutations: string[];
}

/** The import options of a case: a languageKey when the format needs one, layouts and text options at random. */
function optionsOf(formatId: string, random: Random): { languageKey?: string; options: ImportOption[] } {
  const format = registeredFormat(formatId)!;
  const options: ImportOption[] = [];
  if (format.multiLanguageLayouts) {
    const layout = random.int(3);
    if (layout >= 1) options.push('MULTI_LANGUAGE');
    if (layout === 2) options.push('LANGUAGES_NESTED');
  }
  if (format.format.extension === 'xlsx' && random.chance(0.3)) options.push('SHEETS_AS_NAMESPACES');
  for (const textOption of ['TRIM_LEADING_TRAILING_SPACES', 'UNESCAPE_NEW_LINES', 'UNESCAPE_SINGLE_QUOTES'] as const)
    if (random.chance(0.1)) options.push(textOption);
  const several = format.format.multiLanguage || options.includes('MULTI_LANGUAGE');
  // A file that names its language (PO, Qt, ARB) is read in it: forced into
  // another, its plural forms are those of the file's language, and an export
  // in the forced one rightly writes that language's forms.
  const languageKey = several
    ? random.chance(0.1)
      ? 'de'
      : undefined
    : format.languageInFile
      ? undefined
      : random.chance(0.9)
        ? 'de'
        : 'en';
  return { languageKey, options };
}

/** Case n of the run: its format (round robin, so every format gets its share), seed file and mutations. */
export async function makeCase(
  seeds: Map<string, Seed[]>,
  ids: readonly string[],
  seed: number,
  caseNumber: number,
): Promise<Case> {
  const random = caseRandom(seed, caseNumber);
  const formatId = ids[caseNumber % ids.length]!;
  const format = registeredFormat(formatId)!;
  const own = seeds.get(formatId) ?? [];
  // Mostly the format's own seeds; sometimes another format's file (JSON into YAML, XML into the Android reader).
  const foreign = own.length === 0 || random.chance(0.08);
  const pool = foreign ? seeds.get(random.pick(ids))! : own;
  const start = random.pick(pool);
  const context = { families: tokenFamiliesOf(format.format.extension), donors: own.map((s) => s.bytes) };
  let bytes = start.bytes;
  let mutations: string[] = [];
  if (!random.chance(0.03)) {
    const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b;
    ({ bytes, applied: mutations } =
      isZip && random.chance(0.7) ? await mutateZipEntry(bytes, random, context) : mutate(bytes, random, context));
  }
  return {
    caseNumber,
    input: { formatId, bytes, ...optionsOf(formatId, random) },
    origin: `${foreign ? 'foreign ' : ''}${start.origin}`,
    mutations,
  };
}

interface Pending {
  task: Case;
  timer: NodeJS.Timeout;
  resolve: (result: CheckResult) => void;
}

/** One worker process and the case it is judging. */
class Worker {
  private child: ChildProcess;
  private ready: Promise<void>;
  private pending: Pending | undefined;
  private stderr = '';

  constructor(
    private readonly heapMb: number,
    private readonly timeoutMs: number,
    private readonly checkModule?: string,
  ) {
    ({ child: this.child, ready: this.ready } = this.spawn());
  }

  private spawn(): { child: ChildProcess; ready: Promise<void> } {
    const child = fork(join(import.meta.dirname, 'fuzz-worker.ts'), this.checkModule ? [this.checkModule] : [], {
      execArgv: ['--import', 'tsx', `--max-old-space-size=${this.heapMb}`, `--max-semi-space-size=16`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: { ready?: boolean; id?: number; result?: CheckResult }) => {
        if (message.ready) return resolve();
        if (this.pending && message.id === this.pending.task.caseNumber) this.settle(message.result!);
      };
      child.on('message', onMessage);
      child.once('exit', (code, signal) => {
        reject(new Error(`fuzz worker exited before it was ready (${code ?? signal}): ${this.stderr}`));
        if (this.pending && this.child === child) {
          const heap = /heap limit|out of memory/i.test(this.stderr);
          this.settle(
            {
              verdict: heap ? 'heap' : 'crash',
              parseMs: 0,
              detail: `worker died (${code ?? signal}): ${this.stderr.trim().split('\n').slice(-5).join(' | ')}`,
            },
            true,
          );
        }
      });
    });
    ready.catch(() => undefined);
    return { child, ready };
  }

  private settle(result: CheckResult, dead = false): void {
    const pending = this.pending!;
    this.pending = undefined;
    clearTimeout(pending.timer);
    if (dead) ({ child: this.child, ready: this.ready } = this.spawn());
    pending.resolve(result);
  }

  async run(task: Case): Promise<CheckResult> {
    await this.ready;
    return new Promise<CheckResult>((resolve) => {
      const timer = setTimeout(() => {
        // A hang: the process is killed; its 'exit' must not count as a crash.
        const child = this.child;
        this.pending = undefined;
        child.kill('SIGKILL');
        ({ child: this.child, ready: this.ready } = this.spawn());
        resolve({ verdict: 'hang', parseMs: this.timeoutMs, detail: `no answer within ${this.timeoutMs} ms` });
      }, this.timeoutMs);
      this.pending = { task, timer, resolve };
      this.child.send({ id: task.caseNumber, input: task.input });
    });
  }

  close(): void {
    this.child.removeAllListeners('exit');
    this.child.kill('SIGKILL');
  }
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const ids = options.formats ?? formatIds();
  for (const id of ids) if (!registeredFormat(id)) throw new Error(`unknown format ${id}`);
  const seeds = await allSeeds(options.corpusRoot ?? CORPUS_ROOT);
  const findingsDir = options.findingsDir ?? join(tmpdir(), `fuzz-findings-${options.seed}`);
  const numbers =
    options.onlyCase !== undefined ? [options.onlyCase] : Array.from({ length: options.count }, (_, i) => i);
  const workers = Array.from(
    { length: Math.max(1, Math.min(options.workers ?? availableParallelism(), numbers.length)) },
    () => new Worker(options.heapMb ?? 256, options.timeoutMs ?? 10_000, options.checkModule),
  );

  const report: FuzzReport = {
    cases: 0,
    seeds: [...seeds.values()].reduce((n, s) => n + s.length, 0),
    verdicts: {},
    findings: [],
    slowest: { ms: 0, formatId: '', caseNumber: -1, origin: '' },
    perFormat: Object.fromEntries(ids.map((id) => [id, { cases: 0, accepted: 0, rejected: 0 }])),
    seconds: 0,
  };
  let next = 0;
  const record = (task: Case, result: CheckResult) => {
    report.cases++;
    report.verdicts[result.verdict] = (report.verdicts[result.verdict] ?? 0) + 1;
    const perFormat = report.perFormat[task.input.formatId]!;
    perFormat.cases++;
    if (result.verdict === 'accepted') perFormat.accepted++;
    if (result.verdict === 'rejected') perFormat.rejected++;
    if (result.verdict !== 'hang' && result.parseMs > report.slowest.ms)
      report.slowest = {
        ms: Math.round(result.parseMs),
        formatId: task.input.formatId,
        caseNumber: task.caseNumber,
        origin: task.origin,
      };
    if (FINDINGS.includes(result.verdict)) {
      mkdirSync(findingsDir, { recursive: true });
      const file = join(findingsDir, `${task.caseNumber}-${task.input.formatId}-${result.verdict}.bin`);
      writeFileSync(file, task.input.bytes);
      report.findings.push({
        caseNumber: task.caseNumber,
        formatId: task.input.formatId,
        verdict: result.verdict,
        detail: result.detail ?? '',
        origin: task.origin,
        mutations: task.mutations,
        file,
      });
    }
    options.progress?.(report.cases, numbers.length);
  };
  try {
    await Promise.all(
      workers.map(async (worker) => {
        while (next < numbers.length) {
          const task = await makeCase(seeds, ids, options.seed, numbers[next++]!);
          record(task, await worker.run(task));
        }
      }),
    );
  } finally {
    for (const worker of workers) worker.close();
  }
  report.findings.sort((a, b) => a.caseNumber - b.caseNumber);
  report.seconds = Math.round((performance.now() - started) / 100) / 10;
  return report;
}

/**
 * Judges given inputs (a finding's file, a regression) under the same time
 * and heap limits, one worker process: a hang or crash is a verdict here too,
 * never a stuck caller.
 */
export async function judgeInputs(
  inputs: FuzzInput[],
  options: Pick<FuzzOptions, 'timeoutMs' | 'heapMb' | 'checkModule'> = {},
): Promise<CheckResult[]> {
  const worker = new Worker(options.heapMb ?? 256, options.timeoutMs ?? 10_000, options.checkModule);
  try {
    const results: CheckResult[] = [];
    for (const [i, input] of inputs.entries())
      results.push(await worker.run({ caseNumber: i, input, origin: 'given', mutations: [] }));
    return results;
  } finally {
    worker.close();
  }
}
