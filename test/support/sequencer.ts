// The order files start in. Vitest runs each project's files as one block and,
// on a clean clone (no results cache), starts the largest files first; a file
// that takes minutes but is short on disk then starts last and runs alone at
// the end of its block, with the other workers idle. The files below run
// service processes, crash loops or large data for a minute or more (the
// suite's JSON report says which): they start first within their project, so
// the short files fill the other worker around them.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONG_FIRST = [
  'test/api/instances.test.ts',
  'test/api/crash-recovery.test.ts',
  'test/api/connection-loss.test.ts',
  'test/api/authorization-matrix.test.ts',
  'test/api/export-memory.test.ts',
  'test/api/import-stream.test.ts',
  'test/api/jobs-recovery.test.ts',
  'test/api/soak.test.ts',
  'test/api/publication-takeover.test.ts',
  'test/api/gitsync.test.ts',
  'test/api/change-subscriptions.test.ts',
  'test/api/console-editor.test.ts',
  'test/api/deletion-findings-race.test.ts',
  'test/unit/formats/xml-stream.test.ts',
  'test/unit/db/pglite-checkpoints.test.ts',
  'test/unit/fuzz.test.ts',
  'test/unit/formats/line-stream.test.ts',
  'test/browser/design.test.ts',
  'test/browser/console.test.ts',
  'test/browser/quality.test.ts',
];

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = LONG_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      return i < 0 ? LONG_FIRST.length : i;
    };
    // Projects run as blocks (a worker is reused only by the next file of its project), in a fixed order:
    // the unit block first, so that its longest files (heap-capped child processes, the WAL test) start
    // at the beginning of the run, not in its last minutes, and the run ends on the postgres block's
    // shortest files. Measured on 2026-12-01, the final 45 s left about a third of the CPU idle in either
    // order: the order makes the end predictable, it did not shorten it. Within a block, the long files
    // go first.
    const order = ['unit', 'browser', 'pglite', 'postgres'];
    const place = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
    const projects = [...new Set(sorted.map((spec) => spec.project.name))].sort((a, b) => place(a) - place(b));
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort(
        (a, b) =>
          projects.indexOf(a.spec.project.name) - projects.indexOf(b.spec.project.name) ||
          rank(a.spec) - rank(b.spec) ||
          a.index - b.index,
      )
      .map(({ spec }) => spec);
  }
}
