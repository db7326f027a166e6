// Keeps placeholders out of the providers' hands and puts them back after.
//
// A text is cut into units, each a sequence of literal text and placeholders:
//   - a plain text is one unit;
//   - an ICU message with plural / selectordinal / select arguments becomes
//     one unit for its top level (each such argument is one placeholder there)
//     and one unit per branch, recursively; `#` and simple arguments such as
//     {name} are placeholders of their unit. Only literal branch texts are
//     translated; the message is reassembled with the translated branches.
// Placeholders recognised in literal text: ICU/format arguments {name},
// {{mustache}}, ${x}, printf (%s %d %1$s %@ %.2f %% %(name)s), HTML/XML tags
// (a start tag and its end tag form a pair, so the provider can move the
// markup with the words it encloses), HTML entities, and newlines (for the
// HTML markup, where a newline is mere white space).
//
// Units go to the provider as markup with opaque, numbered elements:
//   xml  (DeepL tag_handling=xml; pseudo):  <x id="3"/>   and  <g id="4">…</g>
//   html (Google format=html):  <span translate="no" id="x3">{name}</span>,
//                               <br id="x5">  and  <span id="g4">…</span>
// and are read back by those ids; the provider may reorder them or add
// attributes. Placeholder-loss policy (conservative): when any placeholder is
// missing, duplicated, improperly nested, or unknown markup appears, the
// decoded unit is null and the whole text counts as failed; nothing is
// appended or guessed, and no text with a lost placeholder is ever returned.
import { escapeIcuText, hasComplexArgument, parseIcu, renderComplex, type IcuNode } from './icu.js';
import type { Markup } from './types.js';

export type Renderer = (unitIndex: number) => string;

export type Placeholder =
  | { kind: 'single'; display: string; newline?: boolean; render: (r: Renderer) => string }
  | { kind: 'pair'; open: string; close: string };

export type Segment =
  { t: 'text'; v: string } | { t: 'ph'; i: number } | { t: 'open'; i: number } | { t: 'close'; i: number };

export interface Unit {
  segments: Segment[];
  placeholders: Placeholder[];
  /** Part of an ICU message with complex arguments: literal text is ICU-quoted when rendered. */
  icu: boolean;
  inPlural: boolean;
  /** White space around the unit, kept out of the request. */
  lead: string;
  trail: string;
  /** False when the unit has no letters: it is not sent and stays as it is. */
  translatable: boolean;
  /** The unit in the provider's markup. */
  encoded: string;
}

export interface PreparedText {
  source: string;
  /** units[0] is the whole text; ICU branches follow. */
  units: Unit[];
}

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

const TOKEN = new RegExp(
  [
    '(?<comment><!--[\\s\\S]*?-->)',
    '(?<tag></?[A-Za-z][A-Za-z0-9:_.-]*(?:\\s+[^<>]*?)?\\s*/?>)',
    '(?<mustache>\\{\\{\\{[^{}]*\\}\\}\\}|\\{\\{[^{}]*\\}\\})',
    '(?<template>\\$\\{[^{}]*\\})',
    '(?<brace>\\{[^{}]*\\})',
    "(?<printf>%(?:\\([A-Za-z0-9_]+\\))?(?:\\d+\\$)?[-+#0']*(?:\\d+|\\*)?(?:\\.(?:\\d+|\\*))?(?:hh|ll|[hlLqjzt])?[diouxXeEfFgGaAcCsSpn@%])",
    '(?<entity>&(?:[A-Za-z][A-Za-z0-9]*|#\\d+|#[xX][0-9A-Fa-f]+);)',
    '(?<newline>\\r?\\n)',
  ].join('|'),
  'g',
);

type Pending =
  | { t: 'text'; v: string }
  | { t: 'single'; display: string; newline?: boolean; render: (r: Renderer) => string }
  | { t: 'tag'; raw: string; name: string; closing: boolean; selfClosing: boolean };

export function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Reverses XML/HTML escaping: the five XML entities, &nbsp; and numeric references. */
export function unescapeMarkup(text: string): string {
  return text.replace(/&(#[xX][0-9A-Fa-f]+|#\d+|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[ref] ?? whole;
  });
}

class UnitBuilder {
  private pending: Pending[] = [];

  constructor(
    private readonly icu: boolean,
    private readonly inPlural: boolean,
    private readonly markup: Markup,
  ) {}

  private literal(raw: string): string {
    return this.icu ? escapeIcuText(raw, this.inPlural) : raw;
  }

