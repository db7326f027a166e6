// The checks, one definition each: id, category, default severity, whether it
// runs by default, and the rule. A rule reads a Pair (both texts read once,
// pairOf in src/checks/index.ts) and returns problems with a message saying what to fix
// and the span of the target text concerned. Which checks are on by default
// follows the corpus measurement (docs/quality-checks.md).
import {
  entityProblems,
  fixedAttributes,
  hasEntity,
  readMarkdown,
  readTags,
  tagLabel,
  unbalancedTag,
} from './markup.js';
import type { Token } from './placeholders.js';
import { pluralNeeds, pluralProblems } from './plurals.js';
import {
  baseLanguage,
  codePoint,
  emails,
  endMark,
  endMarkOptional,
  hasWords,
  invisibleCharacters,
  length,
  mixedScriptWords,
  numbers,
  repeatedWords,
  unbalancedPair,
  urls,
  type EndMark,
} from './text.js';
import type { CheckDefinition, Pair, Problem } from './types.js';
import { glossaryCheck } from './glossary.js';
import { checkMessage, problem } from './messages.js';
import { ambiguousTranslation, inconsistentTranslation } from './consistency.js';

const list = (items: string[]) => items.map((i) => `"${i}"`).join(', ');
const span = (start: number, end: number) => ({ start, end });
const tokenSpan = (t: Token) => span(t.start, t.end);
const pluralSpan = (element: { location?: { start: { offset: number }; end: { offset: number } } }) =>
  element.location ? span(element.location.start.offset, element.location.end.offset) : null;

/** Named placeholders (`{name}`, `%1$s`, `%(x)s`, `{{x}}`, `%1`…): their first occurrence per key. */
function named(tokens: Token[]): Map<string, Token[]> {
  const map = new Map<string, Token[]>();
  for (const t of tokens) {
    if (!t.key || t.key === 'icu:#') continue;
    const l = map.get(t.key);
    if (l) l.push(t);
    else map.set(t.key, [t]);
  }
  return map;
}

/** Unnumbered placeholders (`%s %d`, `{}`): identified by their order. */
const unnumbered = (tokens: Token[]) => tokens.filter((t) => !t.key);

const onlyIfSource = (pair: Pair) => pair.source !== '' && pair.target !== '';

/**
 * Both sides' tokens, comparable: unnumbered printf tokens on one side and
 * positional ones on the other (`%d` translated as `%1$d`, Apple's `%@ %@` as
 * `%1$@ %2$@`) are the same arguments, so the unnumbered ones are numbered.
 */
const comparableMemo = new WeakMap<Pair, { source: Token[]; target: Token[] }>();
function comparable(pair: Pair): { source: Token[]; target: Token[] } {
  let found = comparableMemo.get(pair);
  if (found) return found;
  const isPrintf = (t: Token) => t.raw.startsWith('%') && !t.key;
  const positional = (tokens: Token[]) => tokens.some((t) => /^printf:\d+$/.test(t.key));
  const numbered = (tokens: Token[]) => {
    let n = 0;
    return tokens.map((t) => (isPrintf(t) ? { ...t, key: `printf:${++n}` } : t));
  };
  let source = pair.sourceReading.tokens;
  let target = pair.targetReading.tokens;
  if (source.some(isPrintf) && !target.some(isPrintf) && positional(target)) source = numbered(source);
  else if (target.some(isPrintf) && !source.some(isPrintf) && positional(source)) target = numbered(target);
  found = { source, target };
  comparableMemo.set(pair, found);
  return found;
}

