// Browser extension messages (_locales/<lang>/messages.json, WebExtensions and
// Chrome), one language per file:
//   { "name": { "message": "Hello $USER$", "description": "…",
//               "placeholders": { "user": { "content": "$1", "example": "Ann" } } } }
// - message -> the translation text, kept verbatim ($USER$, $1, $$ stay as they are).
// - description -> the key's description (written back on every export: it is
//   part of the format, not a comment, so INCLUDE_DESCRIPTIONS is not needed).
// - placeholders -> the key's codeDescription, as the compact JSON of the
//   placeholders object, so they survive import -> export unchanged. On export a
//   codeDescription is written back as placeholders only when it is such a JSON
//   object; any other codeDescription is not part of the file.
// - Other properties of a message have no meaning for the browser and are not imported.
// - Messages named like numbers ("10") come first on import (JSON.parse order).
// - Export: a key without a translation gets "message": "" (the field is
//   required). Key names are written as they are; browsers accept only
//   [A-Za-z0-9_@] and ignore case, which the project's keys should respect.
//   No namespaces: a name several namespaces share is written once (the export
//   engine hands over one key per name). Streamed: `{`, a member per key, `}`.
import { defineFormat } from './define.js';
import { entryWriter } from './entry-writer.js';
import { JsonMembers } from './json-object-writer.js';
import { isJsonObject, parseJson } from './json-safe.js';
import {
  FormatError,
  type Bundle,
  type BundleKey,
  type FileFormat,
  type FormatWriter,
  type SerializeOptions,
} from './model.js';
import { requireLanguageKey, singleLanguage } from './single-language.js';

const ID = 'browser-extension-json';

export const browserExtensionJson: FileFormat = defineFormat({
  id: ID,
  multiLanguage: false,
  namespaces: false,
  extension: 'json',
  contentType: 'application/json',
  parse: async (input, options): Promise<Bundle> => {
    const language = requireLanguageKey(options, ID);
    const doc = parseJson(input);
    if (!isJsonObject(doc))
      throw new FormatError('A messages.json file must hold a JSON object of messages at the top level');
    const keys = Object.entries(doc).map(([name, entry]): BundleKey => {
      if (!isJsonObject(entry)) throw new FormatError(`"${name}" must be an object such as {"message": "text"}`);
      if (typeof entry.message !== 'string') throw new FormatError(`"${name}.message" must be a string`);
      const key: BundleKey = {
        key: name,
        namespace: options.namespace ?? '',
        translations: { [language]: { text: entry.message } },
      };
      if (entry.description !== undefined) {
        if (typeof entry.description !== 'string') throw new FormatError(`"${name}.description" must be a string`);
        key.description = entry.description;
      }
      if (entry.placeholders !== undefined) {
        if (!isJsonObject(entry.placeholders)) throw new FormatError(`"${name}.placeholders" must be an object`);
        key.codeDescription = JSON.stringify(entry.placeholders);
      }
      return key;
    });
    return { keys, languages: [{ key: language }] };
  },
  writer,
});

function writer(options: SerializeOptions): FormatWriter {
  const language = singleLanguage(options, ID);
  // Written member by member in the given order: an object would put numeric names first.
  const doc = new JsonMembers('object');
  const message = (k: BundleKey): string => {
    const entry: Record<string, unknown> = { message: k.translations[language]?.text ?? '' };
    if (k.description !== undefined) entry.description = k.description;
    const placeholders = placeholdersOf(k.codeDescription);
    if (placeholders) entry.placeholders = placeholders;
    return doc.member(k.key, entry);
  };
  return entryWriter({
    header: () => doc.open(),
    entries: (keys) => keys.map(message).join(''),
    footer: () => `${doc.close()}\n`,
  });
}

function placeholdersOf(codeDescription: string | undefined): Record<string, unknown> | undefined {
  if (!codeDescription?.startsWith('{')) return undefined;
  try {
    const value = parseJson(codeDescription);
    return isJsonObject(value) && Object.values(value).every(isJsonObject) ? value : undefined;
  } catch {
    return undefined;
  }
}
