// GET /api/v4/export, /api/v3/export and the exportTranslations mutation: the
// project's keys in one or several files of a format, stored for download
// (export-files.ts). Exports stream: the keys are read page by page
// (export-read.ts), once per namespace of a split export, each page feeding
// the writer of every file (FormatWriter, src/formats/model.ts), whose output
// goes to a temp file under DATA_DIR/tmp (export-sink.ts). Memory follows the
// page, not the project. Nested formats get their keys in path order (export-order.ts);
// formats that group by namespace get them namespace by namespace.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';
import { prisma } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { badRequest } from '../errors.js';
import { FormatError, type BundleKey, type SerializeOptions } from '../formats/model.js';
import { parseIcuPlural } from '../formats/plural.js';
import { holdsSeveralLanguages, type RegisteredFormat } from '../formats/registry.js';
import { customerIdOf } from '../content/customers.js';
import { purgeExpiredExports, storeExportFile, type ExportedFile } from './export-files.js';
import { dropPathOrder, preparePathOrder, sweepPathOrders } from './export-order.js';
import {
  keyFilterConditions,
  readKeyPages,
  type ExportLanguage,
  type ExportScope,
  type KeyFilter,
} from './export-read.js';
import { FileSink, tempFilePath, type WrittenFile } from './export-sink.js';
import { DEFAULT_EXPORT_SORT, formatOf, serializerOptions, type ExportOption, type ExportSort } from './options.js';
import { DEFAULT_NAMESPACE_FILE_NAME } from './file-names.js';
import { contentChangedAt, openChange } from '../content/changes.js';

export interface ExportRequest {
  projectId: number;
  downloadFormat: string;
  options: readonly ExportOption[];
  /** Restricts the languages (SELECTED_LANGUAGES); in project order. */
  languageKeys?: readonly string[] | null;
  /** The key of a customer whose overrides are merged over the base texts. */
  customerKey?: string | null;
  sort?: ExportSort | null;
  /** Only the keys of this namespace (the CLI's `namespace`). */
  namespace?: string | null;
  /** Only the keys with at least one of these tags (the CLI's `tags`). */
  tags?: readonly string[] | null;
  /** Deprecated v3: several files are zipped into one. */
  singleFile?: boolean;
  /** Besides the files, the same files zipped into one when there are several (the console's "download all"). */
  withZip?: boolean;
  config: Pick<Config, 'dataDir' | 'publicUrl' | 'exportTtlSeconds' | 'storage'>;
}

/** One file to write: its languages and, when split, its namespace. */
interface PlannedFile {
  languages: ExportLanguage[];
  /** Set when the file is one language's (single-language or split by language). */
  language?: string;
  namespace?: string;
  /** SPLIT_BY_CUSTOMERS: the customer whose texts, merged over the base, the file holds. */
  customer?: { id: number; key: string };
}

async function projectLanguages(projectId: number, keys: readonly string[] | null): Promise<ExportLanguage[]> {
  const all = await prisma().language.findMany({
    where: { projectId },
    orderBy: [{ order: 'asc' }, { id: 'asc' }],
    select: { id: true, key: true, name: true, isDefault: true },
  });
  if (!keys) return all;
  const unknown = keys.filter((k) => !all.some((l) => l.key === k));
  if (unknown.length) throw badRequest(`The project has no language ${unknown.map((k) => `'${k}'`).join(', ')}`);
  return all.filter((l) => keys.includes(l.key));
}

async function projectNamespaces(projectId: number): Promise<string[]> {
  const rows = await prisma().$queryRaw<{ namespace: string }[]>(
    Prisma.sql`/* export:namespaces */ SELECT DISTINCT namespace FROM "TranslationKey" WHERE "projectId" = ${projectId} ORDER BY namespace`,
  );
  return rows.map((r) => r.namespace);
}

