// project-backup-json: the service's own lossless JSON, a full backup of a
// project that a restore reads back field for field. (Until the vendor's
// FormatJS-style simplelocalize-json took its identifier, this was
// `simplelocalize-json`; files that say "format": "simplelocalize-json" with
// version 1 are read the same.) Version 1:
//
// {
//   "format": "project-backup-json",
//   "version": 1,
//   "languages": [{ "key": "en", "name"?: "English", "isDefault"?: true }],
//   "keys": [{
//     "key": "home.title",                      non-empty; (namespace, key) unique
//     "namespace"?: "",                         default: the import's namespace, else ""
//     "description"?: "…", "codeDescription"?: "…",
//     "tags"?: ["…"], "charactersLimit"?: 40 | null, "lock"?: false, "deprecated"?: false,
//     "translations"?: { "en": { "text": "…", "reviewStatus"?: "REVIEWED" | "NOT_REVIEWED" } },
//     "customerTranslations"?: { "acme": { "en": { "text": "…", "reviewStatus"?: … } } }
//   }],
//   "customers"?: [{ "key": "acme", "description"?: "…" }]
// }
//
// Parsing is strict: every field's type is checked, unknown fields are refused,
// and languages and customers used by translations must be declared. Errors
// name the JSON path: `keys[3].translations.de.text must be a string`.
// A field absent from the model is absent from the file (and the other way
// round), so parse(serialize(bundle)) equals the bundle exactly. Plurals are
// ICU texts like every other text.
// Export writes the requested languages (translations of other languages are
// left out), the keys of the file's namespace when the export is split, and
// declares every customer that has translations even if the bundle's customer
// list misses it. It is streamed key by key, so "customers" comes after
// "keys" (only the keys tell which customers have overrides); the reader
// takes the members in any order. Files of earlier versions of this service,
// with "customers" before "keys", read the same.
import { defineFormat } from './define.js';
import { entryWriter } from './entry-writer.js';
import { JsonMembers } from './json-object-writer.js';
import { isJsonObject, parseJson } from './json-safe.js';
import {
  FormatError,
  type Bundle,
  type BundleKey,
  type BundleLanguage,
  type BundleTranslation,
  type FormatWriter,
  type ReviewStatus,
  type SerializeOptions,
} from './model.js';

const FORMAT = 'project-backup-json';
/** The name the same document had before; still read. */
const EARLIER_FORMAT = 'simplelocalize-json';
const VERSION = 1;
const REVIEW_STATUSES: readonly ReviewStatus[] = ['REVIEWED', 'NOT_REVIEWED'];

export const projectBackupJson = defineFormat({
  id: FORMAT,
  multiLanguage: true,
  // Every key carries its namespace.
  namespaces: true,
  extension: 'json',
  contentType: 'application/json',
  parse: async (input, options) => readDocument(parseJson(input), options.namespace ?? ''),
  writer,
});

/**
 * format, version and languages (from the options), the keys one by one,
 * then the customers: the declared ones and any other a key has overrides of,
 * which only the keys tell.
 */
function writer(options: SerializeOptions): FormatWriter {
  const languages = new Set(options.languages.map((l) => l.key));
  const customers = [...(options.customers ?? [])];
  const declared = new Set(customers.map((c) => c.key));
  const doc = new JsonMembers('object');
  const keys = new JsonMembers('array', doc.inner);

  const item = (k: BundleKey): string => {
    for (const customer of Object.keys(k.customerTranslations ?? {})) {
      if (!declared.has(customer)) {
        declared.add(customer);
        customers.push({ key: customer });
      }
    }
    return keys.item(writeKey(k, languages));
  };
  const customersMember = (): string =>
    options.customers !== undefined || customers.length
      ? doc.member(
          'customers',
          customers.map((c) => ({ key: c.key, ...(c.description !== undefined && { description: c.description }) })),
        )
      : '';

  return entryWriter({
    header: () =>
      doc.open() +
      doc.member('format', FORMAT) +
      doc.member('version', VERSION) +
      doc.member('languages', options.languages.map(writeLanguage)) +
      doc.name('keys') +
      keys.open(),
    entries: (page) => page.map(item).join(''),
    footer: () => keys.close() + customersMember() + doc.close() + '\n',
  });
}

