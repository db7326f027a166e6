// NestedStream writes, key by key in path order, exactly what unflatten() of
// all the keys gives: checked on random key sets full of the hard cases
// (leaves that are parents, arrays, hoisted array items, flat keys).
import { describe, expect, it } from 'vitest';
import { flatten, pathSortKey, unflatten } from '../../../src/formats/nested-keys.js';
import { NestedStream } from '../../../src/formats/nested-stream.js';
import {
  objectLiteralEnd,
  objectLiteralMembers,
  writeObjectLiteral,
} from '../../../src/formats/object-literal-writer.js';

const SEGMENTS = [
  'a',
  'b',
  'ab',
  'a-b',
  'é',
  'z',
  '0',
  't[0]',
  't[1]',
  't[2]',
  't[01]',
  'u[0][1]',
  'u[0][0]',
  '[3]',
  '',
];

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function randomKeys(next: () => number, count: number): string[] {
  const keys = new Set<string>();
  while (keys.size < count) {
    const depth = 1 + Math.floor(next() * 4);
    keys.add(Array.from({ length: depth }, () => SEGMENTS[Math.floor(next() * SEGMENTS.length)]!).join('.'));
  }
  return [...keys];
}

const style = { leaf: (text: string) => JSON.stringify(text) };

function streamed(keys: string[], next: () => number): string {
  const stream = new NestedStream(
    objectLiteralMembers(style, (v: string) => ({ kind: 'leaf', value: v })),
    true,
  );
  let out = '{';
  let i = 0;
  while (i < keys.length) {
    const page = keys.slice(i, i + Math.floor(next() * 5));
    for (const key of page) out += stream.add(key, key);
    i += page.length;
  }
  return out + stream.end() + objectLiteralEnd(stream.rootMembers);
}

const inPathOrder = (keys: string[]) => [...keys].sort((a, b) => Buffer.compare(pathSortKey(a), pathSortKey(b)));

describe('NestedStream', () => {
  it('writes what unflatten gives, for random key sets in path order', () => {
    const next = random(7);
    for (let round = 0; round < 400; round++) {
      const keys = inPathOrder(randomKeys(next, 1 + Math.floor(next() * 25)));
      const whole = writeObjectLiteral(unflatten(keys.map((k) => [k, k] as const)), style);
      expect(streamed(keys, next), keys.join(' | ')).toBe(whole);
      // And the file reads back as the same keys.
      expect(
        flatten<string>(JSON.parse(whole))
          .map((e) => e.key)
          .sort(),
      ).toEqual([...keys].sort());
    }
  });

  it('writes an empty object for no key, and keys in the given order without nesting', () => {
    expect(streamed([], random(1))).toBe('{}');
    const flat = new NestedStream(
      objectLiteralMembers(style, (v: string) => ({ kind: 'leaf', value: v })),
      false,
    );
    expect(flat.add('b.c', 'x') + flat.add('a', 'y') + flat.end()).toBe('\n  "b.c": "x",\n  "a": "y"');
  });

  it('refuses keys out of path order instead of writing an object twice', () => {
    const stream = new NestedStream(
      objectLiteralMembers(style, (v: string) => ({ kind: 'leaf', value: v })),
      true,
    );
    stream.add('a.x', 'x');
    stream.add('b', 'b');
    expect(() => stream.add('a.y', 'y')).toThrow(/out of path order/);
  });

  it('orders a parent before its subtree, array items by index before members, and flat keys first', () => {
    expect(inPathOrder(['a.b', 'a-b', 'a', 'a[10]', 'a[2]', 'a.0', 'x..y', 'ab'])).toEqual([
      'x..y',
      'a',
      'a[2]',
      'a[10]',
      'a.0',
      'a.b',
      'a-b',
      'ab',
    ]);
    expect(pathSortKey('a\u0000b').equals(pathSortKey('a'))).toBe(false);
  });
});