function planFiles(
  format: RegisteredFormat,
  languages: ExportLanguage[],
  allLanguages: ExportLanguage[],
  options: ReadonlySet<ExportOption>,
): PlannedFile[] {
  if (format.bilingual) {
    // The source is the project's default language, the target each other language.
    const source = allLanguages.find((l) => l.isDefault) ?? allLanguages[0];
    if (!source) return [];
    const targets = languages.filter((l) => l.id !== source.id);
    if (targets.length === 0) return languages.length ? [{ languages: [source], language: source.key }] : [];
    return targets.map((t) => ({ languages: [source, t], language: t.key }));
  }
  if (!holdsSeveralLanguages(format, options) || options.has('SPLIT_BY_LANGUAGES'))
    return languages.map((l) => ({ languages: [l], language: l.key }));
  return [{ languages }];
}

const sanitize = (name: string) => name.replace(/[^\p{L}\p{N}._-]+/gu, '_').replace(/^\.+/, '_') || '_';

/**
 * A file's name in a download, `[<customer>_][<namespace>_]<language>.<ext>`
 * (the vendor's `<namespace>_<language>`), and its path inside a zip
 * (customer and namespace folders).
 */
function namesOf(file: PlannedFile, extension: string): { fileName: string; zipPath: string } {
  const folders: string[] = [];
  if (file.customer !== undefined) folders.push(sanitize(file.customer.key));
  if (file.namespace !== undefined)
    folders.push(file.namespace === '' ? DEFAULT_NAMESPACE_FILE_NAME : sanitize(file.namespace));
  const language = file.language !== undefined ? sanitize(file.language) : undefined;
  const fileName = [...folders, ...(language !== undefined ? [language] : [])].join('_') || 'translations';
  return {
    fileName: `${fileName}.${extension}`,
    zipPath: [...folders, language ?? 'translations'].join('/') + `.${extension}`,
  };
}

/** The file path recorded (INCLUDE_FILE_PATH) on the keys of a file's scope, when they all have the same one. */
async function remotePathOf(
  projectId: number,
  namespace: string | undefined,
  filter: KeyFilter,
): Promise<string | undefined> {
  const where = [
    Prisma.sql`k."projectId" = ${projectId}`,
    ...(namespace !== undefined ? [Prisma.sql`k.namespace = ${namespace}`] : []),
    ...keyFilterConditions('k', filter),
  ];
  const rows = await prisma().$queryRaw<{ filePath: string }[]>(
    Prisma.sql`/* export:file-path */ SELECT DISTINCT k."filePath" FROM "TranslationKey" k WHERE ${Prisma.join(where, ' AND ')} LIMIT 2`,
  );
  return rows.length === 1 && rows[0]!.filePath !== '' ? rows[0]!.filePath : undefined;
}

type Filter = 'all' | 'translated' | 'not-translated';

/** ONLY_TRANSLATED: a text in at least one language of the file; ONLY_NOT_TRANSLATED: one missing. */
function keep(key: BundleKey, languages: ExportLanguage[], filter: Filter): boolean {
  if (filter === 'all') return true;
  return filter === 'translated'
    ? languages.some((l) => key.translations[l.key])
    : languages.some((l) => !key.translations[l.key]);
}

function pick<T>(byLanguage: Record<string, T>, languages: ExportLanguage[]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const l of languages) if (byLanguage[l.key]) out[l.key] = byLanguage[l.key]!;
  return out;
}

/** The languages in which a key's text is a plural, found once per key read (each file of an export asks). */
const pluralLanguages = new WeakMap<BundleKey, string[]>();
function pluralLanguagesOf(key: BundleKey): string[] {
  let found = pluralLanguages.get(key);
  if (!found) {
    found = Object.entries(key.translations)
      .filter(([, t]) => parseIcuPlural(t.text) !== null)
      .map(([language]) => language);
    pluralLanguages.set(key, found);
  }
  return found;
}

/**
 * The key as one file holds it: only the file's languages. With `pluralShape`
 * (RegisteredFormat.pluralShapeOfUntranslated), a key the file has no text of
 * says whether it is a plural in a language left out.
 */
