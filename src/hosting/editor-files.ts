// The files of a publication taken from the editor (the database), read
// set-based: a few metadata queries, then per language one query for its base
// translations and one for its customer overrides. Languages are produced one
// at a time, so memory holds one language's rows plus the serialized files
// that `_index` files are assembled from.
//
// JSON shapes (docs/hosting.md): a language file has the keys of the default
// namespace at the top level and one object per named namespace; empty
// translations are left out so apps fall back to another language. Keys and
// namespaces are sorted by code point, so unchanged content gives identical
// bytes (and ETags) across publications.
import { prisma, type Db } from '../db.js';
import { paths } from './layout.js';

export interface BuiltFile {
  path: string;
  language?: string;
  namespace?: string;
  customer?: string;
  json: string;
}

export interface EditorSnapshot {
  numberOfKeys: number;
  numberOfLanguages: number;
  numberOfNonEmptyTranslations: () => number;
  /** Number of files `files` yields. */
  total: number;
  files: AsyncGenerator<BuiltFile>;
}

type Texts = Record<string, string>;

interface Language { id: number; key: string; name: string; isDefault: boolean }
interface Customer { id: number; key: string; description: string }

/** A language's texts: default namespace ('') and named namespaces, each key → text. */
type LanguageTexts = Map<string, Texts>;

const dict = (): Texts => Object.create(null) as Texts;

function languageObject(texts: LanguageTexts, namespaces: string[]): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  Object.assign(out, texts.get('') ?? {});
  // A default-namespace key named like a namespace is shadowed by the namespace (documented).
  for (const ns of namespaces) out[ns] = texts.get(ns) ?? {};
  return out;
}

function mergeOverrides(base: LanguageTexts, overrides: { namespace: string; key: string; text: string }[]): LanguageTexts {
  const merged: LanguageTexts = new Map();
  for (const [ns, texts] of base) merged.set(ns, Object.assign(dict(), texts));
  for (const o of overrides) {
    let texts = merged.get(o.namespace);
    if (!texts) merged.set(o.namespace, (texts = dict()));
    texts[o.key] = o.text;
  }
  // Keep code-point order after adding keys the base did not have.
  for (const [ns, texts] of merged) merged.set(ns, Object.assign(dict(), Object.fromEntries(Object.entries(texts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))));
  return merged;
}

/** `{"en": <file>, "de": <file>}` from already serialized language files. */
function indexJson(languages: Language[], files: Map<string, string>): string {
  return `{${languages.map((l) => `${JSON.stringify(l.key)}:${files.get(l.key)}`).join(',')}}`;
}

export async function editorSnapshot(projectId: number, db: Pick<Db, '$queryRawUnsafe'> = prisma()): Promise<EditorSnapshot> {
  const languages = await db.$queryRawUnsafe<Language[]>(
    `SELECT id, key, name, "isDefault" FROM "Language" WHERE "projectId" = $1 ORDER BY "order", key COLLATE "C"`, projectId,
  );
  const customers = await db.$queryRawUnsafe<Customer[]>(
    `SELECT id, key, description FROM "Customer" WHERE "projectId" = $1 ORDER BY key COLLATE "C"`, projectId,
  );
  const [meta] = await db.$queryRawUnsafe<{ keys: number; namespaces: string[] }[]>(
    `SELECT count(*)::int AS keys,
            coalesce(array_agg(DISTINCT namespace ORDER BY namespace) FILTER (WHERE namespace <> ''), '{}') AS namespaces
       FROM "TranslationKey" WHERE "projectId" = $1`,
    projectId,
  );
  const namespaces = [...meta!.namespaces].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const L = languages.length;
  const C = customers.length;
  let nonEmpty = 0;

  async function* files(): AsyncGenerator<BuiltFile> {
    yield { path: paths.languages(), json: JSON.stringify(languages.map((l) => ({ key: l.key, name: l.name, isDefault: l.isDefault }))) };
    yield { path: paths.customers(), json: JSON.stringify(customers.map((c) => ({ key: c.key, description: c.description }))) };
    const languageFiles = new Map<string, string>();
    const customerFiles = new Map<string, Map<string, string>>(customers.map((c) => [c.key, new Map()]));
    for (const language of languages) {
      const rows = await db.$queryRawUnsafe<{ namespace: string; key: string; text: string }[]>(
        `SELECT k.namespace, k.key, t.text FROM "Translation" t JOIN "TranslationKey" k ON k.id = t."keyId"
          WHERE t."projectId" = $1 AND t."languageId" = $2 AND t.text <> ''
          ORDER BY k.namespace COLLATE "C", k.key COLLATE "C"`,
        projectId, language.id,
      );
      nonEmpty += rows.length;
      const texts: LanguageTexts = new Map();
      for (const r of rows) {
        let ns = texts.get(r.namespace);
        if (!ns) texts.set(r.namespace, (ns = dict()));
        ns[r.key] = r.text;
      }
      const json = JSON.stringify(languageObject(texts, namespaces));
      languageFiles.set(language.key, json);
      yield { path: paths.language(language.key), language: language.key, json };
      for (const ns of namespaces) {
        yield { path: paths.namespace(language.key, ns), language: language.key, namespace: ns, json: JSON.stringify(texts.get(ns) ?? {}) };
      }
      if (C === 0) continue;
      const overrides = await db.$queryRawUnsafe<{ customer: number; namespace: string; key: string; text: string }[]>(
        `SELECT ct."customerId" AS customer, k.namespace, k.key, ct.text
           FROM "CustomerTranslation" ct JOIN "TranslationKey" k ON k.id = ct."keyId"
          WHERE ct."projectId" = $1 AND ct."languageId" = $2 AND ct.text <> ''
          ORDER BY ct."customerId"`,
        projectId, language.id,
      );
      const byCustomer = new Map<number, typeof overrides>();
      for (const o of overrides) {
        let list = byCustomer.get(o.customer);
        if (!list) byCustomer.set(o.customer, (list = []));
        list.push(o);
      }
      for (const customer of customers) {
        const own = byCustomer.get(customer.id);
        // Without overrides the customer's file is the base file (same string, no extra memory).
        const customerJson = own ? JSON.stringify(languageObject(mergeOverrides(texts, own), namespaces)) : json;
        customerFiles.get(customer.key)!.set(language.key, customerJson);
        yield { path: paths.customerLanguage(language.key, customer.key), language: language.key, customer: customer.key, json: customerJson };
      }
    }
    yield { path: paths.index(), json: indexJson(languages, languageFiles) };
    for (const customer of customers) {
      yield { path: paths.customerIndex(customer.key), customer: customer.key, json: indexJson(languages, customerFiles.get(customer.key)!) };
    }
  }

  return {
    numberOfKeys: meta!.keys,
    numberOfLanguages: L,
    numberOfNonEmptyTranslations: () => nonEmpty,
    total: 3 + L + L * namespaces.length + C + L * C,
    files: files(),
  };
}