/** The tokens of `tokens` left over once each of `others` has taken one of its type: the surplus, in order. */
function surplus(tokens: Token[], others: Token[]): Token[] {
  const left = others.map((t) => t.type);
  return tokens.filter((t) => {
    const i = left.indexOf(t.type);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/**
 * A placeholder check: run on both sides' comparable tokens, and not at all
 * when a side is empty or neither text has any (most texts).
 */
function placeholderCheck(
  definition: Omit<CheckDefinition, 'run' | 'category' | 'severity' | 'enabled'>,
  run: (tokens: { source: Token[]; target: Token[] }, pair: Pair) => Problem[],
): CheckDefinition {
  return {
    ...definition,
    category: 'placeholders',
    severity: 'error',
    enabled: true,
    run(pair) {
      if (!onlyIfSource(pair) || (pair.sourceReading.tokens.length === 0 && pair.targetReading.tokens.length === 0))
        return [];
      return run(comparable(pair), pair);
    },
  };
}

const missingPlaceholders = placeholderCheck({ id: 'placeholders-missing', title: 'Missing placeholder' }, (tokens) => {
  const problems: Problem[] = [];
  const mine = named(tokens.target);
  for (const [key, theirs] of named(tokens.source)) {
    if (!mine.has(key)) problems.push(problem('placeholders-missing.named', { placeholder: theirs[0]!.raw }));
  }
  const source = unnumbered(tokens.source);
  const target = unnumbered(tokens.target);
  if (target.length < source.length) {
    const lost = surplus(source, target);
    if (lost.length)
      problems.push(
        problem('placeholders-missing.unnumbered', {
          placeholders: lost.map((t) => t.raw).join(' '),
          target: target.length,
          source: source.length,
        }),
      );
  }
  return problems;
});

const extraPlaceholders = placeholderCheck({ id: 'placeholders-extra', title: 'Extra placeholder' }, (tokens) => {
  const problems: Problem[] = [];
  const theirs = named(tokens.source);
  for (const [key, mine] of named(tokens.target)) {
    if (!theirs.has(key))
      problems.push(problem('placeholders-extra.named', { placeholder: mine[0]!.raw }, tokenSpan(mine[0]!)));
  }
  const source = unnumbered(tokens.source);
  const target = unnumbered(tokens.target);
  if (target.length > source.length) {
    const added = surplus(target, source);
    if (added.length)
      problems.push(
        problem(
          'placeholders-extra.unnumbered',
          { placeholders: added.map((t) => t.raw).join(' ') },
          tokenSpan(added[0]!),
        ),
      );
  }
  return problems;
});

const placeholderType = placeholderCheck({ id: 'placeholders-type', title: 'Placeholder type changed' }, (tokens) => {
  const problems: Problem[] = [];
  const theirs = named(tokens.source);
  for (const [key, mine] of named(tokens.target)) {
    const have = theirs.get(key);
    if (!have) continue;
    const types = new Set(have.map((t) => t.type));
    const changed = mine.find((t) => !types.has(t.type));
    if (changed)
      problems.push(
        problem('placeholders-type.changed', { placeholder: changed.raw, source: have[0]!.raw }, tokenSpan(changed)),
      );
  }
  // Unnumbered ones, as many on both sides but of other types (a reordering is placeholders-order's).
  const source = unnumbered(tokens.source);
  const target = unnumbered(tokens.target);
  const sorted = (tokens: Token[]) =>
    tokens
      .map((t) => t.type)
      .sort()
      .join(' ');
  if (source.length === target.length && sorted(source) !== sorted(target)) {
    const i = target.findIndex((t, n) => t.type !== source[n]!.type);
    problems.push(
      problem(
        'placeholders-type.changed',
        { placeholder: target[i]!.raw, source: source[i]!.raw },
        tokenSpan(target[i]!),
      ),
    );
  }
  return problems;
});

const placeholderOrder = placeholderCheck({ id: 'placeholders-order', title: 'Placeholders reordered' }, (tokens) => {
  const source = unnumbered(tokens.source);
  const target = unnumbered(tokens.target);
  if (source.length !== target.length || source.length < 2) return [];
  const s = source.map((t) => t.type).join(' ');
  const t = target.map((x) => x.type).join(' ');
  if (s === t || [...source.map((x) => x.type)].sort().join(' ') !== [...target.map((x) => x.type)].sort().join(' '))
    return [];
  const first = target.findIndex((x, i) => x.type !== source[i]!.type);
  return [
    problem(
      'placeholders-order.reordered',
      { target: target.map((x) => x.raw).join(' '), source: source.map((x) => x.raw).join(' ') },
      tokenSpan(target[first]!),
    ),
  ];
});

const icuSyntax: CheckDefinition = {
  id: 'icu-syntax',
  category: 'placeholders',
  title: 'ICU syntax error',
  severity: 'error',
  enabled: true,
  run(pair) {
    const error = pair.targetReading.icuError;
    if (!error || pair.target === '') return [];
    // The source is ICU (an argument with a type or a plural/select), the project says so, or the text itself
    // has an ICU argument with a type (the default language's own text is its source): it must parse.
    const icuSource = pair.dialect === 'icu' || pair.sourceReading.tokens.some((t) => t.icu && t.type !== '');
    const looksIcu = /\{\s*[\w.-]+\s*,\s*(plural|select|selectordinal|number|date|time)\s*[,}]/.test(pair.target);
    if (!(icuSource && !pair.sourceReading.icuError) && !looksIcu) return [];
    return [problem('icu-syntax.invalid', { error })];
  },
};

const pluralMissing: CheckDefinition = {
  id: 'plural-missing',
  category: 'plurals',
  title: 'Plural form missing',
  severity: 'error',
  enabled: true,
  run(pair) {
    return pluralProblems(pair.sourceReading.icu, pair.targetReading.icu, pair.sourceLanguage, pair.targetLanguage)
      .filter((p) => p.kind === 'missing' || p.kind === 'empty')
      .map((p) =>
        problem(
          p.kind === 'empty' ? 'plural-missing.empty' : 'plural-missing.add',
          {
            count: p.categories.length,
            categories: list(p.categories),
            argument: `{${p.argument}}`,
            language: pair.targetLanguage,
            needed: list(pluralNeeds(pair.targetLanguage, p.element.pluralType === 'ordinal').needed),
          },
          pluralSpan(p.element),
        ),
      );
  },
};

const pluralSuperfluous: CheckDefinition = {
  id: 'plural-superfluous',
  category: 'plurals',
  title: 'Plural form not used by the language',
  severity: 'warning',
  enabled: true,
  run(pair) {
    return pluralProblems(pair.sourceReading.icu, pair.targetReading.icu, pair.sourceLanguage, pair.targetLanguage)
      .filter((p) => p.kind === 'superfluous')
      .map((p) =>
        problem(
          'plural-superfluous.unused',
          {
            count: p.categories.length,
            language: pair.targetLanguage,
            categories: list(p.categories),
            argument: `{${p.argument}}`,
            forms: list(pluralNeeds(pair.targetLanguage, p.element.pluralType === 'ordinal').all),
          },
          pluralSpan(p.element),
        ),
      );
  },
};

const pluralNumber: CheckDefinition = {
  id: 'plural-number',
  category: 'plurals',
  title: 'Plural form without the number',
  severity: 'warning',
  enabled: true,
  run(pair) {
    return pluralProblems(pair.sourceReading.icu, pair.targetReading.icu, pair.sourceLanguage, pair.targetLanguage)
      .filter((p) => p.kind === 'pound')
      .map((p) =>
        problem(
          'plural-number.lost',
          { count: p.categories.length, categories: list(p.categories), argument: `{${p.argument}}` },
          pluralSpan(p.element),
        ),
      );
  },
};

const tags: CheckDefinition = {
  id: 'markup-tags',
  category: 'markup',
  title: 'Tags differ from the source',
  severity: 'error',
  enabled: true,
  run(pair) {
    if (!onlyIfSource(pair)) return [];
    const theirs = readTags(pair.sourceReading.prose);
    const mine = readTags(pair.targetReading.prose);
    if (!theirs.length && !mine.length) return [];
    const left = mine.map(tagLabel);
    const missing: string[] = [];
    for (const t of theirs.map(tagLabel)) {
      const i = left.indexOf(t);
      if (i < 0) missing.push(t);
      else left.splice(i, 1);
    }
    const problems: Problem[] = [];
    if (missing.length)
      problems.push(problem('markup-tags.missing', { count: missing.length, tags: missing.join(' ') }));
    if (left.length) {
      const extra = mine.find((t) => tagLabel(t) === left[0])!;
      problems.push(
        problem('markup-tags.extra', { count: left.length, tags: left.join(' ') }, span(extra.start, extra.end)),
      );
    }
    return problems;
  },
};

const tagsUnbalanced: CheckDefinition = {
  id: 'markup-unbalanced',
  category: 'markup',
  title: 'Tags not properly nested',
  severity: 'error',
  enabled: true,
  run(pair) {
    if (!onlyIfSource(pair)) return [];
    const mine = readTags(pair.targetReading.prose);
    if (!mine.length || unbalancedTag(readTags(pair.sourceReading.prose))) return [];
    const bad = unbalancedTag(mine);
    return bad
      ? [
          problem(
            bad.closing ? 'markup-unbalanced.closed' : 'markup-unbalanced.open',
            { tag: tagLabel(bad) },
            span(bad.start, bad.end),
          ),
        ]
      : [];
  },
};

const tagAttributes: CheckDefinition = {
  id: 'markup-attributes',
  category: 'markup',
  title: 'Tag attributes changed',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (!onlyIfSource(pair)) return [];
    const theirs = readTags(pair.sourceReading.prose).filter((t) => !t.closing);
    const mine = readTags(pair.targetReading.prose).filter((t) => !t.closing);
    const problems: Problem[] = [];
    // Tags of the same name are matched in order; a link's target, a class, an id must not change.
    const byName = new Map<string, string[]>();
    for (const t of theirs) byName.set(t.name, [...(byName.get(t.name) ?? []), fixedAttributes(t)]);
    const seen = new Map<string, number>();
    for (const t of mine) {
      const n = seen.get(t.name) ?? 0;
      seen.set(t.name, n + 1);
      const expected = byName.get(t.name)?.[n];
      if (
        expected !== undefined &&
        expected !== fixedAttributes(t) &&
        !byName.get(t.name)!.includes(fixedAttributes(t))
      ) {
        problems.push(
          expected
            ? problem('markup-attributes.changed', { tag: tagLabel(t), source: expected }, span(t.start, t.end))
            : problem('markup-attributes.added', { tag: tagLabel(t) }, span(t.start, t.end)),
        );
      }
    }
    return problems;
  },
};

const entities: CheckDefinition = {
  id: 'markup-entities',
  category: 'markup',
  title: 'Invalid character reference',
  severity: 'error',
  enabled: true,
  run(pair) {
    if (pair.target === '') return [];
    const markupSource = hasEntity(pair.sourceReading.prose) || readTags(pair.sourceReading.prose).length > 0;
    const theirs = new Set(entityProblems(pair.sourceReading.prose, true).map((p) => `${p.reason}:${p.raw}`));
    return entityProblems(pair.targetReading.prose, markupSource)
      .filter((p) => !theirs.has(`${p.reason}:${p.raw}`))
      .map((p) =>
        problem(
          p.reason === 'unknown'
            ? 'markup-entities.unknown'
            : p.reason === 'invalid-number'
              ? 'markup-entities.invalid-number'
              : 'markup-entities.no-semicolon',
          { entity: p.raw },
          span(p.start, p.end),
        ),
      );
  },
};

const markdown: CheckDefinition = {
  id: 'markdown',
  category: 'markup',
  title: 'Markdown links or emphasis changed',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (!onlyIfSource(pair)) return [];
    const theirs = readMarkdown(pair.sourceReading.prose);
    if (!theirs.links.length && !theirs.strong && !theirs.code.length) return [];
    const mine = readMarkdown(pair.targetReading.prose);
    const problems: Problem[] = [];
    const links = [...mine.links];
    const lost = theirs.links.filter((l) => {
      const i = links.indexOf(l);
      if (i < 0) return true;
      links.splice(i, 1);
      return false;
    });
    if (lost.length)
      problems.push(problem('markdown.links', { count: lost.length, links: lost.join(', '), first: lost[0]! }));
    if (theirs.strong !== mine.strong)
      problems.push(problem('markdown.bold', { count: theirs.strong / 2, target: mine.strong / 2 }));
    const code = mine.code.join('\u0000');
    if (
      theirs.code.join('\u0000') !== code &&
      [...theirs.code].sort().join('\u0000') !== [...mine.code].sort().join('\u0000')
    ) {
      problems.push(problem('markdown.code', { code: theirs.code.map((c) => `\`${c}\``).join(' ') }));
    }
    return problems;
  },
};

const sameAsSource: CheckDefinition = {
  id: 'same-as-source',
  category: 'text',
  title: 'Same as source',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (pair.target === '' || pair.target !== pair.source) return [];
    if (baseLanguage(pair.sourceLanguage) === baseLanguage(pair.targetLanguage)) return [];
    // A text of placeholders, numbers, URLs, a single short word (OK, PDF, Email) reads the same in many languages.
    const prose = pair.sourceReading.prose;
    // Two words at least, side by side (not a shortcut such as Ctrl+Shift+S, a brand, a resource reference).
    if (
      !hasWords(prose) ||
      /^@[\w+]+\/\S+$/.test(pair.source) ||
      !/\p{L}{2,}\s+\p{L}{2,}/u.test(prose.replace(/<[^>]*>/g, ' '))
    )
      return [];
    // A name of a few capitalised words (Apple Pay, The GNOME Project, Point Of Sale (POS)) is kept as it is.
    const words = prose.match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu) ?? [];
    if (words.length <= 4 && words.every((w) => /^[\p{Lu}\p{N}]/u.test(w) || /^(of|the|and|for|de|la|le)$/i.test(w)))
      return [];
    return [problem('same-as-source.same', {}, span(0, pair.target.length))];
  },
};

