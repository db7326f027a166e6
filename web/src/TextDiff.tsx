// Two versions of a text side by side, the words that differ marked: removed
// ones struck through on the before side, added ones on the after side. A
// word diff (longest common subsequence) is enough for translations, which are
// short; a long text falls back to whole-text marking.
import { Fragment } from 'react';

const MAX_WORDS = 400;

/** Words and the spaces between them, so that joining them gives the text back. */
const split = (text: string) => text.split(/(\s+)/).filter((w) => w !== '');

/** For each word of a and b: whether it is common to both (in the longest common subsequence). */
function common(a: string[], b: string[]): [boolean[], boolean[]] {
  const table = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const inA = a.map(() => false);
  const inB = b.map(() => false);
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      inA[i++] = true;
      inB[j++] = true;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return [inA, inB];
}

export function TextDiff({ before, after, side }: { before: string; after: string; side: 'before' | 'after' }) {
  const a = split(before);
  const b = split(after);
  const words = side === 'before' ? a : b;
  if (a.length > MAX_WORDS || b.length > MAX_WORDS) {
    const Mark = side === 'before' ? 'del' : 'ins';
    return before === after ? <>{words.join('')}</> : <Mark>{words.join('')}</Mark>;
  }
  const kept = common(a, b)[side === 'before' ? 0 : 1];
  const Mark = side === 'before' ? 'del' : 'ins';
  return (
    <>
      {words.map((word, i) => (
        <Fragment key={i}>{kept[i] || /^\s+$/.test(word) ? word : <Mark>{word}</Mark>}</Fragment>
      ))}
    </>
  );
}
