import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/formats/model.js';
import { oneKeyPerName } from '../../../src/formats/define.js';
import { flatten, toPlain, unflatten, type NestedNode } from '../../../src/formats/nested-keys.js';
import { writeObjectLiteral } from '../../../src/formats/object-literal-writer.js';

class Leaf<V> {
  constructor(readonly v: V) {}
}

/** Keys and values of a nested tree, read back with flatten (Maps keep numeric names in order). */
function readBack<V>(node: NestedNode<V>): [string, V][] {
  const toTree = (n: NestedNode<V>): unknown =>
    n.kind === 'leaf'
      ? new Leaf(n.value)
      : n.kind === 'array'
        ? n.items.map(toTree)
        : new Map(n.entries.map(([k, c]) => [k, toTree(c)]));
  return flatten<Leaf<V>>(toTree(node)).map((e) => [e.key, e.value.v]);
}

const pairs = (keys: string[]) => keys.map((k) => [k, `v:${k}`] as [string, string]);
const sorted = <T>(a: T[]) => [...a].sort();

describe('flatten', () => {
  it('joins object members with dots and array items with [i], in document order', () => {
    const tree = JSON.parse('{"b": {"c": "1", "d": {"e": "2"}}, "a": "3", "t": ["x", {"y": "z"}], "n.dotted": "4"}');
    expect(flatten(tree).map((e) => [e.key, e.value])).toEqual([
      ['b.c', '1'],
      ['b.d.e', '2'],
      ['a', '3'],
      ['t[0]', 'x'],
      ['t[1].y', 'z'],
      ['n.dotted', '4'],
    ]);
  });

  it('gives no key for empty objects and arrays, skips undefined items but keeps indices', () => {
    expect(flatten({ a: {}, b: [], c: 'x' }).map((e) => e.key)).toEqual(['c']);
    expect(flatten({ t: ['a', undefined, 'c'] }).map((e) => e.key)).toEqual(['t[0]', 't[2]']);
  });

  it('reads Maps (keeping numeric names in insertion order) and treats class instances as leaves', () => {
    class Leaf {
      constructor(readonly text: string) {}
    }
    const tree = new Map<string, unknown>([
      ['2', new Leaf('two')],
      ['1', new Map([['0', new Leaf('zero')]])],
    ]);
    const out = flatten<Leaf>(tree);
    expect(out.map((e) => [e.key, e.value.text])).toEqual([
      ['2', 'two'],
      ['1.0', 'zero'],
    ]);
  });

  it('refuses a dotted name that repeats a nested path', () => {
    expect(() => flatten({ 'a.b': 'x', a: { b: 'y' } })).toThrow(FormatError);
    expect(() => flatten({ 'a.b': 'x', a: { b: 'y' } })).toThrow(/"a\.b" is defined twice/);
  });

  it('caps nesting at 64 levels (the root counts as one)', () => {
    const deep = (levels: number) => {
      let tree: unknown = 'leaf';
      for (let i = 0; i < levels; i++) tree = { k: tree };
      return tree;
    };
    expect(flatten(deep(64))).toHaveLength(1);
    expect(() => flatten(deep(65))).toThrow(/deeper than 64 levels/);
  });

  it('stops a shared object from multiplying into a huge number of keys', () => {
    let tree: Record<string, unknown> = { leaf: 'x' };
    for (let i = 0; i < 40; i++) tree = { a: tree, b: tree }; // 2^40 paths
    expect(() => flatten(tree, { maxNodes: 10_000 })).toThrow(/too many values/);
  });

  it('keeps a __proto__ member as an ordinary key without touching Object.prototype', () => {
    const tree = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": "x"}}');
    expect(flatten(tree).map((e) => e.key)).toEqual(['__proto__.polluted', 'constructor.prototype']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('unflatten', () => {
  it('nests dotted keys in first-seen order', () => {
    const tree = unflatten(pairs(['home.title', 'home.body', 'about', 'home.menu.open']));
    expect(toPlain(tree)).toEqual({
      home: { title: 'v:home.title', body: 'v:home.body', menu: { open: 'v:home.menu.open' } },
      about: 'v:about',
    });
  });

  it('keeps a key that is both a leaf and a parent, with its children flat beside it', () => {
    const keys = ['a', 'a.b', 'a.b.c', 'x.y', 'x.y.z', 'x.w'];
    const tree = unflatten(pairs(keys));
    expect(toPlain(tree)).toEqual({
      a: 'v:a',
      'a.b': 'v:a.b',
      'a.b.c': 'v:a.b.c',
      x: { y: 'v:x.y', 'y.z': 'v:x.y.z', w: 'v:x.w' },
    });
    expect(sorted(readBack(tree))).toEqual(sorted(pairs(keys)));
  });

  it('does not lose the leaf when the parent comes first', () => {
    const tree = unflatten(pairs(['a.b', 'a']));
    expect(sorted(readBack(tree))).toEqual(sorted(pairs(['a.b', 'a'])));
  });

  it('builds arrays from contiguous [i] keys, including arrays of objects and of arrays', () => {
    const keys = ['t[1]', 't[0]', 'o[0].name', 'o[1].name', 'm[0][1]', 'm[0][0]'];
    const tree = unflatten(pairs(keys));
    expect(toPlain(tree)).toEqual({
      t: ['v:t[0]', 'v:t[1]'],
      o: [{ name: 'v:o[0].name' }, { name: 'v:o[1].name' }],
      m: [['v:m[0][0]', 'v:m[0][1]']],
    });
    expect(sorted(readBack(tree))).toEqual(sorted(pairs(keys)));
  });

  it('keeps items that cannot form an array as flat [i] names', () => {
    const keys = ['gap[1]', 'mixed[0]', 'mixed.name', 'both[0]', 'both[0].x', 'lead[01]'];
    const tree = unflatten(pairs(keys));
    expect(toPlain(tree)).toEqual({
      'gap[1]': 'v:gap[1]',
      mixed: { name: 'v:mixed.name' },
      'mixed[0]': 'v:mixed[0]',
      'both[0]': 'v:both[0]',
      'both[0].x': 'v:both[0].x',
      'lead[01]': 'v:lead[01]',
    });
    expect(sorted(readBack(tree))).toEqual(sorted(pairs(keys)));
  });

  it('writes keys with empty segments flat, and [0] without a name as a plain name', () => {
    const keys = ['Done.', '.start', 'a..b', '', '[0]', 'k.[0]'];
    const tree = unflatten(pairs(keys));
    expect(toPlain(tree)).toEqual({
      'Done.': 'v:Done.',
      '.start': 'v:.start',
      'a..b': 'v:a..b',
      '': 'v:',
      '[0]': 'v:[0]',
      k: { '[0]': 'v:k.[0]' },
    });
    expect(sorted(readBack(tree))).toEqual(sorted(pairs(keys)));
  });

  it('writes a key of more than 64 parts flat, so the output is never deeper than the parsers accept', () => {
    const long = Array.from({ length: 100 }, (_, i) => `p${i}`).join('.');
    const ok = Array.from({ length: 64 }, (_, i) => `q${i}`).join('.');
    const tree = unflatten(pairs([long, ok]));
    const plain = toPlain(tree) as Record<string, unknown>;
    expect(plain[long]).toBe(`v:${long}`);
    expect(plain.q0).toBeTypeOf('object');
    expect(sorted(readBack(tree))).toEqual(sorted(pairs([long, ok])));
  });

  it('keeps the first value of a repeated key', () => {
    expect(
      toPlain(
        unflatten([
          ['a', 1],
          ['a', 2],
        ]),
      ),
    ).toEqual({ a: 1 });
  });

  it('builds objects without a prototype, so __proto__ is just a name', () => {
    const plain = toPlain(
      unflatten([
        ['__proto__.polluted', 'yes'],
        ['constructor', 'c'],
      ]),
    ) as Record<string, Record<string, string>>;
    expect(Object.getPrototypeOf(plain)).toBeNull();
    expect(Object.keys(plain)).toEqual(['__proto__', 'constructor']);
    expect(plain['__proto__']!.polluted).toBe('yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('round-trips random key sets exactly (leaf-and-parent, arrays, odd names)', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const segments = ['a', 'b', 'c', '0', '1', 'a[0]', 'a[1]', 'b[0][0]', 'x y', '', '[2]'];
    for (let round = 0; round < 200; round++) {
      const keys = new Set<string>();
      const count = 1 + rand(12);
      for (let i = 0; i < count; i++)
        keys.add(Array.from({ length: 1 + rand(4) }, () => segments[rand(segments.length)]).join('.'));
      const input = pairs([...keys]);
      expect(sorted(readBack(unflatten(input)))).toEqual(sorted(input));
    }
  });

  it('handles 100,000 keys (flatten and unflatten) with every key and value intact', () => {
    const keys: string[] = [];
    for (let i = 0; i < 100_000; i++) keys.push(`section${i % 100}.group${Math.floor(i / 100) % 100}.item${i}`);
    keys.push('section1', 'section1.group1'); // leaf-and-parent cases in a large set
    const input = pairs(keys);
    const tree = unflatten(input);
    const back = flatten<string>(toPlain(tree));
    expect(back).toHaveLength(input.length);
    const byKey = new Map(back.map((e) => [e.key, e.value]));
    expect(input.filter(([k, v]) => byKey.get(k) !== v)).toEqual([]);
  }, 60_000); // correctness only; a loaded CI machine must not turn this into a timing test

  it('handles a single key of 100,000 segments without quadratic work or deep output', () => {
    const key = Array.from({ length: 100_000 }, () => 'a').join('.');
    const tree = unflatten([[key, 'v']]);
    expect(tree).toEqual({ kind: 'object', entries: [[key, { kind: 'leaf', value: 'v' }]] });
  });
});

describe('helpers', () => {
  it('oneKeyPerName keeps, for each name, the key of the first namespace in code-point order', () => {
    const keys = [
      { key: 'a', namespace: 'web' },
      { key: 'b', namespace: 'web' },
      { key: 'a', namespace: 'Web' },
      { key: 'a', namespace: 'zeta' },
    ];
    expect(oneKeyPerName(keys)).toEqual([
      { key: 'b', namespace: 'web' },
      { key: 'a', namespace: 'Web' },
    ]);
  });

  it('writeObjectLiteral writes indented JSON with comments where asked', () => {
    const tree = unflatten([
      ['a.b', 'x'],
      ['a.c', 'y'],
      ['t[0]', 'z'],
      ['e', ''],
    ]);
    const text = writeObjectLiteral(tree, {
      leaf: (v) => JSON.stringify(v),
      comment: (v) => (v === 'y' ? ['note', ''] : undefined),
    });
    expect(text).toBe(
      '{\n  "a": {\n    "b": "x",\n    // note\n    //\n    "c": "y"\n  },\n  "t": [\n    "z"\n  ],\n  "e": ""\n}',
    );
    expect(writeObjectLiteral(unflatten<string>([]), { leaf: (v) => v })).toBe('{}');
  });
});