const blank: CheckDefinition = {
  id: 'blank',
  category: 'text',
  title: 'Only white space',
  severity: 'error',
  enabled: true,
  run(pair) {
    return pair.target !== '' && pair.target.trim() === '' && pair.source.trim() !== ''
      ? [problem('blank.blank', {}, span(0, pair.target.length))]
      : [];
  },
};

const edge = (text: string, end: boolean) =>
  (end ? /[ \t\u00a0\u3000]*$/ : /^[ \t\u00a0\u3000]*/).exec(text.replace(end ? /[\r\n]+$/ : /^[\r\n]+/, ''))![0];

const leadingSpace: CheckDefinition = {
  id: 'leading-space',
  category: 'text',
  title: 'Leading spaces differ',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (!onlyIfSource(pair) || pair.target.trim() === '') return [];
    const mine = edge(pair.target, false);
    const theirs = edge(pair.source, false);
    return mine.length !== theirs.length
      ? [
          problem(
            'leading-space.differs',
            { count: theirs.length, target: mine.length },
            span(0, Math.max(mine.length, 1)),
          ),
        ]
      : [];
  },
};

const trailingSpace: CheckDefinition = {
  id: 'trailing-space',
  category: 'text',
  title: 'Trailing spaces differ',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (!onlyIfSource(pair) || pair.target.trim() === '') return [];
    const mine = edge(pair.target, true);
    const theirs = edge(pair.source, true);
    const end = pair.target.replace(/[\r\n]+$/, '').length;
    return mine.length !== theirs.length
      ? [
          problem(
            'trailing-space.differs',
            { count: theirs.length, target: mine.length },
            span(end - Math.max(mine.length, 1), end),
          ),
        ]
      : [];
  },
};