function forFile(key: BundleKey, languages: ExportLanguage[], all: boolean, pluralShape: boolean): BundleKey {
  if (all) return key;
  const copy: BundleKey = { ...key, translations: pick(key.translations, languages) };
  if (pluralShape && languages.some((l) => !key.translations[l.key]?.text)) {
    copy.pluralElsewhere = pluralLanguagesOf(key).some((language) => !languages.some((l) => l.key === language));
  }
  if (key.customerTranslations) {
    copy.customerTranslations = Object.fromEntries(
      Object.entries(key.customerTranslations).map(([c, t]) => [c, pick(t, languages)]),
    );
  }
  return copy;
}

interface FileContext {
  format: RegisteredFormat;
  options: ReadonlySet<ExportOption>;
  customers: { key: string; description?: string }[] | undefined;
  /** The namespaces of the project (an unsplit file's keys come from them). */
  namespaces: string[];
  /** How many languages the project has (an export of all of them reads the texts without a language condition). */
  projectLanguages: number;
  /** The project's default language (read for pluralShapeOfUntranslated). */
  defaultLanguage: ExportLanguage | undefined;
  /** The temp folder of the export's files. */
  dir: string;
  /** When the project's content last changed (a file's revision date). */
  revisedAt: Date;
}

type GroupScope = Omit<ExportScope, 'languages' | 'namespace' | 'oneKeyPerName' | 'pathOrderRun'>;

/** One file being written: its writer and the temp file behind it. */
class FileWriter {
  private readonly writer;
  private readonly sink: FileSink;
  constructor(
    readonly file: PlannedFile,
    readonly options: SerializeOptions,
    context: FileContext,
    index: number,
  ) {
    this.writer = context.format.format.writer(options);
    this.sink = new FileSink(tempFilePath(context.dir, index));
  }

  async add(keys: BundleKey[]): Promise<void> {
    await this.sink.add(await this.writer.write(keys));
  }

  async finish(): Promise<WrittenFile> {
    await this.sink.add(await this.writer.end());
    return this.sink.finish();
  }

  abort(): void {
    this.sink.abort();
  }
}

/**
 * Writes the files of one namespace scope (or of the whole export) from a
 * single pass over the keys: each page is read once, in the languages of all
 * the files (and the default language, for pluralShapeOfUntranslated), and
 * handed to each file in its own languages.
 */
async function writeGroup(
  files: PlannedFile[],
  scope: GroupScope,
  context: FileContext,
  filter: Filter,
  firstIndex: number,
): Promise<WrittenFile[]> {
  const inFiles = [...new Map(files.flatMap((f) => f.languages).map((l) => [l.id, l])).values()];
  // An untranslated message keeps its key's plural shape (PO, Qt): the default language is read for it too.
  const pluralShape = context.format.pluralShapeOfUntranslated === true;
  const hint = pluralShape ? context.defaultLanguage : undefined;
  const languages = hint && !inFiles.some((l) => l.id === hint.id) ? [...inFiles, hint] : inFiles;
  const { format } = context.format;
  const namespace = files[0]!.namespace;
  const writers = files.map((f, i) => {
    const options: SerializeOptions = {
      languages: f.languages.map((l) => ({ key: l.key, name: l.name, isDefault: l.isDefault })),
      options: serializerOptions(context.options),
      namespace,
      namespacesInFile: namespace === undefined ? context.namespaces : [namespace],
      ...(context.customers && { customers: context.customers }),
      revisedAt: context.revisedAt,
    };
    return new FileWriter(f, options, context, firstIndex + i);
  });
  // Only a project with several namespaces can have two keys of one name.
  const oneKeyPerName = !format.namespaces && namespace === undefined && context.namespaces.length > 1;
  const base: ExportScope = {
    ...scope,
    languages,
    everyLanguage: languages.length === context.projectLanguages,
    namespace,
    oneKeyPerName,
  };
  const order = format.keyOrder?.(writers[0]!.options);
  let run: string | undefined;
  try {
    // Each pass reads the keys in the order the writers need.
    const passes: ExportScope[] =
      order === 'namespace' && namespace === undefined
        ? context.namespaces.map((ns) => ({ ...base, namespace: ns }))
        : [base];
    if (order === 'path') {
      run = await preparePathOrder(prisma(), {
        projectId: scope.projectId,
        namespace,
        oneKeyPerName: base.oneKeyPerName,
        filter: scope.filter,
      });
      passes[0] = { ...base, pathOrderRun: run };
    }
    for (const pass of passes) {
      for await (const page of readKeyPages(prisma(), pass)) {
        for (const writer of writers) {
          const own = writer.file.languages;
          await writer.add(
            page
              .filter((k) => keep(k, own, filter))
              .map((k) => forFile(k, own, own.length === languages.length, pluralShape)),
          );
        }
      }
    }
    const out: WrittenFile[] = [];
    for (const writer of writers) out.push(await writer.finish());
    return out;
  } catch (error) {
    for (const writer of writers) writer.abort();
    // A text the format cannot represent is the request's problem, not a crash.
    if (error instanceof FormatError) throw badRequest(`The export to ${format.id} failed: ${error.message}`);
    throw error;
  } finally {
    if (run !== undefined) await dropPathOrder(prisma(), run);
  }
}

