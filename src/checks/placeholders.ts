// Placeholders of a text, in every dialect the service meets, as tokens with
// a name (what must be kept), a type (what must not change) and where they are.
//
// Reading order, so that no text is read twice:
//   1. tokens with their own delimiters: i18next/Angular/Vue/Symfony `{{x}}`
//      (`{{x, number}}` formats, `{{ x | date }}` pipes), i18next nesting
//      `$t(key)`, Ruby `%{x}` and `%<x>d`, template `${x}`;
//   2. braces: an ICU message (formatjs parser: arguments, their type such as
//      `{n, number}`, plural/select/selectordinal with their branches, `#`),
//      or, when the text is not ICU, each balanced `{…}`: Python `{name}` `{0}`
//      `{}` `{0!r:>10}`, .NET `{0}` `{0,-8:N2}`;
//   3. in the literal text left: printf (C, Java, Python `%(name)s`,
//      positional `%1$s`, iOS `%@` `%lld`, stringsdict `%#@var@`, gettext),
//      Qt `%1` `%L1` `%n`, and Laravel `:name` when the dialect is Laravel or the
//      source uses it.
// A token's `key` is what identifies it across languages: its syntax and name
// (`brace:count`, `printf:2`); unnumbered printf tokens (`%s`, `{}`) have no
// name, so their order is what identifies them.
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Dialect, Reading, Token } from './types.js';

export type { Reading, Token };

// Tokens with their own delimiters, tried first (longest syntaxes first).
const DELIMITED = new RegExp(
  [
    '(?<mustache>\\{\\{\\{?\\s*(?<mbody>[^{}]*?)\\s*\\}?\\}\\})',
    '(?<nesting>\\$t\\((?<nkey>[^()]*)\\))',
    '(?<ruby>%\\{(?<rname>[A-Za-z_][\\w.-]*)\\})',
    '(?<rubyf>%<(?<rfname>[A-Za-z_]\\w*)>[-+ 0#]*\\d*(?:\\.\\d+)?(?<rfconv>[a-zA-Z]))',
    '(?<template>\\$\\{(?<tname>[^{}]+)\\})',
  ].join('|'),
  'g',
);

// printf conversions: `%(name)s`, `%1$s`, flags, width, precision, length, conversion; stringsdict `%#@var@`.
const PRINTF_SOURCE =
  "%(?:(?<sdvar>(?:\\d+\\$)?#@(?<sdname>[A-Za-z_][\\w]*)@)|(?:\\((?<pname>[^()]+)\\))?(?:(?<pos>\\d+)\\$)?(?<flags>[-+#0'FLAGSPACE]*)(?:\\d+|\\*)?(?:\\.(?:\\d+|\\*))?(?<len>hh|h|ll|l|L|q|j|z|t|I64|I32)?(?<conv>[diouxXeEfFgGaAcsSp@]))";
const QT_SOURCE = '%(?<qt>L?\\d{1,2})(?![\\d$])|%(?<qtn>L?n)(?![A-Za-z])';
// printf first: `%5.2f` is a width, not Qt's %5.
const printfPattern = (spaceFlag: boolean) =>
  new RegExp(`%%|${PRINTF_SOURCE.replace('FLAGSPACE', spaceFlag ? ' ' : '')}|${QT_SOURCE}`, 'g');
const PRINTF = printfPattern(false);
const PRINTF_WITH_SPACE = printfPattern(true);
// The characters every token but Laravel's starts or ends with: `{`/`}` (ICU, braces, mustache, Ruby,
// templates), `%` (printf, Qt, Ruby), `$` (nesting, templates).
const TRIGGERS = /[{}%$]/;
// Laravel `:name`: not after a word character, a colon or a slash (URLs, times, `a:b`).
// An emoji short code (`:smile:`) is not one.
const LARAVEL = /(?<![\w:/\\.])(:[A-Za-z_][A-Za-z0-9_]*)(?![\w:-])/g;

function printfType(len: string | undefined, conv: string): string {
  // %i and %d are the same conversion; the rest (length included: %ld vs %lld crashes) must stay.
  return `${len ?? ''}${conv === 'i' ? 'd' : conv}`;
}

// Blanked characters: NUL, so that prose checks see neither the token nor a space (no "double space"
// where a placeholder was, no repeated word across two plural branches).
const BLANK = '\u0000';

function blank(chars: string[], start: number, end: number): void {
  for (let i = start; i < end; i++) if (chars[i] !== '\n') chars[i] = BLANK;
}