function writeLanguage(l: BundleLanguage): BundleLanguage {
  return {
    key: l.key,
    ...(l.name !== undefined && { name: l.name }),
    ...(l.isDefault !== undefined && { isDefault: l.isDefault }),
  };
}

function writeTranslations(
  translations: Record<string, BundleTranslation>,
  languages: Set<string>,
): Record<string, BundleTranslation> {
  const out: Record<string, BundleTranslation> = {};
  for (const [lang, t] of Object.entries(translations)) {
    if (languages.has(lang))
      out[lang] = { text: t.text, ...(t.reviewStatus !== undefined && { reviewStatus: t.reviewStatus }) };
  }
  return out;
}

function writeKey(k: BundleKey, languages: Set<string>): BundleKey {
  const out: BundleKey = { key: k.key, namespace: k.namespace } as BundleKey;
  if (k.description !== undefined) out.description = k.description;
  if (k.codeDescription !== undefined) out.codeDescription = k.codeDescription;
  if (k.tags !== undefined) out.tags = [...k.tags];
  if (k.charactersLimit !== undefined) out.charactersLimit = k.charactersLimit;
  if (k.lock !== undefined) out.lock = k.lock;
  if (k.deprecated !== undefined) out.deprecated = k.deprecated;
  out.translations = writeTranslations(k.translations, languages);
  if (k.customerTranslations !== undefined) {
    out.customerTranslations = {};
    for (const [customer, translations] of Object.entries(k.customerTranslations))
      out.customerTranslations[customer] = writeTranslations(translations, languages);
  }
  return out;
}

// ---- strict reading ----

const fail = (message: string): never => {
  throw new FormatError(`Invalid ${FORMAT}: ${message}`);
};

/** `keys[3].translations.de` — map keys that are not plain words are quoted. */
const member = (path: string, name: string) =>
  /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) ? (path ? `${path}.${name}` : name) : `${path}[${JSON.stringify(name)}]`;

function object(v: unknown, path: string, fields?: readonly string[]): Record<string, unknown> {
  if (!isJsonObject(v)) return fail(`${path || 'the file'} must be an object`);
  if (fields)
    for (const name of Object.keys(v))
      if (!fields.includes(name))
        fail(`${member(path, name)} is not a known field (expected one of: ${fields.join(', ')})`);
  return v;
}

function array(v: unknown, path: string): unknown[] {
  return Array.isArray(v) ? v : fail(`${path} must be an array`);
}

function string(v: unknown, path: string, nonEmpty = false): string {
  if (typeof v !== 'string') return fail(`${path} must be a string`);
  if (nonEmpty && v === '') fail(`${path} must not be empty`);
  return v;
}

function boolean(v: unknown, path: string): boolean {
  return typeof v === 'boolean' ? v : fail(`${path} must be true or false`);
}

/** A language or customer key: used as a property name, so `__proto__` is refused. */
function identifier(v: unknown, path: string): string {
  const key = string(v, path, true);
  if (key === '__proto__') fail(`${path} must not be "__proto__"`);
  return key;
}