const newlines: CheckDefinition = {
  id: 'newlines',
  category: 'text',
  title: 'Line breaks differ',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (!onlyIfSource(pair)) return [];
    const problems: Problem[] = [];
    const lead = (t: string) => /^(\r?\n)*/.exec(t)![0].replace(/\r/g, '').length;
    const trail = (t: string) => /(\r?\n)*$/.exec(t)![0].replace(/\r/g, '').length;
    if (lead(pair.source) !== lead(pair.target))
      problems.push(problem('newlines.start', { source: lead(pair.source), target: lead(pair.target) }));
    if (trail(pair.source) !== trail(pair.target))
      problems.push(problem('newlines.end', { source: trail(pair.source), target: trail(pair.target) }));
    return problems;
  },
};

const doubleSpace: CheckDefinition = {
  id: 'double-space',
  category: 'text',
  title: 'Double space',
  severity: 'info',
  enabled: true,
  run(pair) {
    if (pair.target === '' || /\S {2,}\S/.test(pair.source)) return [];
    const m = /(?<=\S) {2,}(?=\S)/.exec(pair.targetReading.prose);
    return m ? [problem('double-space.double', {}, span(m.index, m.index + m[0].length))] : [];
  },
};

const markName = (mark: EndMark) => checkMessage(`end-punctuation.mark.${mark}`);

