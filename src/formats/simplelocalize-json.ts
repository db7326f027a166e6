// simplelocalize-json: the vendor's JSON in FormatJS style, one language per
// file (the import's languageKey; an export writes one file per language):
//
//   {
//     "home.title": { "message": "Welcome, {name}!" },
//     "cart.items": { "defaultMessage": "{count, plural, one {# item} other {# items}}",
//                     "description": "Badge on the cart icon",
//                     "charactersLimit": 40, "tags": ["web", "checkout"] }
//   }
//
// Import:
// - The top level is an object of keys (FormatJS message ids, flat: dots do
//   not nest); each value is an object. `message` is the text; FormatJS
//   extract output (`formatjs extract`) has `defaultMessage` instead, read the
//   same; when both are there, `message` wins (it is the translation). A key
//   without either (or with null) is created without a translation.
// - `description` is the key's code description (the description written by
//   developers in code, as FormatJS extracts it); an object description
//   (FormatJS allows one) is kept as its JSON text. `charactersLimit`: a whole
//   number of 0 or more (or null); `tags`: an array of texts, merged into the
//   key's tags. Other members (FormatJS's source locations `file`, `line`,
//   `col`, `start`, `end`, an `id` repeating the key) are ignored.
// - A value that is not an object (`{"key": "text"}`, a flat single-language
//   file) is refused with a message showing the expected shape. Sizes and
//   depth are bounded by json-safe.ts like every JSON format.
// - No namespaces in the file: keys go to the import's namespace.
// Export:
// - `{"key": {"message": "…"}}`, plus `description` (the key's code
//   description, so it reads back as one), `charactersLimit` and `tags` when
//   the key has them, in that order. A missing translation is "". The
//   translators' description is not written (it would read back as the code
//   description). Laid out as JSON.stringify(…, null, 2), streamed key by key.
// - No namespaces, as single-language-json: an unsplit export writes the key of
//   the first namespace (code-point order) for a name shared by several;
//   SPLIT_BY_NAMESPACES writes them all.
// - ESCAPE_SINGLE_QUOTES writes every ' of a message as \'. WRITE_NESTED,
//   ESCAPE_NEW_LINES and INCLUDE_DESCRIPTIONS do not apply (ids are flat, JSON
//   escapes newlines, the description is always written).
import { defineFormat } from './define.js';
import { entryWriter } from './entry-writer.js';
import { JsonMembers } from './json-object-writer.js';
import { isJsonObject, parseJson } from './json-safe.js';
import {
  FormatError,
  type Bundle,
  type BundleKey,
  type FormatWriter,
  type ParseOptions,
  type SerializeOptions,
} from './model.js';
import { requireLanguageKey, singleLanguage } from './single-language.js';

const FORMAT = 'simplelocalize-json';
const SHAPE =
  '{"key": {"message": "…"}} or FormatJS extract output {"key": {"defaultMessage": "…", "description": "…"}}';

export const simplelocalizeJson = defineFormat({
  id: FORMAT,
  multiLanguage: false,
  namespaces: false,
  extension: 'json',
  contentType: 'application/json',
  parse: async (input, options) => read(parseJson(input), options),
  writer,
});

function writer(options: SerializeOptions): FormatWriter {
  const language = singleLanguage(options, FORMAT);
  const escape = options.options.has('ESCAPE_SINGLE_QUOTES');
  const doc = new JsonMembers('object');
  const entry = (k: BundleKey): string => {
    const text = k.translations[language]?.text ?? '';
    const value: Record<string, unknown> = { message: escape ? text.replace(/'/g, "\\'") : text };
    if (k.codeDescription) value.description = k.codeDescription;
    if (k.charactersLimit !== undefined && k.charactersLimit !== null) value.charactersLimit = k.charactersLimit;
    if (k.tags?.length) value.tags = k.tags;
    return doc.member(k.key, value);
  };
  return entryWriter({
    header: () => doc.open(),
    entries: (page) => page.map(entry).join(''),
    footer: () => `${doc.close()}\n`,
  });
}

const fail = (message: string): never => {
  throw new FormatError(`Invalid ${FORMAT}: ${message}`);
};

function read(doc: unknown, options: ParseOptions): Bundle {
  const language = requireLanguageKey(options, FORMAT);
  const namespace = options.namespace ?? '';
  if (!isJsonObject(doc)) return fail(`the file must be an object of keys, ${SHAPE}`);
  const keys: BundleKey[] = [];
  for (const [name, value] of Object.entries(doc)) {
    const at = JSON.stringify(name);
    if (!isJsonObject(value)) {
      fail(
        `the value of ${at} must be an object, ${SHAPE}${typeof value === 'string' ? ' (a file of {"key": "text"} is single-language-json)' : ''}`,
      );
    }
    const v = value as Record<string, unknown>;
    const key: BundleKey = { key: name, namespace, translations: {} };
    const text = v.message ?? v.defaultMessage ?? null;
    if (text !== null) {
      if (typeof text !== 'string')
        fail(`${at}.${v.message !== undefined && v.message !== null ? 'message' : 'defaultMessage'} must be a string`);
      key.translations[language] = { text: text as string };
    }
    if (v.description !== undefined && v.description !== null) {
      if (typeof v.description === 'string') key.codeDescription = v.description;
      else if (isJsonObject(v.description)) key.codeDescription = JSON.stringify(v.description);
      else fail(`${at}.description must be a string`);
    }
    if (v.charactersLimit !== undefined) {
      const limit = v.charactersLimit;
      if (limit !== null && !(Number.isSafeInteger(limit) && (limit as number) >= 0))
        fail(`${at}.charactersLimit must be a whole number of 0 or more`);
      key.charactersLimit = limit as number | null;
    }
    if (v.tags !== undefined && v.tags !== null) {
      if (!Array.isArray(v.tags) || v.tags.some((t) => typeof t !== 'string'))
        fail(`${at}.tags must be an array of texts`);
      if ((v.tags as string[]).length) key.tags = v.tags as string[];
    }
    keys.push(key);
  }
  return { keys, languages: [{ key: language }] };
}
