// The files of a publication taken from the editor (the database), read
// set-based: a few metadata queries, then per language one query for its base
// translations and one for its customer overrides. Languages are produced one
// at a time (the next one's query runs while the current one's files are
// written), so memory holds one language's rows plus the files that `_index`
// files are assembled from.
//
// JSON shapes (docs/hosting.md): a language file has the keys of the default
// namespace at the top level and one object per named namespace; empty
// translations are left out so apps fall back to another language. Keys and
// namespaces are sorted by code point, so unchanged content gives identical
// bytes (and ETags) across publications.
//
// The bytes are those of JSON.stringify on objects built key by key (as the
// service always wrote them), but the database renders each namespace's
// members (PostgreSQL's to_json of a text is JSON.stringify's string, escapes
// included), in the order such an object enumerates its names: array-index
// names ("0", "42") first by value, then the others in insertion (code-point)
// order. That costs the database less than sending the rows, and this process
// next to nothing. A language file is then its default namespace's members and
// the namespace files themselves, and `_index` the language files
// (FileContent), which the writer uses to compress shared parts once
// (gzip-parts.ts).
import { prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { paths } from './layout.js';

/**
 * A file's JSON: its bytes, or the bytes and earlier files it is made of, in
 * order (a file standing for its own content).
 */
export type FileContent = Buffer | readonly (Buffer | BuiltFile)[];

export interface BuiltFile {
  path: string;
  language?: string;
  namespace?: string;
  customer?: string;
  content: FileContent;
}

export interface EditorSnapshot {
  numberOfKeys: number;
  numberOfLanguages: number;
  numberOfNonEmptyTranslations: () => number;
  /** Number of files `files` yields. */
  total: number;
  files: AsyncGenerator<BuiltFile>;
}

/** The pieces of bytes a content is made of, in order. */
export function contentLeaves(content: FileContent): Buffer[] {
  return Buffer.isBuffer(content)
    ? [content]
    : content.flatMap((piece) => (Buffer.isBuffer(piece) ? [piece] : contentLeaves(piece.content)));
}

type Texts = Record<string, string>;

interface Language {
  id: number;
  key: string;
  name: string;
  isDefault: boolean;
}
interface Customer {
  id: number;
  key: string;
  description: string;
}

/** A language's texts: default namespace ('') and named namespaces, each key → text. */
type LanguageTexts = Map<string, Texts>;

const dict = (): Texts => Object.create(null) as Texts;

/** A name JavaScript objects enumerate before the others, by value (an array index, below 2^32 − 1). */
const isArrayIndex = (name: string) => /^(0|[1-9][0-9]{0,9})$/.test(name) && Number(name) < 2 ** 32 - 1;

/** That order in SQL; the array-index part only for projects that have such a key (nested CASE: the cast runs only on digits). */
const INDEX_ORDER = Prisma.sql`CASE WHEN k.key ~ '^(0|[1-9][0-9]{0,9})$' THEN CASE WHEN k.key::bigint < 4294967295 THEN k.key::bigint END END, `;
const memberOrder = (indexKeys: boolean) => Prisma.sql`${indexKeys ? INDEX_ORDER : Prisma.empty}k.key COLLATE "C"`;

function languageObject(texts: LanguageTexts, namespaces: string[]): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  Object.assign(out, texts.get('') ?? {});
  // A default-namespace key named like a namespace is shadowed by the namespace (documented).
  for (const ns of namespaces) out[ns] = texts.get(ns) ?? {};
  return out;
}

function mergeOverrides(
  base: LanguageTexts,
  overrides: { namespace: string; key: string; text: string }[],
): LanguageTexts {
  const merged: LanguageTexts = new Map();
  for (const [ns, texts] of base) merged.set(ns, Object.assign(dict(), texts));
  for (const o of overrides) {
    let texts = merged.get(o.namespace);
    if (!texts) merged.set(o.namespace, (texts = dict()));
    texts[o.key] = o.text;
  }
  // Keep code-point order after adding keys the base did not have.
  for (const [ns, texts] of merged)
    merged.set(
      ns,
      Object.assign(dict(), Object.fromEntries(Object.entries(texts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))),
    );
  return merged;
}