const endPunctuation: CheckDefinition = {
  id: 'end-punctuation',
  category: 'text',
  title: 'End punctuation differs',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (!onlyIfSource(pair) || !hasWords(pair.sourceReading.prose)) return [];
    const theirs = endMark(pair.sourceReading.prose, pair.sourceLanguage);
    const mine = endMark(pair.targetReading.prose, pair.targetLanguage);
    if (theirs.mark === mine.mark) return [];
    if (theirs.mark !== 'none' && mine.mark === 'none' && endMarkOptional(theirs.mark, pair.targetLanguage)) return [];
    // An ellipsis and a full stop, a colon and nothing after a closing label: variants translators choose deliberately.
    if ((theirs.mark === 'ellipsis' && mine.mark === 'stop') || (theirs.mark === 'stop' && mine.mark === 'ellipsis'))
      return [];
    return [
      problem(
        'end-punctuation.differs',
        { source: markName(theirs.mark), target: markName(mine.mark), language: pair.targetLanguage },
        mine.index >= 0 ? span(mine.index, mine.index + 1) : null,
      ),
    ];
  },
};

const spanishMarks: CheckDefinition = {
  id: 'inverted-marks',
  category: 'text',
  title: 'Spanish opening ¿ or ¡ missing',
  severity: 'info',
  enabled: true,
  run(pair) {
    if (baseLanguage(pair.targetLanguage) !== 'es' || pair.target === '') return [];
    const prose = pair.targetReading.prose;
    const problems: Problem[] = [];
    const questions = (prose.match(/\?/g) ?? []).length;
    if (questions > (prose.match(/¿/g) ?? []).length)
      problems.push(problem('inverted-marks.question', {}, span(prose.lastIndexOf('?'), prose.lastIndexOf('?') + 1)));
    const exclamations = (prose.match(/!/g) ?? []).length;
    if (exclamations > (prose.match(/¡/g) ?? []).length)
      problems.push(
        problem('inverted-marks.exclamation', {}, span(prose.lastIndexOf('!'), prose.lastIndexOf('!') + 1)),
      );
    return problems;
  },
};