/** Zips the files into `path`, streaming each from its temp file. */
async function zipFiles(files: { zipPath: string; path: string }[], path: string): Promise<WrittenFile> {
  // Loaded on first use: only zipped exports need it (docs/architecture.md, "Memory").
  const { default: JSZip } = await import('jszip');
  const zip = new JSZip();
  const used = new Set<string>();
  for (const file of files) {
    // Two namespaces may sanitize to one folder name: keep both files.
    let name = file.zipPath;
    for (let n = 2; used.has(name); n++) name = file.zipPath.replace(/(\.[^./]+)?$/, `-${n}$1`);
    used.add(name);
    zip.file(name, createReadStream(file.path));
  }
  let size = 0;
  const stream = zip.generateNodeStream({
    type: 'nodebuffer',
    streamFiles: true,
    compression: 'DEFLATE',
    compressionOptions: { level: 6 },
  });
  stream.on('data', (chunk: Buffer) => {
    size += chunk.length;
  });
  await pipeline(stream, createWriteStream(path));
  return { path, size };
}

function checkOptions(options: ReadonlySet<ExportOption>, request: ExportRequest): void {
  if (options.has('ONLY_TRANSLATED') && options.has('ONLY_NOT_TRANSLATED')) {
    throw badRequest('downloadOptions ONLY_TRANSLATED and ONLY_NOT_TRANSLATED exclude each other');
  }
  if (options.has('SELECTED_LANGUAGES') && !request.languageKeys?.length) {
    throw badRequest('downloadOptions SELECTED_LANGUAGES needs languageKeys (comma-separated language keys)');
  }
}

export interface ExportResult {
  files: ExportedFile[];
  /** withZip and several files: all of them in one zip. */
  zip?: ExportedFile;
}

