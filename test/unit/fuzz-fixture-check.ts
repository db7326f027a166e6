// A stand-in judge for the fuzz runner's own test (test/unit/fuzz.test.ts):
// it misbehaves on purpose, by format, so the test can see that the runner
// records a hang, an exhausted heap and a dead process, and carries on.
import type { CheckResult, FuzzInput } from '../../scripts/fuzz-check.js';

export async function check(input: FuzzInput): Promise<CheckResult> {
  switch (input.formatId) {
    case 'android': // a parser stuck in a loop
      for (;;);
    case 'android-strings': {
      // a parser that never stops allocating
      const hoard: unknown[] = [];
      for (;;) hoard.push({ text: `${hoard.length}`.repeat(8) });
    }
    case 'android-xml': // an exception thrown where nothing catches it
      setImmediate(() => {
        throw new Error('escaped from a callback');
      });
      return new Promise(() => undefined);
    default:
      return { verdict: 'accepted', parseMs: 1 };
  }
}
