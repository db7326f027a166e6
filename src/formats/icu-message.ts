// The one ICU MessageFormat reader of the service, over FormatJS's parser
// (@formatjs/icu-messageformat-parser). plural.ts (whole-text plurals of the
// platform formats), icu-embedded.ts (Apple's plurals inside text) and
// src/mt/icu.ts (literal texts sent to machine translation) read messages
// through parseIcuMessage and keep only their own views of the parts.
//
// What a message is (ICU's rules, as the parser implements them):
// - `''` is an apostrophe; an apostrophe before `{`, `}` (and `#` inside a
//   plural branch) starts a quoted literal, `''` inside it being an
//   apostrophe; an unclosed quote runs to the end of the message. Any other
//   apostrophe is literal.
// - `#` inside a plural/selectordinal branch is the number (a `number` part),
//   elsewhere plain text.
// - `{name}`, `{n, number}`, `{d, date, short}`, `{n, number, ::currency/EUR}`
//   are arguments we do not interpret: kept verbatim as `raw` parts (the exact
//   source, so writing the parts back gives the same text).
// - plural / selectordinal / select arguments are `choice` parts with their
//   branches in source order; any selector is accepted (a plural branch named
//   `foo` is kept; which keys a platform accepts is the caller's business), a
//   plural without `other` too. A duplicate selector is malformed.
// Not a message (null; callers then treat the text as plain text): unbalanced
// braces (a stray `}` too, which the parser alone would read as text), an
// argument type the parser does not know (`{n, spellout}`), a choice without
// branches, an offset after the first branch, nesting deeper than 32 choices.
// Tags (`<b>`) are plain text: the parser runs with ignoreTag.
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

export type IcuPart =
  /** Literal text, unquoted. */
  | { type: 'text'; value: string }
  /** An argument we do not interpret (`{name}`, `{n, number}`), verbatim. */
  | { type: 'raw'; value: string }
  /** `#` in a plural branch: the plural's number. */
  | { type: 'number' }
  | IcuChoice;

export interface IcuChoice {
  type: 'choice';
  kind: 'plural' | 'select' | 'selectordinal';
  argument: string;
  offset?: number;
  /** Selector (`one`, `=0`, `iphone`, ...) -> message, in source order. */
  branches: { key: string; parts: IcuPart[] }[];
}

/** CLDR plural categories in canonical order (the order plural branches are written in). */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;

/** Choices nested deeper than this make a text "not a message". */
export const MAX_ICU_DEPTH = 32;

class Malformed extends Error {}

/**
 * Parses an ICU message into parts, or null when the text is not a
 * well-formed message (see the header).
 */
export function parseIcuMessage(text: string): IcuPart[] | null {
  // Without braces and apostrophes a text is one literal (the common case, and the parser's slowest).
  if (!/[{}']/.test(text)) return text ? [{ type: 'text', value: text }] : [];
  let elements: MessageFormatElement[];
  try {
    elements = parse(text, { captureLocation: true, ignoreTag: true, requiresOtherClause: false });
  } catch (e) {
    // SyntaxError from the parser; RangeError when nesting exhausts the stack.
    if (e instanceof SyntaxError || e instanceof RangeError) return null;
    throw e;
  }
  try {
    return convert(text, elements, 0, false);
  } catch (e) {
    if (e instanceof Malformed) return null;
    throw e;
  }
}

function convert(source: string, elements: MessageFormatElement[], depth: number, inPlural: boolean): IcuPart[] {
  if (depth > MAX_ICU_DEPTH) throw new Malformed();
  const parts: IcuPart[] = [];
  const pushText = (value: string): void => {
    const last = parts[parts.length - 1];
    if (last?.type === 'text') last.value += value;
    else parts.push({ type: 'text', value });
  };
  for (const el of elements) {
    switch (el.type) {
      case TYPE.literal:
        if (el.value.includes('}'))
          checkNoStrayBrace(source.slice(el.location!.start.offset, el.location!.end.offset), inPlural);
        if (el.value) pushText(el.value);
        break;
      case TYPE.pound:
        parts.push({ type: 'number' });
        break;
      case TYPE.plural:
      case TYPE.select: {
        const kind = el.type === TYPE.select ? 'select' : el.pluralType === 'ordinal' ? 'selectordinal' : 'plural';
        const branches = Object.entries(el.options).map(([key, option]) => ({
          key,
          parts: convert(source, option.value, depth + 1, kind !== 'select' || inPlural),
        }));
        if (!branches.length) throw new Malformed();
        const choice: IcuChoice = { type: 'choice', kind, argument: el.value, branches };
        if (el.type === TYPE.plural && el.offset) choice.offset = el.offset;
        parts.push(choice);
        break;
      }
      case TYPE.tag:
        // Not produced with ignoreTag; refuse rather than lose text.
        throw new Malformed();
      default:
        // argument, number, date, time: verbatim.
        parts.push({ type: 'raw', value: source.slice(el.location!.start.offset, el.location!.end.offset) });
    }
  }
  return parts;
}

/**
 * The parser reads an unquoted `}` outside any argument as text; ICU (and
 * this service) take it for an unbalanced brace. `source` is the literal's
 * source: quoted runs are skipped with the parser's quoting rule.
 */
function checkNoStrayBrace(source: string, inPlural: boolean): void {
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "'") {
      const next = source[i + 1];
      if (next === "'") {
        i++;
        continue;
      }
      if (next === '{' || next === '}' || next === '<' || next === '>' || (inPlural && next === '#')) {
        // A quoted run, `''` inside it; unclosed, it runs to the end.
        let j = i + 2;
        while (j < source.length) {
          if (source[j] === "'") {
            if (source[j + 1] === "'") {
              j += 2;
              continue;
            }
            break;
          }
          j++;
        }
        i = j;
      }
      continue;
    }
    if (c === '}') throw new Malformed();
  }
}