function readDocument(doc: unknown, defaultNamespace: string): Bundle {
  const root = object(doc, '', ['format', 'version', 'languages', 'customers', 'keys']);
  if (root.format !== FORMAT && root.format !== EARLIER_FORMAT) fail(`format must be "${FORMAT}"`);
  if (root.version !== VERSION) fail(`version must be ${VERSION} (this service reads version ${VERSION})`);

  const languages = array(root.languages, 'languages').map((item, i): BundleLanguage => {
    const path = `languages[${i}]`;
    const l = object(item, path, ['key', 'name', 'isDefault']);
    const out: BundleLanguage = { key: identifier(l.key, `${path}.key`) };
    if (l.name !== undefined) out.name = string(l.name, `${path}.name`);
    if (l.isDefault !== undefined) out.isDefault = boolean(l.isDefault, `${path}.isDefault`);
    return out;
  });
  const languageKeys = unique(
    languages.map((l) => l.key),
    'languages',
    'language',
  );

  let customers: Bundle['customers'];
  if (root.customers !== undefined) {
    customers = array(root.customers, 'customers').map((item, i) => {
      const path = `customers[${i}]`;
      const c = object(item, path, ['key', 'description']);
      const out: { key: string; description?: string } = { key: identifier(c.key, `${path}.key`) };
      if (c.description !== undefined) out.description = string(c.description, `${path}.description`);
      return out;
    });
  }
  const customerKeys = unique(
    (customers ?? []).map((c) => c.key),
    'customers',
    'customer',
  );

  const seen = new Set<string>();
  const keys = array(root.keys, 'keys').map((item, i): BundleKey => {
    const path = `keys[${i}]`;
    const k = object(item, path, [
      'key',
      'namespace',
      'description',
      'codeDescription',
      'tags',
      'charactersLimit',
      'lock',
      'deprecated',
      'translations',
      'customerTranslations',
    ]);
    const out: BundleKey = {
      key: string(k.key, `${path}.key`, true),
      namespace: k.namespace === undefined ? defaultNamespace : string(k.namespace, `${path}.namespace`),
      translations: {},
    };
    const id = JSON.stringify([out.namespace, out.key]);
    if (seen.has(id)) fail(`${path}: the key "${out.key}" appears twice in namespace "${out.namespace}"`);
    seen.add(id);
    if (k.description !== undefined) out.description = string(k.description, `${path}.description`);
    if (k.codeDescription !== undefined) out.codeDescription = string(k.codeDescription, `${path}.codeDescription`);
    if (k.tags !== undefined) out.tags = array(k.tags, `${path}.tags`).map((t, j) => string(t, `${path}.tags[${j}]`));
    if (k.charactersLimit !== undefined) {
      const limit = k.charactersLimit;
      if (limit !== null && !(Number.isSafeInteger(limit) && (limit as number) >= 0))
        fail(`${path}.charactersLimit must be a whole number of 0 or more, or null`);
      out.charactersLimit = limit as number | null;
    }
    if (k.lock !== undefined) out.lock = boolean(k.lock, `${path}.lock`);
    if (k.deprecated !== undefined) out.deprecated = boolean(k.deprecated, `${path}.deprecated`);
    if (k.translations !== undefined)
      out.translations = readTranslations(k.translations, `${path}.translations`, languageKeys);
    if (k.customerTranslations !== undefined) {
      const byCustomer = object(k.customerTranslations, `${path}.customerTranslations`);
      out.customerTranslations = {};
      for (const [customer, translations] of Object.entries(byCustomer)) {
        const customerPath = member(`${path}.customerTranslations`, customer);
        if (!customerKeys.has(customer)) fail(`${customerPath}: customer "${customer}" is not declared in customers`);
        out.customerTranslations[customer] = readTranslations(translations, customerPath, languageKeys);
      }
    }
    return out;
  });

  return customers === undefined ? { keys, languages } : { keys, languages, customers };
}

function unique(keys: string[], path: string, what: string): Set<string> {
  const set = new Set<string>();
  keys.forEach((key, i) => {
    if (set.has(key)) fail(`${path}[${i}].key: the ${what} "${key}" is declared twice`);
    set.add(key);
  });
  return set;
}

function readTranslations(v: unknown, path: string, languages: Set<string>): Record<string, BundleTranslation> {
  const out: Record<string, BundleTranslation> = {};
  for (const [lang, item] of Object.entries(object(v, path))) {
    const langPath = member(path, lang);
    if (!languages.has(lang)) fail(`${langPath}: language "${lang}" is not declared in languages`);
    const t = object(item, langPath, ['text', 'reviewStatus']);
    const translation: BundleTranslation = { text: string(t.text, `${langPath}.text`) };
    if (t.reviewStatus !== undefined) {
      if (!REVIEW_STATUSES.includes(t.reviewStatus as ReviewStatus))
        fail(`${langPath}.reviewStatus must be one of ${REVIEW_STATUSES.join(', ')}`);
      translation.reviewStatus = t.reviewStatus as ReviewStatus;
    }
    out[lang] = translation;
  }
  return out;
}
