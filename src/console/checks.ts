// Checks of a translation while it is typed, against the default language's
// text of the same key: placeholders that differ ({name} and ICU arguments,
// printf %s %d %1$s, {{x}}, HTML tags), an ICU syntax error, a text over the
// key's characters limit, leading or trailing spaces that differ.
// One rule for both sides: the web console runs it while typing (web/ imports
// this file), editorRows runs it for the "with problems" filter.
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

export interface CheckContext {
  /** The default language's text of the key ('' when none or when this is the default language). */
  source: string;
  charactersLimit: number | null;
}

function icuArguments(elements: MessageFormatElement[], into: string[]): void {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    if (element.type === TYPE.tag) {
      into.push(`<${element.value}>`);
      icuArguments(element.children, into);
      continue;
    }
    into.push(`{${element.value}}`);
    if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) icuArguments(option.value, into);
  }
}

// A row's default-language text is the source of each of its cells: parsed once, not once per cell.
const placeholderMemo = new Map<string, string[]>();

/** Placeholders of a text, sorted (a multiset): ICU arguments or {name}, printf, {{x}}, HTML tags. */
export function placeholders(text: string): string[] {
  let found = placeholderMemo.get(text);
  if (!found) {
    if (placeholderMemo.size > 20_000) placeholderMemo.clear();
    found = findPlaceholders(text);
    placeholderMemo.set(text, found);
  }
  return found;
}

function findPlaceholders(text: string): string[] {
  const found: string[] = [];
  const mustache = text.match(/\{\{\s*[\w.-]+\s*\}\}/g) ?? [];
  found.push(...mustache.map((m) => m.replace(/\s+/g, '')));
  const rest = text.replace(/\{\{\s*[\w.-]+\s*\}\}/g, '');
  found.push(...(rest.match(/%(\d+\$)?[-+ 0#]*\d*(\.\d+)?[sdifuxXeEgGcp@]/g) ?? []));
  found.push(...(rest.match(/<\/?[a-zA-Z][\w-]*\s*\/?>/g) ?? []));
  if (rest.includes('{')) {
    try {
      icuArguments(parse(rest, { ignoreTag: true }), found);
    } catch {
      // An ICU syntax error: the plain {name} arguments still count.
      found.push(...(rest.match(/\{\s*[\w.-]+\s*\}/g) ?? []).map((m) => m.replace(/\s+/g, '')));
    }
  }
  return found.sort();
}

export function icuError(text: string): string | undefined {
  if (!text.includes('{')) return undefined;
  const rest = text.replace(/\{\{\s*[\w.-]+\s*\}\}/g, '');
  if (!rest.includes('{') && !rest.includes('}')) return undefined;
  try {
    parse(rest, { ignoreTag: true });
    return undefined;
  } catch (error) {
    return `ICU syntax error: ${(error as Error).message}`;
  }
}

const edges = (text: string) => [/^\s*/.exec(text)![0], /\s*$/.exec(text)![0]];

// Rendering a window of cells checks the same texts again and again (ICU parsing is the cost).
const memo = new Map<string, string[]>();

/** The problems of a text; empty when there is none. */
export function checkText(text: string, context: CheckContext): string[] {
  const id = `${context.charactersLimit ?? ''}\u0001${context.source}\u0001${text}`;
  let problems = memo.get(id);
  if (!problems) {
    if (memo.size > 20_000) memo.clear();
    problems = computeProblems(text, context);
    memo.set(id, problems);
  }
  return problems;
}

function computeProblems(text: string, context: CheckContext): string[] {
  const problems: string[] = [];
  if (context.charactersLimit != null && text.length > context.charactersLimit) problems.push(`Over the limit: ${text.length} of ${context.charactersLimit} characters`);
  if (text === '') return problems;
  const icu = icuError(text);
  if (icu) problems.push(icu);
  if (context.source) {
    const mine = placeholders(text);
    const theirs = placeholders(context.source);
    if (mine.join('\u0000') !== theirs.join('\u0000')) {
      const missing = theirs.filter((p) => !mine.includes(p));
      const extra = mine.filter((p) => !theirs.includes(p));
      problems.push(`Placeholders differ from the default language${missing.length ? `; missing ${missing.join(' ')}` : ''}${extra.length ? `; extra ${extra.join(' ')}` : ''}`);
    }
    const [lead, trail] = edges(text);
    const [sourceLead, sourceTrail] = edges(context.source);
    if (lead !== sourceLead || trail !== sourceTrail) problems.push('Leading or trailing spaces differ from the default language');
  }
  return problems;
}
