// `npm run fuzz -- --count 10000 [--seed 1] [--workers 2] [--timeout-ms 10000]
// [--heap-mb 256] [--format yaml,po] [--case 1234] [--out dir]`: mutates the
// corpus and every format's own exports, runs every parser of src/formats on
// them (scripts/fuzz-runner.ts) and exits 1 on any hang, crash, untyped
// exception, failing export or round trip that changes the data. The files of
// findings are written to --out; `--seed s --case n` replays one, and
// `--file f --format id [--language de]` judges a file as it is.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { judgeInputs, runFuzz } from './fuzz-runner.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
    workers: { type: 'string' },
    'timeout-ms': { type: 'string', default: '10000' },
    'heap-mb': { type: 'string', default: '256' },
    format: { type: 'string' },
    case: { type: 'string' },
    out: { type: 'string' },
    json: { type: 'boolean', default: false },
    file: { type: 'string' },
    language: { type: 'string' },
  },
});

const number = (name: string, value: string | undefined) => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${value}`);
  return n;
};

if (values.file) {
  if (!values.format) throw new Error('--file needs --format');
  const [result] = await judgeInputs(
    [{ formatId: values.format, bytes: readFileSync(values.file), languageKey: values.language, options: [] }],
    { timeoutMs: number('timeout-ms', values['timeout-ms']) },
  );
  console.log(JSON.stringify(result, null, 2));
  process.exit(['accepted', 'rejected'].includes(result!.verdict) ? 0 : 1);
}

const report = await runFuzz({
  count: number('count', values.count)!,
  seed: number('seed', values.seed)!,
  workers: number('workers', values.workers),
  timeoutMs: number('timeout-ms', values['timeout-ms']),
  heapMb: number('heap-mb', values['heap-mb']),
  formats: values.format?.split(',').map((f) => f.trim()),
  onlyCase: number('case', values.case),
  findingsDir: values.out,
  progress: (done, total) => {
    if (process.stderr.isTTY && (done % 100 === 0 || done === total)) process.stderr.write(`\r${done}/${total} cases`);
  },
});
if (process.stderr.isTTY) process.stderr.write('\n');

if (values.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const count = (verdict: string) => report.verdicts[verdict] ?? 0;
  console.log(
    `${report.cases} cases from ${report.seeds} seed files over ${Object.keys(report.perFormat).length} formats in ${report.seconds} s`,
  );
  console.log(`accepted ${count('accepted')}, rejected (FormatError / 400) ${count('rejected')}`);
  console.log(
    `hangs ${count('hang')}, crashes ${count('crash') + count('heap')} (out of heap ${count('heap')}), untyped exceptions ${count('untyped')}, failed exports ${count('export-failed')}, round trips changing data ${count('round-trip')}`,
  );
  console.log(
    `slowest parse ${report.slowest.ms} ms (${report.slowest.formatId}, case ${report.slowest.caseNumber}, from ${report.slowest.origin})`,
  );
  for (const f of report.findings) {
    console.log(
      `\n${f.verdict} in ${f.formatId}, case ${f.caseNumber} (from ${f.origin}; ${f.mutations.join(', ') || 'unmutated'})\n  ${f.detail}\n  file: ${f.file}`,
    );
  }
}
process.exit(report.findings.length ? 1 : 0);
