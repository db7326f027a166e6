// Flutter Application Resource Bundle (.arb, JSON).
//
//   { "@@locale": "en", "itemCount": "{count, plural, =1{{count} item} other{{count} items}}",
//     "@itemCount": { "description": "...", "placeholders": { "count": { "type": "int" } } } }
//
// Conventions:
// - Messages are ICU already and are stored exactly as written.
// - `@key.description` <-> description (written with INCLUDE_DESCRIPTIONS).
// - The rest of `@key` (placeholders, type, context, ...) is kept as compact
//   JSON in the key's codeDescription, e.g. `{"placeholders":{"count":{"type":"int"}}}`,
//   and merged back into `@key` on export (always: Flutter's generator needs
//   the placeholders). A codeDescription that is not a JSON object (set by
//   another format or by hand) is not written. Empty `@key: {}` entries are
//   not kept.
// - `@@locale` is written on export; other `@@` globals (`@@last_modified`,
//   `@@author`, ...) are not translations and are not imported. The language
//   of an import is the request's languageKey, else the file's `@@locale`
//   (a file with neither is refused).
// - A key without a translation in the exported language is left out:
//   Flutter's gen-l10n falls back to the template and reports it untranslated.
//   So is a key whose name begins with `@`: ARB reserves those names for
//   metadata (the import skips them, and `@x` would clash with x's metadata).
// - ARB has no namespaces; a key present in several namespaces is written once
//   (the export engine hands over one key per name).
// - Export is streamed: `{` and `@@locale`, the members of each key, `}`.
import { defineFormat } from './define.js';
import { entryWriter } from './entry-writer.js';
import { JsonMembers } from './json-object-writer.js';
import { isJsonObject, parseJson } from './json-safe.js';
import type { Bundle, BundleKey, FileFormat, FormatWriter, ParseOptions, SerializeOptions } from './model.js';
import { FormatError } from './model.js';

export const arb: FileFormat = defineFormat({
  id: 'arb',
  multiLanguage: false,
  namespaces: false,
  extension: 'arb',
  contentType: 'application/json; charset=utf-8',
  parse: async (input, options) => parseArb(input, options),
  writer: arbWriter,
});

function parseArb(input: Buffer, options: ParseOptions): Bundle {
  const doc = parseJson(input);
  if (!isJsonObject(doc)) throw new FormatError('An ARB file must be a JSON object');
  const language = options.languageKey ?? (typeof doc['@@locale'] === 'string' ? doc['@@locale'] : undefined);
  if (!language) throw new FormatError('arb files need a languageKey');
  const keys = new Map<string, BundleKey>();
  for (const [name, value] of Object.entries(doc)) {
    if (name.startsWith('@')) continue;
    if (typeof value !== 'string')
      throw new FormatError(
        `The value of "${name}" must be a string, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
      );
    const key: BundleKey = {
      key: name,
      namespace: options.namespace ?? '',
      translations: { [language]: { text: value } },
    };
    const meta = Object.hasOwn(doc, `@${name}`) ? doc[`@${name}`] : undefined;
    if (meta !== undefined && !isJsonObject(meta)) throw new FormatError(`"@${name}" must be an object`);
    if (meta) {
      const { description, ...rest } = meta;
      if (typeof description === 'string') key.description = description;
      else if (description !== undefined) rest.description = description;
      if (Object.keys(rest).length) key.codeDescription = JSON.stringify(rest);
    }
    keys.set(name, key);
  }
  return { keys: [...keys.values()], languages: [{ key: language }] };
}

function arbWriter(options: SerializeOptions): FormatWriter {
  const language = options.languages[0]?.key;
  if (!language) throw new FormatError('arb export needs one language');
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  const doc = new JsonMembers('object');

  /** `"key": text` and, when it has metadata, `"@key": {...}`. */
  const members = (key: BundleKey): string => {
    const t = key.translations[language];
    if (!t || key.key.startsWith('@')) return '';
    // Null prototype: a "__proto__" property from codeDescription stays an ordinary property.
    const meta = Object.create(null) as Record<string, unknown>;
    if (withDescriptions && key.description) meta.description = key.description;
    const extra = metadataOf(key.codeDescription);
    for (const [k, v] of Object.entries(extra)) if (k !== 'description' || meta.description === undefined) meta[k] = v;
    return doc.member(key.key, t.text) + (Object.keys(meta).length ? doc.member(`@${key.key}`, meta) : '');
  };

  return entryWriter({
    header: () => doc.open() + doc.member('@@locale', language),
    entries: (keys) => keys.map(members).join(''),
    footer: () => `${doc.close()}\n`,
  });
}

function metadataOf(codeDescription: string | undefined): Record<string, unknown> {
  if (!codeDescription?.startsWith('{')) return {};
  try {
    const parsed: unknown = JSON.parse(codeDescription);
    return isJsonObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