  text(value: string): void {
    let last = 0;
    for (const m of value.matchAll(TOKEN)) {
      const g = m.groups!;
      const raw = m[0];
      if (g.newline !== undefined && this.markup !== 'html') continue;
      if (m.index > last) this.pending.push({ t: 'text', v: value.slice(last, m.index) });
      last = m.index + raw.length;
      if (g.tag !== undefined) {
        const name = /^<\/?([A-Za-z][A-Za-z0-9:_.-]*)/.exec(raw)![1]!.toLowerCase();
        this.pending.push({ t: 'tag', raw, name, closing: raw.startsWith('</'), selfClosing: raw.endsWith('/>') });
      } else {
        const display = raw;
        this.pending.push({ t: 'single', display, newline: g.newline !== undefined, render: () => this.literal(raw) });
      }
    }
    if (last < value.length) this.pending.push({ t: 'text', v: value.slice(last) });
  }

  single(display: string, render: (r: Renderer) => string): void {
    this.pending.push({ t: 'single', display, render });
  }

  build(): Unit {
    // Pair each start tag with its end tag when properly nested.
    const partner = new Map<Pending, Pending>();
    const stack: Extract<Pending, { t: 'tag' }>[] = [];
    for (const p of this.pending) {
      if (p.t !== 'tag') continue;
      if (p.closing) {
        const top = stack[stack.length - 1];
        if (top && top.name === p.name) {
          stack.pop();
          partner.set(top, p);
        }
      } else if (!p.selfClosing && !VOID_ELEMENTS.has(p.name)) {
        stack.push(p);
      }
    }
    const closeIndex = new Map<Pending, number>();
    const segments: Segment[] = [];
    const placeholders: Placeholder[] = [];
    for (const p of this.pending) {
      if (p.t === 'text') {
        const prev = segments[segments.length - 1];
        if (prev?.t === 'text') prev.v += p.v;
        else segments.push({ t: 'text', v: p.v });
      } else if (p.t === 'single') {
        segments.push({
          t: 'ph',
          i: placeholders.push({ kind: 'single', display: p.display, newline: p.newline, render: p.render }) - 1,
        });
      } else if (partner.has(p)) {
        const close = partner.get(p) as Extract<Pending, { t: 'tag' }>;
        const i = placeholders.push({ kind: 'pair', open: this.literal(p.raw), close: this.literal(close.raw) }) - 1;
        closeIndex.set(close, i);
        segments.push({ t: 'open', i });
      } else if (closeIndex.has(p)) {
        segments.push({ t: 'close', i: closeIndex.get(p)! });
      } else {
        const raw = p.raw;
        segments.push({
          t: 'ph',
          i: placeholders.push({ kind: 'single', display: raw, render: () => this.literal(raw) }) - 1,
        });
      }
    }
    const translatable = segments.some((s) => s.t === 'text' && /\p{L}/u.test(s.v));
    let lead = '';
    let trail = '';
    if (translatable) {
      const first = segments[0];
      if (first?.t === 'text') {
        lead = /^\s*/.exec(first.v)![0];
        first.v = first.v.slice(lead.length);
      }
      const lastSeg = segments[segments.length - 1];
      if (lastSeg?.t === 'text') {
        trail = /\s*$/.exec(lastSeg.v)![0];
        lastSeg.v = lastSeg.v.slice(0, lastSeg.v.length - trail.length);
      }
    }
    const unit: Unit = {
      segments: segments.filter((s) => s.t !== 'text' || s.v !== ''),
      placeholders,
      icu: this.icu,
      inPlural: this.inPlural,
      lead,
      trail,
      translatable,
      encoded: '',
    };
    unit.encoded = encodeSegments(unit, this.markup);
    return unit;
  }
}

function encodeSegments(unit: Unit, markup: Markup): string {
  return unit.segments
    .map((s) => {
      if (s.t === 'text') return escapeMarkup(s.v);
      if (markup === 'xml') return s.t === 'ph' ? `<x id="${s.i}"/>` : s.t === 'open' ? `<g id="${s.i}">` : '</g>';
      if (s.t === 'ph') {
        const p = unit.placeholders[s.i] as Extract<Placeholder, { kind: 'single' }>;
        return p.newline ? `<br id="x${s.i}">` : `<span translate="no" id="x${s.i}">${escapeMarkup(p.display)}</span>`;
      }
      return s.t === 'open' ? `<span id="g${s.i}">` : '</span>';
    })
    .join('');
}