/** Reads the placeholders of a text; `laravel` turns on `:name` (see laravelInSource). */
export function readPlaceholders(text: string, dialect: Dialect = 'auto', laravel = dialect === 'laravel'): Reading {
  // Most texts hold no placeholder at all: without any dialect's trigger character there is nothing to read.
  if (!TRIGGERS.test(text) && !(laravel && text.includes(':')))
    return { tokens: [], icu: null, icuError: null, prose: text };
  const tokens: Token[] = [];
  const chars = text.split('');

  for (const m of text.matchAll(DELIMITED)) {
    const g = m.groups!;
    const start = m.index;
    const end = start + m[0].length;
    if (g.mustache !== undefined) {
      // {{x}}, {{x, number}} (i18next format), {{ x | date:'short' }} (Angular pipe): the name and the format.
      const body = g.mbody!.replace(/\s+/g, ' ');
      const [name, ...format] = body.split(/\s*[,|]\s*/);
      tokens.push({ key: `mustache:${name}`, type: format.join(',').replace(/\s+/g, ''), raw: m[0], start, end });
    } else if (g.nesting !== undefined) {
      const key = g.nkey!.split(',')[0]!.trim();
      tokens.push({ key: `nesting:${key}`, type: '', raw: m[0], start, end });
    } else if (g.ruby !== undefined) {
      tokens.push({ key: `ruby:${g.rname}`, type: '', raw: m[0], start, end });
    } else if (g.rubyf !== undefined) {
      tokens.push({ key: `ruby:${g.rfname}`, type: g.rfconv!, raw: m[0], start, end });
    } else {
      tokens.push({ key: `template:${g.tname!.trim()}`, type: '', raw: m[0], start, end });
    }
    blank(chars, start, end);
  }

  let icu: MessageFormatElement[] | null = null;
  let icuError: string | null = null;
  const masked = chars.join('');
  if ((masked.includes('{') || masked.includes('}')) && !masked.includes("'") && SIMPLE_ARGUMENTS.test(masked)) {
    // Only `{name}` arguments (most messages): what the ICU parser would answer, without running it.
    icu = [];
    let at = 0;
    for (const m of masked.matchAll(ARGUMENT)) {
      if (m.index > at)
        icu.push({ type: TYPE.literal, value: masked.slice(at, m.index), location: spanAt(at, m.index) });
      const end = m.index + m[0].length;
      icu.push({ type: TYPE.argument, value: m[1]!, location: spanAt(m.index, end) });
      tokens.push({ key: `icu:${m[1]}`, type: '', raw: text.slice(m.index, end), start: m.index, end, icu: true });
      blank(chars, m.index, end);
      at = end;
    }
    if (at < masked.length)
      icu.push({ type: TYPE.literal, value: masked.slice(at), location: spanAt(at, masked.length) });
  } else if (masked.includes('{') || masked.includes('}')) {
    try {
      icu = parseIcuLeniently(masked, dialect);
      // Everything but literal text is the ICU's: blank it, then unblank the literals (branch texts).
      const literal = new Array<boolean>(masked.length).fill(false);
      collectIcu(icu, tokens, literal, text);
      for (let i = 0; i < masked.length; i++) if (!literal[i] && chars[i] !== '\n') chars[i] = BLANK;
    } catch (error) {
      icuError = (error as Error).message;
      braces(masked, tokens, chars);
    }
  }

  const literalText = chars.join('');
  const printf = dialect === 'printf' || dialect === 'gettext' ? PRINTF_WITH_SPACE : PRINTF;
  // Every printf and Qt token starts with %.
  if (literalText.includes('%'))
    for (const m of literalText.matchAll(printf)) {
      if (m[0] === '%%') {
        blank(chars, m.index, m.index + 2);
        continue;
      }
      const g = m.groups!;
      const start = m.index;
      const end = start + m[0].length;
      if (g.qt !== undefined)
        tokens.push({
          key: `qt:${g.qt.replace('L', '')}`,
          type: g.qt.startsWith('L') ? 'L' : '',
          raw: m[0],
          start,
          end,
        });
      else if (g.qtn !== undefined)
        tokens.push({ key: 'qt:n', type: g.qtn.startsWith('L') ? 'L' : '', raw: m[0], start, end });
      else if (g.sdvar !== undefined) tokens.push({ key: `stringsdict:${g.sdname}`, type: '', raw: m[0], start, end });
      else {
        const name = g.pname ?? g.pos ?? '';
        tokens.push({ key: name ? `printf:${name}` : '', type: printfType(g.len, g.conv!), raw: m[0], start, end });
      }
      blank(chars, start, end);
    }

  if (laravel) {
    for (const m of chars.join('').matchAll(LARAVEL)) {
      tokens.push({
        key: `laravel:${m[1]!.slice(1)}`,
        type: '',
        raw: m[1]!,
        start: m.index,
        end: m.index + m[0].length,
      });
      blank(chars, m.index, m.index + m[0].length);
    }
  }

  tokens.sort((a, b) => a.start - b.start);
  return { tokens, icu, icuError, prose: chars.join('') };
}