export async function exportTranslations(request: ExportRequest): Promise<ExportResult> {
  const format = formatOf(request.downloadFormat, 'downloadFormat');
  const options = new Set(request.options);
  checkOptions(options, request);
  const { projectId } = request;
  const all = await projectLanguages(projectId, null);
  const languages = request.languageKeys?.length ? await projectLanguages(projectId, request.languageKeys) : all;
  const customerId = request.customerKey ? await customerIdOf(projectId, request.customerKey) : null;
  const withCustomers = format.customerTranslations === true;
  const customers = withCustomers
    ? (
        await prisma().customer.findMany({
          where: { projectId, ...(customerId !== null && { id: customerId }) },
          orderBy: { key: 'asc' },
          select: { key: true, description: true },
        })
      ).map((c) => ({ key: c.key, ...(c.description && { description: c.description }) }))
    : undefined;

  const filter: KeyFilter = {
    ...(request.namespace != null && { namespace: request.namespace }),
    ...(request.tags?.length && { tags: request.tags }),
  };
  // The namespace filter leaves one namespace (or none, when the project has no such namespace).
  const projectNamespaceList = (await projectNamespaces(projectId)).filter(
    (ns) => filter.namespace === undefined || ns === filter.namespace,
  );
  const split = options.has('SPLIT_BY_NAMESPACES');
  const namespaces: (string | undefined)[] = split ? projectNamespaceList : [undefined];
  const perNamespace = planFiles(format, languages, all, options);
  // SPLIT_BY_CUSTOMERS: the files once per customer (the one of customerId, or every customer of the project).
  const splitCustomers: PlannedFile['customer'][] = options.has('SPLIT_BY_CUSTOMERS')
    ? await prisma().customer.findMany({
        where: { projectId, ...(customerId !== null && { id: customerId }) },
        orderBy: { key: 'asc' },
        select: { id: true, key: true },
      })
    : [undefined];

  // The service's temp folder, as for uploads: removed below whatever happens.
  const temp = join(request.config.dataDir, 'tmp');
  await mkdir(temp, { recursive: true });
  const dir = await mkdtemp(join(temp, 'export-'));
  try {
    const context: FileContext = {
      format,
      options,
      customers,
      namespaces: projectNamespaceList,
      projectLanguages: all.length,
      defaultLanguage: all.find((l) => l.isDefault) ?? all[0],
      dir,
      revisedAt: await contentChangedAt(prisma(), projectId),
    };
    const textFilter: Filter = options.has('ONLY_TRANSLATED')
      ? 'translated'
      : options.has('ONLY_NOT_TRANSLATED')
        ? 'not-translated'
        : 'all';
    const scope: GroupScope = {
      projectId,
      customerId,
      customerTranslations: withCustomers,
      sort: request.sort ?? DEFAULT_EXPORT_SORT,
      filter,
    };
    const written: (WrittenFile & {
      fileName: string;
      zipPath: string;
      language?: string;
      namespace?: string;
      customer?: string;
      remotePath?: string;
    })[] = [];
    for (const customer of splitCustomers) {
      for (const namespace of namespaces) {
        const files = perNamespace.map((file) => ({ ...file, namespace, customer }));
        if (files.length === 0) continue;
        const contents = customer
          ? await writeGroup(
              files,
              { ...scope, customerId: customer.id },
              { ...context, customers: context.customers?.filter((c) => c.key === customer.key) },
              textFilter,
              written.length,
            )
          : await writeGroup(files, scope, context, textFilter, written.length);
        const remotePath = await remotePathOf(projectId, namespace, filter);
        files.forEach((file, i) => {
          const { fileName, zipPath } = namesOf(file, format.format.extension);
          written.push({
            ...contents[i]!,
            fileName,
            zipPath,
            language: file.language,
            namespace: file.namespace,
            customer: file.customer?.key,
            remotePath,
          });
        });
      }
    }

    if (request.singleFile && written.length === 0)
      throw badRequest('Nothing to export: the project has no language to write');
    await purgeExpiredExports(request.config);
    await sweepPathOrders(prisma());
    const zipped = options.has('ZIP_FILES') || (request.singleFile === true && written.length > 1);
    const storeZip = async () => {
      const zip = await zipFiles(written, join(dir, 'translations.zip'));
      return storeExportFile(request.config, projectId, {
        ...zip,
        fileName: `translations-${format.format.id}.zip`,
        contentType: 'application/zip',
      });
    };
    const stored: ExportedFile[] = [];
    let zip: ExportedFile | undefined;
    if (zipped) {
      stored.push(await storeZip());
    } else {
      // Stored side by side (a copy and an insert each); the list keeps the files' order.
      stored.push(
        ...(await Promise.all(
          written.map((file) =>
            storeExportFile(request.config, projectId, { ...file, contentType: format.format.contentType }),
          ),
        )),
      );
      if (request.withZip && written.length > 1) zip = await storeZip();
    }
    // An export writes no content: its activity entry (EXPORT webhooks) is one statement once its files are stored.
    await openChange(prisma(), projectId, 'EXPORT', {
      downloadFormat: request.downloadFormat,
      options: [...options],
      files: stored.length,
      languages: languages.map((l) => l.key),
    });
    return { files: stored, ...(zip && { zip }) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