const frenchSpacing: CheckDefinition = {
  id: 'french-spacing',
  category: 'text',
  title: 'French space before : ; ! ?',
  severity: 'info',
  enabled: false,
  run(pair) {
    if (baseLanguage(pair.targetLanguage) !== 'fr' || pair.target === '') return [];
    // Canadian French puts the space before the colon only.
    const marks = /^fr[-_]ca$/i.test(pair.targetLanguage) ? ':' : ':;!?';
    const re = new RegExp(`(?<=[\\p{L}\\p{N})»"'])( ?)([${marks}])(?=\\s|$)`, 'gu');
    const found = [...pair.targetReading.prose.matchAll(re)];
    return found
      .slice(0, 1)
      .map((m) =>
        problem(
          m[1] ? 'french-spacing.space' : 'french-spacing.missing',
          { mark: m[2]! },
          span(m.index, m.index + m[0].length),
        ),
      );
  },
};

const brackets: CheckDefinition = {
  id: 'brackets',
  category: 'text',
  title: 'Brackets or quotes unbalanced',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (!onlyIfSource(pair) || unbalancedPair(pair.sourceReading.prose)) return [];
    const bad = unbalancedPair(pair.targetReading.prose);
    return bad
      ? [
          bad.open === bad.close || bad.open === '“'
            ? problem('brackets.quotes', { quote: bad.open })
            : problem('brackets.pair', { opened: bad.opened, open: bad.open, closed: bad.closed, close: bad.close }),
        ]
      : [];
  },
};

const repeated: CheckDefinition = {
  id: 'repeated-words',
  category: 'text',
  title: 'Repeated word',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (pair.target === '') return [];
    const theirs = new Set(repeatedWords(pair.sourceReading.prose).map((r) => r.word.toLowerCase()));
    return repeatedWords(pair.targetReading.prose)
      .filter((r) => !theirs.has(r.word.toLowerCase()))
      .map((r) => problem('repeated-words.twice', { word: r.word }, span(r.start, r.end)));
  },
};