/** `{"en": <file>, "de": <file>}` of language files. */
function indexContent(languages: Language[], files: Map<string, BuiltFile>): FileContent {
  if (languages.length === 0) return Buffer.from('{}');
  return [
    ...languages.flatMap((l, i) => [Buffer.from(`${i === 0 ? '{' : ','}${JSON.stringify(l.key)}:`), files.get(l.key)!]),
    Buffer.from('}'),
  ];
}

/**
 * A language file from its default namespace's members and its namespace
 * files: `{<members>,"ns":<file>,…}`, what JSON.stringify(languageObject)
 * gives when no namespace is named like a default-namespace key or an array
 * index (the caller checks).
 */
function languageContent(defaultMembers: string | undefined, namespaceFiles: BuiltFile[]): FileContent {
  if (namespaceFiles.length === 0) return Buffer.from(`{${defaultMembers ?? ''}}`);
  let text = `{${defaultMembers ?? ''}`;
  const pieces: (Buffer | BuiltFile)[] = [];
  namespaceFiles.forEach((file, i) => {
    pieces.push(
      Buffer.from(`${text}${i > 0 || defaultMembers !== undefined ? ',' : ''}${JSON.stringify(file.namespace)}:`),
      file,
    );
    text = '';
  });
  pieces.push(Buffer.from('}'));
  return pieces;
}