// A message whose braces are all simple arguments, `{name}` or `{ 0 }`: the ICU parser's fast path here.
const SIMPLE_ARGUMENTS = /^[^{}]*(?:\{\s*\w+\s*\}[^{}]*)+$/;
const ARGUMENT = /\{\s*(\w+)\s*\}/g;

/** A formatjs location from offsets (the checks read only the offsets). */
function spanAt(start: number, end: number) {
  return { start: { offset: start, line: 1, column: start + 1 }, end: { offset: end, line: 1, column: end + 1 } };
}

/** Whether `:name` placeholders are in use: the dialect says so, or the source text has them. */
export function laravelInSource(source: string, dialect: Dialect): boolean {
  if (dialect === 'laravel') return true;
  if (dialect !== 'auto') return false;
  // Not LARAVEL.test: it would leave lastIndex behind for the next matchAll.
  return new RegExp(LARAVEL.source).test(source);
}

/**
 * ICU quotes with apostrophes (`'{0}'` is text), which other brace dialects
 * do not: "l'{name}" in French, `'{0}'` in .NET. Unless the dialect is ICU,
 * apostrophes are read as letters first, and as quotes only when the text
 * needs them to be ICU at all.
 */
function parseIcuLeniently(text: string, dialect: Dialect): MessageFormatElement[] {
  if (dialect !== 'icu' && text.includes("'")) {
    try {
      return parse(text.replace(/'/g, '\u2019'), { ignoreTag: true, captureLocation: true });
    } catch {
      // Quoted braces: ICU after all.
    }
  }
  return parse(text, { ignoreTag: true, captureLocation: true });
}

function location(element: MessageFormatElement): { start: number; end: number } {
  const loc = element.location;
  return loc ? { start: loc.start.offset, end: loc.end.offset } : { start: 0, end: 0 };
}

function collectIcu(elements: MessageFormatElement[], tokens: Token[], literal: boolean[], text: string): void {
  for (const element of elements) {
    const { start, end } = location(element);
    if (element.type === TYPE.literal) {
      for (let i = start; i < end; i++) literal[i] = true;
      continue;
    }
    if (element.type === TYPE.pound) {
      tokens.push({ key: 'icu:#', type: '', raw: '#', start, end, icu: true });
      continue;
    }
    if (element.type === TYPE.tag) {
      collectIcu(element.children, tokens, literal, text);
      continue;
    }
    const type =
      element.type === TYPE.argument
        ? ''
        : element.type === TYPE.number
          ? 'number'
          : element.type === TYPE.date
            ? 'date'
            : element.type === TYPE.time
              ? 'time'
              : element.type === TYPE.select
                ? 'select'
                : element.type === TYPE.plural
                  ? element.pluralType === 'ordinal'
                    ? 'selectordinal'
                    : 'plural'
                  : 'other';
    const head = text.slice(start, end);
    tokens.push({
      key: `icu:${element.value}`,
      type,
      raw: type === 'plural' || type === 'select' || type === 'selectordinal' ? `{${element.value}, ${type}, …}` : head,
      start,
      end,
      icu: true,
    });
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) collectIcu(option.value, tokens, literal, text);
    }
  }
}

// Python str.format: {name} {0} {} {0.attr} {name[0]} {0!r} {0:>10}; .NET: {0} {0,-8} {0:N2}.
const PYTHON_BRACE = /^(?<name>[A-Za-z_]\w*|\d+)?(?:[.[][^!:{}]*)?(?:!(?<conv>[rsa]))?(?::(?<spec>[^{}]*))?$/;
const DOTNET = /^(?<name>\d+)\s*,\s*-?\d+(?::(?<spec>[^{}]*))?$/;

/** Balanced `{…}` groups of a text that is not ICU: each one a placeholder when it reads as one. */
function braces(text: string, tokens: Token[], chars: string[]): void {
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '{') continue;
    if (text[i + 1] === '{') {
      // `{{` in Python and .NET is an escaped brace.
      i++;
      continue;
    }
    let depth = 0;
    let j = i;
    for (; j < text.length; j++) {
      if (text[j] === '{') depth++;
      else if (text[j] === '}' && --depth === 0) break;
    }
    if (j >= text.length) break;
    const body = text.slice(i + 1, j);
    const m = DOTNET.exec(body) ?? PYTHON_BRACE.exec(body.trim());
    if (m) {
      const name = m.groups!.name ?? '';
      const spec = (m.groups!.spec ?? '') + (m.groups!.conv ? `!${m.groups!.conv}` : '');
      tokens.push({
        key: name ? `brace:${name}` : '',
        type: name ? spec : `{}${spec}`,
        raw: text.slice(i, j + 1),
        start: i,
        end: j + 1,
      });
      blank(chars, i, j + 1);
    }
    i = j;
  }
}