function lostItems(source: string[], target: string[]): string[] {
  const left = [...target];
  return source.filter((s) => {
    const i = left.indexOf(s);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

const urlCheck: CheckDefinition = {
  id: 'urls',
  category: 'text',
  title: 'URL changed',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (!onlyIfSource(pair)) return [];
    const lost = lostItems(urls(pair.sourceReading.prose), urls(pair.targetReading.prose));
    return lost.length ? [problem('urls.lost', { items: lost.join(', ') })] : [];
  },
};

const emailCheck: CheckDefinition = {
  id: 'emails',
  category: 'text',
  title: 'E-mail address changed',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (!onlyIfSource(pair)) return [];
    const lost = lostItems(emails(pair.sourceReading.prose), emails(pair.targetReading.prose));
    return lost.length ? [problem('emails.lost', { items: lost.join(', ') })] : [];
  },
};

const numberCheck: CheckDefinition = {
  // Off by default: on the corpus most findings were numbers written as words (Arabic duals, "360°" as "three-dimensional").
  id: 'numbers',
  category: 'text',
  title: 'Numbers differ',
  severity: 'warning',
  enabled: false,
  run(pair) {
    if (!onlyIfSource(pair)) return [];
    const lost = lostItems(numbers(pair.sourceReading.prose), numbers(pair.targetReading.prose));
    return lost.length ? [problem('numbers.lost', { count: lost.length, numbers: lost.join(', ') })] : [];
  },
};

const charactersLimit: CheckDefinition = {
  id: 'characters-limit',
  category: 'text',
  title: 'Over the characters limit',
  severity: 'error',
  enabled: true,
  run(pair) {
    const limit = pair.charactersLimit;
    if (limit == null) return [];
    const n = length(pair.target);
    return n > limit
      ? [
          problem(
            'characters-limit.over',
            { length: n, limit, over: n - limit },
            span([...pair.target].slice(0, limit).join('').length, pair.target.length),
          ),
        ]
      : [];
  },
};

// Languages that write far fewer characters than European ones for the same text.
const DENSE = new Set(['zh', 'ja', 'ko', 'yue']);

const lengthRatio: CheckDefinition = {
  id: 'length-ratio',
  category: 'text',
  title: 'Much longer than the source',
  severity: 'info',
  enabled: true,
  run(pair) {
    if (!onlyIfSource(pair)) return [];
    // A plural has a form per category: the target language may need three where the source has one.
    if (pair.targetReading.tokens.some((t) => t.type === 'plural' || t.type === 'selectordinal')) return [];
    const s = length(pair.source);
    const t = length(pair.target);
    const ratio = DENSE.has(baseLanguage(pair.sourceLanguage)) && !DENSE.has(baseLanguage(pair.targetLanguage)) ? 8 : 3;
    return s >= 4 && t > ratio * s + 10 ? [problem('length-ratio.longer', { length: t, source: s, ratio })] : [];
  },
};

const invisible: CheckDefinition = {
  id: 'invisible-characters',
  category: 'text',
  title: 'Zero-width or bidi control character',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (pair.target === '') return [];
    const theirs = new Set(invisibleCharacters(pair.source, pair.sourceLanguage).map((c) => c.char));
    const found = invisibleCharacters(pair.target, pair.targetLanguage).filter((c) => !theirs.has(c.char));
    return found.length
      ? [
          problem(
            'invisible-characters.found',
            { count: found.length, characters: [...new Set(found.map((c) => codePoint(c.char)))].join(', ') },
            span(found[0]!.index, found[0]!.index + 1),
          ),
        ]
      : [];
  },
};

const mixedScripts: CheckDefinition = {
  id: 'mixed-scripts',
  category: 'text',
  title: 'Word mixing Latin, Cyrillic or Greek letters',
  severity: 'warning',
  enabled: true,
  run(pair) {
    if (pair.target === '') return [];
    const theirs = new Set(mixedScriptWords(pair.sourceReading.prose).map((w) => w.word));
    return mixedScriptWords(pair.targetReading.prose)
      .filter((w) => !theirs.has(w.word))
      .slice(0, 3)
      .map((w) => problem('mixed-scripts.mixed', { word: w.word }, span(w.start, w.end)));
  },
};

/** Every check, in the order findings are listed. */
export const CHECKS: readonly CheckDefinition[] = [
  missingPlaceholders,
  extraPlaceholders,
  placeholderType,
  placeholderOrder,
  icuSyntax,
  pluralMissing,
  pluralSuperfluous,
  pluralNumber,
  tags,
  tagsUnbalanced,
  tagAttributes,
  entities,
  markdown,
  charactersLimit,
  blank,
  sameAsSource,
  leadingSpace,
  trailingSpace,
  newlines,
  doubleSpace,
  endPunctuation,
  spanishMarks,
  frenchSpacing,
  brackets,
  repeated,
  urlCheck,
  emailCheck,
  numberCheck,
  lengthRatio,
  invisible,
  mixedScripts,
  glossaryCheck,
  inconsistentTranslation,
  ambiguousTranslation,
];