export async function editorSnapshot(projectId: number, db: Pick<Db, '$queryRaw'> = prisma()): Promise<EditorSnapshot> {
  const languages = await db.$queryRaw<Language[]>(Prisma.sql`/* hosting:snapshot-languages */
    SELECT id, key, name, "isDefault" FROM "Language" WHERE "projectId" = ${projectId} ORDER BY "order", key COLLATE "C"`);
  const customers = await db.$queryRaw<Customer[]>(Prisma.sql`/* hosting:snapshot-customers */
    SELECT id, key, description FROM "Customer" WHERE "projectId" = ${projectId} ORDER BY key COLLATE "C"`);
  const [meta] = await db.$queryRaw<
    { keys: number; namespaces: string[]; indexKeys: boolean }[]
  >(Prisma.sql`/* hosting:snapshot-keys */
    SELECT count(*)::int AS keys,
            coalesce(array_agg(DISTINCT namespace ORDER BY namespace) FILTER (WHERE namespace <> ''), '{}') AS namespaces,
            coalesce(bool_or(key ~ '^(0|[1-9][0-9]{0,9})$'), false) AS "indexKeys"
       FROM "TranslationKey" WHERE "projectId" = ${projectId}`);
  const namespaces = [...meta!.namespaces].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // A namespace that a language object would not simply append after the default namespace's keys.
  const [{ shadowed }] = await db.$queryRaw<{ shadowed: boolean }[]>(Prisma.sql`/* hosting:snapshot-shadowed */
    SELECT EXISTS (SELECT 1 FROM "TranslationKey" WHERE "projectId" = ${projectId} AND namespace = '' AND key = ANY(${namespaces}::text[])) AS shadowed`);
  const composed = !shadowed && !namespaces.some(isArrayIndex);
  const L = languages.length;
  const C = customers.length;
  let nonEmpty = 0;

  const readLanguage = (language: Language) =>
    db.$queryRaw<{ namespace: string; texts: number; members: string }[]>(Prisma.sql`/* hosting:snapshot-language */
    SELECT k.namespace, count(*)::int AS texts,
            string_agg(to_json(k.key)::text || ':' || to_json(t.text)::text, ',' ORDER BY ${memberOrder(meta!.indexKeys)}) AS members
       FROM "Translation" t JOIN "TranslationKey" k ON k.id = t."keyId"
      WHERE t."projectId" = ${projectId} AND t."languageId" = ${language.id} AND t.text <> ''
      GROUP BY k.namespace`);

  async function* files(): AsyncGenerator<BuiltFile> {
    yield {
      path: paths.languages(),
      content: Buffer.from(
        JSON.stringify(languages.map((l) => ({ key: l.key, name: l.name, isDefault: l.isDefault }))),
      ),
    };
    yield {
      path: paths.customers(),
      content: Buffer.from(JSON.stringify(customers.map((c) => ({ key: c.key, description: c.description })))),
    };
    const languageFiles = new Map<string, BuiltFile>();
    const customerFiles = new Map<string, Map<string, BuiltFile>>(customers.map((c) => [c.key, new Map()]));
    let next = L > 0 ? readLanguage(languages[0]!) : undefined;
    for (let i = 0; i < L; i++) {
      const language = languages[i]!;
      const rows = await next!;
      next = i + 1 < L ? readLanguage(languages[i + 1]!) : undefined;
      // Awaited on the next turn; a publication that stops early leaves it to settle unobserved.
      next?.catch(() => undefined);
      const members = new Map(rows.map((r) => [r.namespace, r.members]));
      for (const r of rows) nonEmpty += r.texts;
      // The language's texts as objects, for what the members alone cannot give (shadowing, customers' overrides).
      let parsed: LanguageTexts | undefined;
      const texts = (): LanguageTexts =>
        (parsed ??= new Map(
          rows.map((r) => [r.namespace, Object.assign(dict(), JSON.parse(`{${r.members}}`) as Texts)]),
        ));
      const namespaceFiles = namespaces.map((ns): BuiltFile => ({
        path: paths.namespace(language.key, ns),
        language: language.key,
        namespace: ns,
        content: Buffer.from(`{${members.get(ns) ?? ''}}`),
      }));
      const content = composed
        ? languageContent(members.get(''), namespaceFiles)
        : Buffer.from(JSON.stringify(languageObject(texts(), namespaces)));
      const file: BuiltFile = { path: paths.language(language.key), language: language.key, content };
      languageFiles.set(language.key, file);
      yield file;
      yield* namespaceFiles;
      if (C === 0) continue;
      const overrides = await db.$queryRaw<
        { customer: number; namespace: string; key: string; text: string }[]
      >(Prisma.sql`/* hosting:snapshot-overrides */
        SELECT ct."customerId" AS customer, k.namespace, k.key, ct.text
           FROM "CustomerTranslation" ct JOIN "TranslationKey" k ON k.id = ct."keyId"
          WHERE ct."projectId" = ${projectId} AND ct."languageId" = ${language.id} AND ct.text <> ''
          ORDER BY ct."customerId"`);
      const byCustomer = new Map<number, typeof overrides>();
      for (const o of overrides) {
        let list = byCustomer.get(o.customer);
        if (!list) byCustomer.set(o.customer, (list = []));
        list.push(o);
      }
      for (const customer of customers) {
        const own = byCustomer.get(customer.id);
        // Without overrides the customer's file is the base file (same content, no extra memory).
        const customerFile: BuiltFile = {
          path: paths.customerLanguage(language.key, customer.key),
          language: language.key,
          customer: customer.key,
          content: own
            ? Buffer.from(JSON.stringify(languageObject(mergeOverrides(texts(), own), namespaces)))
            : content,
        };
        customerFiles.get(customer.key)!.set(language.key, customerFile);
        yield customerFile;
      }
    }
    yield { path: paths.index(), content: indexContent(languages, languageFiles) };
    for (const customer of customers) {
      yield {
        path: paths.customerIndex(customer.key),
        customer: customer.key,
        content: indexContent(languages, customerFiles.get(customer.key)!),
      };
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
