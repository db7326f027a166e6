// Splits texts into provider requests within the provider's limits: at most
// `maxTexts` texts and at most `maxSize` size units (bytes or characters, as
// the provider counts them) per request. Order is kept. A single text larger
// than maxSize gets a batch of its own; callers refuse it beforehand when the
// limit is hard (see BatchLimits.hard).
import type { BatchLimits } from './types.js';

export function splitIntoBatches<T>(items: T[], limits: BatchLimits, textOf: (item: T) => string): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const itemSize = limits.sizeOf(textOf(item));
    if (current.length && (current.length >= limits.maxTexts || size + itemSize > limits.maxSize)) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += itemSize;
  }
  if (current.length) batches.push(current);
  return batches;
}

/** Unicode code points, the unit providers bill and limit by. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Bytes a string takes as a JSON array element (quoted, escaped, UTF-8) plus its separating comma. */
export function jsonElementBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text), 'utf8') + 1;
}
