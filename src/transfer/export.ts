// GET /api/v4/export, /api/v3/export and the exportTranslations mutation: the
// project's keys in one or several files of a format, stored for download
// (export-files.ts). The keys are read page by page in the requested order
// (export-read.ts), once per namespace of a split export, each page feeding
// every file. Serializers take a whole Bundle, so the files' keys are held
// until they are written; formats whose output is the concatenation of their
// pages' outputs are written page by page and hold only their bytes.
import JSZip from 'jszip';
import type { Config } from '../config.js';
import { prisma } from '../db.js';
import { badRequest } from '../errors.js';
import { FormatError, type BundleKey } from '../formats/model.js';
import type { RegisteredFormat } from '../formats/registry.js';
import { customerIdOf } from '../customers/customers.js';
import { purgeExpiredExports, storeExportFile, type ExportedFile, type NewExportFile } from './export-files.js';
import { readKeyPages, type ExportLanguage, type ExportScope } from './export-read.js';
import { DEFAULT_EXPORT_SORT, formatOf, serializerOptions, type ExportOption, type ExportSort } from './options.js';

export interface ExportRequest {
  projectId: number;
  downloadFormat: string;
  options: readonly ExportOption[];
  /** Restricts the languages (SELECTED_LANGUAGES); in project order. */
  languageKeys?: readonly string[] | null;
  /** The key of a customer whose overrides are merged over the base texts. */
  customerKey?: string | null;
  sort?: ExportSort | null;
  /** Deprecated v3: several files are zipped into one. */
  singleFile?: boolean;
  config: Pick<Config, 'dataDir' | 'publicUrl' | 'exportTtlSeconds' | 'storage'>;
}

/** One file to write: its languages and, when split, its namespace. */
interface PlannedFile {
  languages: ExportLanguage[];
  /** Set when the file is one language's (single-language or split by language). */
  language?: string;
  namespace?: string;
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
  const rows = await prisma().$queryRawUnsafe<{ namespace: string }[]>(
    `SELECT DISTINCT namespace FROM "TranslationKey" WHERE "projectId" = $1 ORDER BY namespace`,
    projectId,
  );
  return rows.map((r) => r.namespace);
}

function planFiles(format: RegisteredFormat, languages: ExportLanguage[], allLanguages: ExportLanguage[], options: ReadonlySet<ExportOption>): PlannedFile[] {
  if (format.bilingual) {
    // The source is the project's default language, the target each other language.
    const source = allLanguages.find((l) => l.isDefault) ?? allLanguages[0];
    if (!source) return [];
    const targets = languages.filter((l) => l.id !== source.id);
    if (targets.length === 0) return languages.length ? [{ languages: [source], language: source.key }] : [];
    return targets.map((t) => ({ languages: [source, t], language: t.key }));
  }
  if (!format.format.multiLanguage || options.has('SPLIT_BY_LANGUAGES')) return languages.map((l) => ({ languages: [l], language: l.key }));
  return [{ languages }];
}

const sanitize = (name: string) => name.replace(/[^\p{L}\p{N}._-]+/gu, '_').replace(/^\.+/, '_') || '_';

/** A file's name in a download and its path inside a zip (namespace folders). */
function namesOf(file: PlannedFile, extension: string): { fileName: string; zipPath: string } {
  const base = file.language !== undefined ? sanitize(file.language) : 'translations';
  if (file.namespace === undefined) return { fileName: `${base}.${extension}`, zipPath: `${base}.${extension}` };
  const folder = file.namespace === '' ? '_default' : sanitize(file.namespace);
  return { fileName: `${folder}-${base}.${extension}`, zipPath: `${folder}/${base}.${extension}` };
}

type Filter = 'all' | 'translated' | 'not-translated';

/** ONLY_TRANSLATED: a text in at least one language of the file; ONLY_NOT_TRANSLATED: one missing. */
function keep(key: BundleKey, languages: ExportLanguage[], filter: Filter): boolean {
  if (filter === 'all') return true;
  return filter === 'translated' ? languages.some((l) => key.translations[l.key]) : languages.some((l) => !key.translations[l.key]);
}

function pick<T>(byLanguage: Record<string, T>, languages: ExportLanguage[]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const l of languages) if (byLanguage[l.key]) out[l.key] = byLanguage[l.key]!;
  return out;
}

/** The key as one file holds it: only the file's languages. */
function forFile(key: BundleKey, languages: ExportLanguage[], all: boolean): BundleKey {
  if (all) return key;
  const copy: BundleKey = { ...key, translations: pick(key.translations, languages) };
  if (key.customerTranslations) {
    copy.customerTranslations = Object.fromEntries(Object.entries(key.customerTranslations).map(([c, t]) => [c, pick(t, languages)]));
  }
  return copy;
}

interface FileContext {
  format: RegisteredFormat;
  options: ReadonlySet<ExportOption>;
  customers: { key: string; description?: string }[] | undefined;
}

/** One file being written: its keys (or, for page-concatenating formats, its serialized pages). */
class FileWriter {
  private readonly keys: BundleKey[] = [];
  private readonly chunks: Buffer[] = [];
  constructor(readonly file: PlannedFile, private readonly context: FileContext) {}