/** Cuts a text into units encoded in the provider's markup. */
export function prepareText(text: string, markup: Markup): PreparedText {
  const units: Unit[] = [];
  const nodes = text.includes('{') ? parseIcu(text) : null;
  if (nodes && hasComplexArgument(nodes)) {
    const build = (list: IcuNode[], inPlural: boolean): number => {
      const index = units.length;
      units.push(undefined as unknown as Unit); // reserved: the parent unit comes before its branches
      const b = new UnitBuilder(true, inPlural, markup);
      for (const node of list) {
        if (node.type === 'text') b.text(node.value);
        else if (node.type === 'arg') b.single(node.raw, () => node.raw);
        else if (node.type === 'pound') b.single('#', () => '#');
        else {
          const branchUnits = node.branches.map((br) => build(br.nodes, inPlural || node.kind !== 'select'));
          b.single(`{${node.name}}`, (r) => renderComplex(node, branchUnits.map(r)));
        }
      }
      units[index] = b.build();
      return index;
    };
    build(nodes, false);
  } else {
    const b = new UnitBuilder(false, false, markup);
    b.text(text);
    units.push(b.build());
  }
  return { source: text, units };
}

const TAG = /<(\/)?([A-Za-z][\w:.-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/)?>/g;

function attribute(attrs: string, name: string): string | undefined {
  const re = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i');
  const m = re.exec(attrs);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/**
 * Reads a provider's answer for a unit back into segments. Null when a
 * placeholder is missing or repeated, tags are improperly nested, or unknown
 * markup appears (see the placeholder-loss policy above).
 */
export function decodeUnit(answer: string, unit: Unit, markup: Markup): Segment[] | null {
  const out: Segment[] = [];
  const pushText = (raw: string) => {
    if (!raw) return;
    const v = unescapeMarkup(raw);
    const prev = out[out.length - 1];
    if (prev?.t === 'text') prev.v += v;
    else out.push({ t: 'text', v });
  };
  const seen = new Set<string>();
  const mark = (key: string) => {
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const stack: { name: string; i: number }[] = [];
  let skip: { name: string; depth: number } | null = null;
  let last = 0;
  for (const m of answer.matchAll(TAG)) {
    const before = answer.slice(last, m.index);
    last = m.index + m[0].length;
    const closing = !!m[1];
    const name = m[2]!.toLowerCase();
    const selfClosing = !!m[4];
    if (skip) {
      // Inside a protected element: its content is ours, whatever came back.
      if (name === skip.name && !selfClosing) {
        if (!closing) skip.depth++;
        else if (skip.depth === 0) skip = null;
        else skip.depth--;
      }
      continue;
    }
    pushText(before);
    if (closing) {
      const top = stack.pop();
      if (!top || top.name !== name || !mark(`c${top.i}`)) return null;
      out.push({ t: 'close', i: top.i });
      continue;
    }
    const id = attribute(m[3] ?? '', 'id') ?? '';
    let kind: 'single' | 'pair' | undefined;
    let index = -1;
    if (markup === 'xml') {
      if (/^\d+$/.test(id) && (name === 'x' || name === 'g')) {
        kind = name === 'x' ? 'single' : 'pair';
        index = Number(id);
      }
    } else {
      const idm = /^([xg])(\d+)$/.exec(id);
      if (idm) {
        kind = idm[1] === 'x' ? 'single' : 'pair';
        index = Number(idm[2]);
      }
    }
    const expected = unit.placeholders[index];
    if (!kind || !expected || expected.kind !== kind) return null;
    if (kind === 'single') {
      if (!mark(`s${index}`)) return null;
      out.push({ t: 'ph', i: index });
      if (!selfClosing && !(markup === 'html' && VOID_ELEMENTS.has(name))) skip = { name, depth: 0 };
    } else {
      if (!mark(`o${index}`)) return null;
      out.push({ t: 'open', i: index });
      if (selfClosing) {
        mark(`c${index}`);
        out.push({ t: 'close', i: index });
      } else stack.push({ name, i: index });
    }
  }
  if (skip || stack.length) return null;
  pushText(answer.slice(last));
  for (let i = 0; i < unit.placeholders.length; i++) {
    const p = unit.placeholders[i]!;
    if (p.kind === 'single' ? !seen.has(`s${i}`) : !seen.has(`o${i}`) || !seen.has(`c${i}`)) return null;
  }
  return out;
}

function renderUnit(unit: Unit, segments: Segment[], r: Renderer): string {
  let out = unit.lead;
  for (const s of segments) {
    if (s.t === 'text') out += unit.icu ? escapeIcuText(s.v, unit.inPlural) : s.v;
    else {
      const p = unit.placeholders[s.i]!;
      if (p.kind === 'single') out += p.render(r);
      else out += s.t === 'open' ? p.open : p.close;
    }
  }
  return out + unit.trail;
}

/**
 * The text again, with each unit replaced by its translation (decoded
 * segments); units without a translation are rendered from the source.
 */
export function assembleText(prepared: PreparedText, translations: readonly (Segment[] | null | undefined)[]): string {
  const r: Renderer = (k) => renderUnit(prepared.units[k]!, translations[k] ?? prepared.units[k]!.segments, r);
  return r(0);
}
