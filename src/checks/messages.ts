// The English texts of the checks' findings, one per message id (src/message-text.ts):
// `<check id>.<message>`, plural forms as `_one` and `_other` chosen by `count`.
// A finding carries its id and values beside the English sentence, so the
// console words it in its own language (web/src/locales/*.json,
// `server.checks`: the English file has these texts as they are here,
// test/unit/message-texts.test.ts).
import { wordInEnglish, type MessageParam, type MessageText } from '../message-text.js';
import type { Problem, Span } from './types.js';

export const CHECK_MESSAGES = {
  'placeholders-missing.named':
    'Missing placeholder {{placeholder}}: keep it in the translation, as it is written in the source',
  'placeholders-missing.unnumbered':
    "Missing placeholder {{placeholders}}: the translation has {{target}} of the source's {{source}}",
  'placeholders-extra.named': "{{placeholder}} is not in the source: remove it or write the source's placeholder",
  'placeholders-extra.unnumbered': '{{placeholders}} is not in the source: remove it',
  'placeholders-type.changed': "{{placeholder}} changes the type of the source's {{source}}: write it as in the source",
  'placeholders-order.reordered':
    "Placeholders without numbers are filled in order: {{target}} reorders the source's {{source}}; keep the order or number them (%1$s, {0})",
  'icu-syntax.invalid': 'Not a valid ICU message ({{error}}): check the braces and the apostrophes',
  'plural-missing.empty_one': 'The plural form {{categories}} of {{argument}} is empty: write it',
  'plural-missing.empty_other': 'The plural forms {{categories}} of {{argument}} are empty: write them',
  'plural-missing.add_one': 'Add the plural form {{categories}} to {{argument}}: {{language}} needs {{needed}}',
  'plural-missing.add_other': 'Add the plural forms {{categories}} to {{argument}}: {{language}} needs {{needed}}',
  'plural-superfluous.unused_one':
    '{{language}} never uses the plural form {{categories}} of {{argument}}: remove it (its forms are {{forms}})',
  'plural-superfluous.unused_other':
    '{{language}} never uses the plural forms {{categories}} of {{argument}}: remove them (its forms are {{forms}})',
  'plural-number.lost_one':
    'The plural form {{categories}} of {{argument}} lost the number: write # where the source has it',
  'plural-number.lost_other':
    'The plural forms {{categories}} of {{argument}} lost the number: write # where the source has it',
  'markup-tags.missing_one': "Missing tag {{tags}}: keep the source's markup",
  'markup-tags.missing_other': "Missing tags {{tags}}: keep the source's markup",
  'markup-tags.extra_one': 'Tag {{tags}} not in the source: remove it',
  'markup-tags.extra_other': 'Tags {{tags}} not in the source: remove them',
  'markup-unbalanced.closed':
    '{{tag}} is closed without being opened: close the tags in the reverse order they are opened',
  'markup-unbalanced.open': '{{tag}} is never closed: close the tags in the reverse order they are opened',
  'markup-attributes.changed':
    'The attributes of {{tag}} changed (source: {{source}}): keep links, classes and ids as in the source',
  'markup-attributes.added':
    'The attributes of {{tag}} changed (source: none): keep links, classes and ids as in the source',
  'markup-entities.unknown': '{{entity}} is not an HTML character reference: correct the name or write the character',
  'markup-entities.invalid-number': '{{entity}} is not a Unicode character: correct the number',
  'markup-entities.no-semicolon': '{{entity}} lacks its ";": write {{entity}};',
  'markdown.links_one': 'Markdown link to {{links}} missing or changed: keep [text]({{first}})',
  'markdown.links_other': 'Markdown links to {{links}} missing or changed: keep [text]({{first}})',
  'markdown.bold_one': 'The source has {{count}} bold part (**…**), the translation {{target}}: keep the emphasis',
  'markdown.bold_other': 'The source has {{count}} bold parts (**…**), the translation {{target}}: keep the emphasis',
  'markdown.code': 'Code spans changed (source: {{code}}): code is not translated',
  'same-as-source.same':
    'The translation is the source text: translate it, or dismiss this if it is the same in this language',
  'blank.blank': 'The translation is only white space: write the text, or empty the cell to leave it untranslated',
  'leading-space.differs_one':
    'The source starts with {{count}} space, the translation with {{target}}: make them the same',
  'leading-space.differs_other':
    'The source starts with {{count}} spaces, the translation with {{target}}: make them the same',
  'trailing-space.differs_one':
    'The source ends with {{count}} space, the translation with {{target}}: make them the same',
  'trailing-space.differs_other':
    'The source ends with {{count}} spaces, the translation with {{target}}: make them the same',
  'newlines.start': 'The source starts with {{source}} line break(s), the translation with {{target}}',
  'newlines.end': 'The source ends with {{source}} line break(s), the translation with {{target}}',
  'double-space.double': 'Two spaces in a row: write one',
  'end-punctuation.differs':
    "The source ends with {{source}}, the translation with {{target}}: end it as the source does, in {{language}}'s form",
  'end-punctuation.mark.stop': 'a full stop',
  'end-punctuation.mark.question': 'a question mark',
  'end-punctuation.mark.exclamation': 'an exclamation mark',
  'end-punctuation.mark.colon': 'a colon',
  'end-punctuation.mark.ellipsis': 'an ellipsis',
  'end-punctuation.mark.semicolon': 'a semicolon',
  'end-punctuation.mark.none': 'no mark',
  'inverted-marks.question': 'A question without its opening ¿: write ¿…?',
  'inverted-marks.exclamation': 'An exclamation without its opening ¡: write ¡…!',
  'french-spacing.missing': 'Write a narrow no-break space (U+202F) or no-break space before "{{mark}}"',
  'french-spacing.space':
    'Write a narrow no-break space (U+202F) or no-break space before "{{mark}}" instead of a space',
  'brackets.quotes': 'An odd number of {{quote}} quotes: close the quotation',
  'brackets.pair': '{{opened}} "{{open}}" and {{closed}} "{{close}}": close each bracket',
  'repeated-words.twice': '"{{word}}" twice in a row: remove one',
  'urls.lost': '{{items}} is missing or changed: keep the address as in the source',
  'emails.lost': '{{items}} is missing or changed: keep the address as in the source',
  'numbers.lost_one': "The source's number {{numbers}} is not in the translation: keep the figures",
  'numbers.lost_other': "The source's numbers {{numbers}} are not in the translation: keep the figures",
  'characters-limit.over':
    'Over the limit: {{length, number}} of {{limit, number}} characters; shorten it by {{over, number}}',
  'length-ratio.longer':
    '{{length, number}} characters for a source of {{source, number}}: more than {{ratio}} times as long; check that it translates this text only',
  'invisible-characters.found_one': 'Invisible {{characters}} in the translation: remove it',
  'invisible-characters.found_other': 'Invisible {{characters}} in the translation: remove them',
  'mixed-scripts.mixed':
    '"{{word}}" mixes letters of different scripts (look-alikes such as Cyrillic а and Latin a): retype it',
  'glossary.keep': 'The glossary says "{{term}}" is not translated: keep it as written',
  'glossary.missing': 'The glossary translates "{{term}}" as "{{translation}}": it is not in the translation',
  'glossary.forbidden': '"{{term}}" is a forbidden term in the glossary',
  // The consistency checks' messages are worded in SQL (src/findings/consistency.ts), with these ids.
  'inconsistent-translation.keys':
    'The same source text is translated otherwise in {{keys}}: use one translation, or dismiss if the keys mean different things',
  'inconsistent-translation.keys-and-more_one':
    'The same source text is translated otherwise in {{keys}} and {{count, number}} more key: use one translation, or dismiss if the keys mean different things',
  'inconsistent-translation.keys-and-more_other':
    'The same source text is translated otherwise in {{keys}} and {{count, number}} more keys: use one translation, or dismiss if the keys mean different things',
  'inconsistent-translation.counted_one':
    'The same source text is translated otherwise in {{count, number}} key: use one translation, or dismiss if the keys mean different things',
  'inconsistent-translation.counted_other':
    'The same source text is translated otherwise in {{count, number}} keys: use one translation, or dismiss if the keys mean different things',
  'ambiguous-translation.keys':
    'The same translation stands for another source text in {{keys}}: translate each source text as it says, or dismiss if they mean the same',
  'ambiguous-translation.keys-and-more_one':
    'The same translation stands for another source text in {{keys}} and {{count, number}} more key: translate each source text as it says, or dismiss if they mean the same',
  'ambiguous-translation.keys-and-more_other':
    'The same translation stands for another source text in {{keys}} and {{count, number}} more keys: translate each source text as it says, or dismiss if they mean the same',
  'ambiguous-translation.counted_one':
    'The same translation stands for another source text in {{count, number}} key: translate each source text as it says, or dismiss if they mean the same',
  'ambiguous-translation.counted_other':
    'The same translation stands for another source text in {{count, number}} keys: translate each source text as it says, or dismiss if they mean the same',
} as const satisfies Record<string, string>;

/** A message id of the catalogue, plural forms by their common id. */
export type CheckMessageId = keyof typeof CHECK_MESSAGES extends infer K
  ? K extends `${infer Base}_${'one' | 'other'}`
    ? Base
    : K
  : never;

export const checkMessage = (id: CheckMessageId, params: Record<string, MessageParam> = {}): MessageText => ({
  id,
  params,
});

/** A check's problem: its message as data and in English, and where it is. */
export function problem(id: CheckMessageId, params: Record<string, MessageParam>, span: Span | null = null): Problem {
  const text = checkMessage(id, params);
  return { message: wordInEnglish(CHECK_MESSAGES, text), text, span };
}