  private write(keys: BundleKey[]): Promise<Buffer> {
    const { format, options, customers } = this.context;
    const languages = this.file.languages.map((l) => ({ key: l.key, name: l.name, isDefault: l.isDefault }));
    return format.format.serialize({ keys, languages, ...(customers && { customers }) }, { languages, options: serializerOptions(options), namespace: this.file.namespace });
  }

  async add(keys: BundleKey[]): Promise<void> {
    if (this.context.format.pageConcatenation) this.chunks.push(await this.write(keys));
    else for (const key of keys) this.keys.push(key);
  }

  async finish(): Promise<Buffer> {
    if (this.context.format.pageConcatenation) return this.chunks.length ? Buffer.concat(this.chunks) : this.write([]);
    return this.write(this.keys);
  }
}

/**
 * Writes the files of one namespace scope (or of the whole export) from a
 * single pass over the keys: each page is read once, in the languages of all
 * the files, and handed to each file in its own languages.
 */
async function writeGroup(files: PlannedFile[], scope: Omit<ExportScope, 'languages' | 'namespace'>, context: FileContext, filter: Filter): Promise<Buffer[]> {
  const languages = [...new Map(files.flatMap((f) => f.languages).map((l) => [l.id, l])).values()];
  const writers = files.map((f) => new FileWriter(f, context));
  try {
    for await (const page of readKeyPages(prisma(), { ...scope, languages, namespace: files[0]!.namespace })) {
      for (const writer of writers) {
        const own = writer.file.languages;
        await writer.add(page.filter((k) => keep(k, own, filter)).map((k) => forFile(k, own, own.length === languages.length)));
      }
    }
    const out: Buffer[] = [];
    for (const writer of writers) out.push(await writer.finish());
    return out;
  } catch (error) {
    // A text the format cannot represent is the request's problem, not a crash.
    if (error instanceof FormatError) throw badRequest(`The export to ${context.format.format.id} failed: ${error.message}`);
    throw error;
  }
}

async function zipFiles(files: { zipPath: string; data: Buffer }[]): Promise<Buffer> {
  const zip = new JSZip();
  const used = new Set<string>();
  for (const file of files) {
    // Two namespaces may sanitize to one folder name: keep both files.
    let path = file.zipPath;
    for (let n = 2; used.has(path); n++) path = file.zipPath.replace(/(\.[^./]+)?$/, `-${n}$1`);
    used.add(path);
    zip.file(path, file.data);
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } });
}

function checkOptions(options: ReadonlySet<ExportOption>, request: ExportRequest): void {
  if (options.has('ONLY_TRANSLATED') && options.has('ONLY_NOT_TRANSLATED')) {
    throw badRequest('downloadOptions ONLY_TRANSLATED and ONLY_NOT_TRANSLATED exclude each other');
  }
  if (options.has('SELECTED_LANGUAGES') && !request.languageKeys?.length) {
    throw badRequest('downloadOptions SELECTED_LANGUAGES needs languageKeys (comma-separated language keys)');
  }
}

export async function exportTranslations(request: ExportRequest): Promise<ExportedFile[]> {
  const format = formatOf(request.downloadFormat, 'downloadFormat');
  const options = new Set(request.options);
  checkOptions(options, request);
  const { projectId } = request;
  const all = await projectLanguages(projectId, null);
  const languages = request.languageKeys?.length ? await projectLanguages(projectId, request.languageKeys) : all;
  const customerId = request.customerKey ? await customerIdOf(projectId, request.customerKey) : null;
  const withCustomers = format.customerTranslations === true;
  const customers = withCustomers
    ? (await prisma().customer.findMany({ where: { projectId, ...(customerId !== null && { id: customerId }) }, orderBy: { key: 'asc' }, select: { key: true, description: true } }))
        .map((c) => ({ key: c.key, ...(c.description && { description: c.description }) }))
    : undefined;

  const split = options.has('SPLIT_BY_NAMESPACES');
  const namespaces: (string | undefined)[] = split ? await projectNamespaces(projectId) : [undefined];
  const perNamespace = planFiles(format, languages, all, options);

  const context: FileContext = { format, options, customers };
  const filter: Filter = options.has('ONLY_TRANSLATED') ? 'translated' : options.has('ONLY_NOT_TRANSLATED') ? 'not-translated' : 'all';
  const scope = { projectId, customerId, customerTranslations: withCustomers, sort: request.sort ?? DEFAULT_EXPORT_SORT };
  const written: (NewExportFile & { zipPath: string })[] = [];
  for (const namespace of namespaces) {
    const files = perNamespace.map((file) => ({ ...file, namespace }));
    if (files.length === 0) continue;
    const contents = await writeGroup(files, scope, context, filter);
    files.forEach((file, i) => {
      const { fileName, zipPath } = namesOf(file, format.format.extension);
      written.push({ fileName, zipPath, contentType: format.format.contentType, data: contents[i]!, language: file.language, namespace: file.namespace });
    });
  }

  if (request.singleFile && written.length === 0) throw badRequest('Nothing to export: the project has no language to write');
  await purgeExpiredExports(request.config);
  const zipped = options.has('ZIP_FILES') || (request.singleFile === true && written.length > 1);
  if (zipped) {
    const data = await zipFiles(written);
    return [await storeExportFile(request.config, projectId, { fileName: `translations-${format.format.id}.zip`, contentType: 'application/zip', data })];
  }
  const stored: ExportedFile[] = [];
  for (const file of written) stored.push(await storeExportFile(request.config, projectId, file));
  return stored;
}

