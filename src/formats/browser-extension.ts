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
import { isJsonObject, parseJson } from './json-safe.js';
import { FormatError, type Bundle, type BundleKey, type FileFormat } from './model.js';
import { keysForFile, requireLanguageKey, singleLanguage } from './single-language.js';

const ID = 'browser-extension-json';

export const browserExtensionJson: FileFormat = {
  id: ID,
  multiLanguage: false,
  extension: 'json',
  contentType: 'application/json',
  parse: async (input, options): Promise<Bundle> => {
    const language = requireLanguageKey(options, ID);
    const doc = parseJson(input);
    if (!isJsonObject(doc)) throw new FormatError('A messages.json file must hold a JSON object of messages at the top level');
    const keys = Object.entries(doc).map(([name, entry]): BundleKey => {
      if (!isJsonObject(entry)) throw new FormatError(`"${name}" must be an object such as {"message": "text"}`);
      if (typeof entry.message !== 'string') throw new FormatError(`"${name}.message" must be a string`);
      const key: BundleKey = { key: name, namespace: options.namespace ?? '', translations: { [language]: { text: entry.message } } };
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
  serialize: async (bundle, options) => {
    const language = singleLanguage(options, ID);
    // Built as a Map and written member by member: an object would reorder numeric names.
    const parts: string[] = [];
    const written = new Set<string>();
    for (const k of keysForFile(bundle, options)) {
      if (written.has(k.key)) continue; // one message per name: the first namespace's
      written.add(k.key);
      const entry: Record<string, unknown> = { message: k.translations[language]?.text ?? '' };
      if (k.description !== undefined) entry.description = k.description;
      const placeholders = placeholdersOf(k.codeDescription);
      if (placeholders) entry.placeholders = placeholders;
      parts.push(`  ${JSON.stringify(k.key)}: ${JSON.stringify(entry, null, 2).replace(/\n/g, '\n  ')}`);
    }
    return Buffer.from(parts.length ? `{\n${parts.join(',\n')}\n}\n` : '{}\n', 'utf8');
  },
};

function placeholdersOf(codeDescription: string | undefined): Record<string, unknown> | undefined {
  if (!codeDescription?.startsWith('{')) return undefined;
  try {
    const value = parseJson(codeDescription);
    return isJsonObject(value) && Object.values(value).every(isJsonObject) ? value : undefined;
  } catch {
    return undefined;
  }
}
