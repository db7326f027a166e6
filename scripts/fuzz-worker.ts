// A fuzz worker: a child process of the runner (scripts/fuzz-runner.ts) that
// judges the cases it is sent, one at a time, with the heap limit the runner
// started it with. A hang or a crash here costs this process only: the runner
// kills it or sees it die, records the case and starts another.
import type { CheckResult, FuzzInput } from './fuzz-check.js';

// The runner may name another judge (its own tests do, to see hangs and crashes handled).
const { check } = (await import(process.argv[2] ?? './fuzz-check.js')) as {
  check: (input: FuzzInput) => Promise<CheckResult>;
};

interface Task {
  id: number;
  input: Omit<FuzzInput, 'bytes'> & { bytes: Uint8Array };
}

process.on('message', (task: Task) => {
  const input: FuzzInput = {
    ...task.input,
    bytes: Buffer.from(task.input.bytes.buffer, task.input.bytes.byteOffset, task.input.bytes.byteLength),
  };
  check(input).then(
    (result) => process.send!({ id: task.id, result }),
    (error: unknown) =>
      process.send!({
        id: task.id,
        result: {
          verdict: 'untyped',
          parseMs: 0,
          detail: `the check itself threw ${error instanceof Error ? error.stack : String(error)}`,
        },
      }),
  );
});
// Parsers run promise chains: an unhandled rejection or exception that
// escapes them would crash an import request the same way.
process.on('unhandledRejection', (error) => {
  process.stderr.write(`unhandledRejection: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(70);
});
process.send!({ ready: true });
