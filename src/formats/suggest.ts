// Suggests the import format of a file from its name and its first bytes
// (the console's Import screen runs it on every dropped file; the user can
// change what it says). It knows the formats' identifiers (registry.ts) and
// their telltale shapes; it never parses a whole file, so it may be wrong on a
// file that is ambiguous (a JSON object whose top-level names are two letters
// long looks like multi-language JSON): the suggestion is a default, and the
// preview shows what the import would do before anything is written.
// Browser-safe: no Node import (web/ imports this file).
import { LANGUAGE_CODE } from './language-code.js';

export type LayoutOption = 'MULTI_LANGUAGE' | 'LANGUAGES_NESTED';

export interface FormatSuggestion {
  /** An uploadFormat identifier. */
  format: string;
  /** Import options that select the file's layout (JSON, YAML). */
  options: LayoutOption[];
  /** The file's language, when its name or content says it and the file holds one language. */
  languageKey?: string;
  /** Why, for people. */
  reason: string;
}

export interface SuggestInput {
  /** The file's name, possibly with folders (`res/values-de/strings.xml`). */
  fileName: string;
  /** The file's first bytes (the whole file for JSON, so it can be parsed). */
  head: Uint8Array;
}

/** Names of the file that are not languages although they look like codes. */
const NOT_LANGUAGES = new Set([
  'app',
  'api',
  'ios',
  'ui',
  'web',
  'src',
  'lib',
  'res',
  'js',
  'ts',
  'min',
  'dev',
  'new',
  'old',
  'all',
  'and',
  'the',
  'for',
  'key',
  'xml',
  'txt',
  'csv',
  'po',
  'pot',
  'intl',
  'main',
  'base',
  'zip',
]);

/**
 * The language a file's path names: `values-de/…` (Android, `-rBR` region),
 * `de.lproj/…` (Apple), `_locales/de/…`, or the last code-like part of the
 * name (`messages_fr.properties`, `app_en.arb`, `validators.ru.xlf`, `pt_BR.json`).
 */
export function languageFromFileName(fileName: string): string | undefined {
  const path = fileName.replace(/\\/g, '/');
  const android = /(?:^|\/)values-([a-z]{2,3})(?:-r([A-Z]{2}))?(?:-[^/]*)?\//.exec(path);
  if (android) return android[2] ? `${android[1]}-${android[2]}` : android[1];
  const folder = /(?:^|\/)(?:_locales\/)?([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,4})?)(?:\.lproj)?\/[^/]+$/.exec(path);
  if (folder && (/\.lproj\//.test(path) || /_locales\//.test(path))) return folder[1];
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  const found = [
    ...base.matchAll(/(?<=^|[._-])([a-z]{2,3})(?:[-_]([A-Z]{2}|[A-Z][a-z]{3}|\d{3}))?(?=$|[._-])/g),
  ].filter((m) => !NOT_LANGUAGES.has(m[1]!));
  const last = found.at(-1);
  return last ? last[0] : undefined;
}

const extensionOf = (fileName: string) => /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';

function decode(bytes: Uint8Array): string {
  // UTF-16 (Apple .strings often are): decode by the byte order mark.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** True when every leaf object below `value` is named by language codes ({"title": {"en": "…"}}). */
function languagesUnderKeys(value: Record<string, unknown>, depth = 0): boolean {
  const children = Object.values(value);
  if (children.length === 0 || depth > 64) return false;
  return children.every((child) => {
    if (!isObject(child)) return false;
    const names = Object.keys(child);
    if (
      names.length > 0 &&
      names.every((n) => LANGUAGE_CODE.test(n)) &&
      Object.values(child).every((v) => typeof v === 'string' || v === null)
    )
      return true;
    return languagesUnderKeys(child, depth + 1);
  });
}

function suggestJson(fileName: string, text: string): FormatSuggestion {
  const language = languageFromFileName(fileName);
  const single = (reason: string): FormatSuggestion => ({
    format: 'single-language-json',
    options: [],
    ...(language && { languageKey: language }),
    reason,
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return single('a .json file (not read whole: taken as one language, keys to texts)');
  }
  if (!isObject(value)) return single('a .json file');
  if ((value.format === 'project-backup-json' || value.format === 'simplelocalize-json') && Array.isArray(value.keys)) {
    return { format: 'project-backup-json', options: [], reason: 'a backup of a project (its "format" says so)' };
  }
  const entries = Object.entries(value);
  const messageObjects =
    entries.length > 0 &&
    entries.every(([, v]) => isObject(v) && (typeof v.message === 'string' || typeof v.defaultMessage === 'string'));
  if (messageObjects) {
    if (/(?:^|\/)messages\.json$/.test(fileName.replace(/\\/g, '/'))) {
      return {
        format: 'browser-extension-json',
        options: [],
        ...(language && { languageKey: language }),
        reason: 'messages.json with {"message": …} entries (a browser extension)',
      };
    }
    return {
      format: 'simplelocalize-json',
      options: [],
      ...(language && { languageKey: language }),
      reason: 'entries of the form {"message": …} (FormatJS style)',
    };
  }
  if (entries.length > 0 && entries.every(([name, v]) => LANGUAGE_CODE.test(name) && isObject(v))) {
    return {
      format: 'multi-language-json',
      options: [],
      reason: `languages on the first level (${entries
        .slice(0, 4)
        .map(([n]) => n)
        .join(', ')})`,
    };
  }
  if (languagesUnderKeys(value)) {
    return {
      format: 'multi-language-json',
      options: ['LANGUAGES_NESTED'],
      reason: 'languages under each key ({"key": {"en": …}})',
    };
  }
  return single('keys to texts, one language');
}

/** Top-level names of a YAML text (lines without indentation ending in `:`). */
function yamlRootNames(text: string): string[] {
  return [...text.matchAll(/^(?:"([^"]+)"|'([^']+)'|([^\s#:'"-][^:#]*?)):(?:\s|$)/gm)].map((m) =>
    (m[1] ?? m[2] ?? m[3])!.trim(),
  );
}

function suggestYaml(fileName: string, text: string): FormatSuggestion {
  const roots = yamlRootNames(text);
  if (roots.length === 1 && LANGUAGE_CODE.test(roots[0]!)) {
    return {
      format: 'yaml',
      options: [],
      languageKey: roots[0]!,
      reason: `a Rails file: the root "${roots[0]}:" is its language`,
    };
  }
  if (roots.length > 1 && roots.every((r) => LANGUAGE_CODE.test(r))) {
    return {
      format: 'yaml',
      options: ['MULTI_LANGUAGE'],
      reason: `languages on the first level (${roots.slice(0, 4).join(', ')})`,
    };
  }
  const language = languageFromFileName(fileName);
  return {
    format: 'yaml',
    options: [],
    ...(language && { languageKey: language }),
    reason: 'a YAML file of one language',
  };
}

/** The format of a file, with the options and language its name and content suggest. */
export function suggestFormat({ fileName, head }: SuggestInput): FormatSuggestion {
  const extension = extensionOf(fileName);
  const language = languageFromFileName(fileName);
  const oneLanguage = (format: string, reason: string): FormatSuggestion => ({
    format,
    options: [],
    ...(language && { languageKey: language }),
    reason,
  });
  const inFile = (format: string, reason: string): FormatSuggestion => ({ format, options: [], reason });
  // A zip container (PK\3\4) is a workbook whatever its name says.
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04)
    return inFile('excel', 'an Excel workbook (a zip container)');
  const text = decode(head.subarray(0, Math.min(head.length, 1 << 16)));
  switch (extension) {
    case 'xlsx':
      return inFile('excel', 'an Excel workbook (.xlsx)');
    case 'csv':
      return inFile('csv-translations', 'a CSV table (key, languages…)');
    case 'tsv':
      return inFile('tsv', 'a tab-separated table (key, languages…)');
    case 'po':
    case 'pot':
      return inFile('po-pot', 'a gettext catalog; its language comes from the Language header');
    case 'xlf':
    case 'xliff':
    case 'xlif':
      return /<xliff[^>]*\bversion\s*=\s*["']2/.test(text)
        ? inFile('xliff-2.0', 'XLIFF 2.0 (source and target languages in the file)')
        : inFile('xliff-1.2', 'XLIFF 1.2 (source and target languages in the file)');
    case 'xcstrings':
      return inFile('localizable-xcstrings', 'an Apple String Catalog');
    case 'stringsdict':
      return oneLanguage('localizable-strings-dict', 'Apple plural rules (.stringsdict)');
    case 'strings':
      return oneLanguage('localizable-strings', 'Apple Localizable.strings');
    case 'arb': {
      const locale = /"@@locale"\s*:\s*"([^"]+)"/.exec(text)?.[1];
      return {
        format: 'arb',
        options: [],
        ...((locale ?? language) && { languageKey: locale ?? language }),
        reason: locale ? `a Flutter ARB file (@@locale ${locale})` : 'a Flutter ARB file',
      };
    }
    case 'properties':
      return oneLanguage('java-properties', 'Java properties');
    case 'resx':
      return oneLanguage('resx', 'a .NET resource file');
    case 'resw':
      return oneLanguage('string-resources', 'Windows string resources');
    case 'php':
      return oneLanguage('php-array', 'a PHP file returning an array');
    case 'yml':
    case 'yaml':
      return suggestYaml(fileName, text);
    case 'json':
      return suggestJson(fileName, decode(head));
    case 'ts':
      return /<TS[\s>]/.test(text)
        ? inFile('qt-linguist', 'a Qt Linguist file; its language comes from <TS language>')
        : oneLanguage('javascript', 'a module exporting its texts');
    case 'js':
    case 'mjs':
    case 'cjs':
      return /module\.exports\s*=/.test(text) && !/export\s+default/.test(text)
        ? oneLanguage('module-exports', 'a CommonJS module (module.exports = {…})')
        : oneLanguage('javascript', 'a module exporting its texts (export default {…})');
    case 'xml':
      if (/<root[\s>]/.test(text) && /<data\s/.test(text))
        return oneLanguage('resx', 'XML with <root><data> (.NET resources)');
      if (/<resources[\s>]/.test(text)) return oneLanguage('android', 'Android string resources (<resources>)');
      if (/<xliff[\s>]/.test(text)) return suggestFormat({ fileName: `${fileName}.xlf`, head });
      if (/<TS[\s>]/.test(text)) return inFile('qt-linguist', 'a Qt Linguist file');
      return oneLanguage('android', 'an XML file (Android string resources assumed)');
    default:
      break;
  }
  // No known extension: the content decides.
  const start = text.trimStart();
  if (start.startsWith('{')) return suggestJson(fileName, decode(head));
  if (start.startsWith('<')) return suggestFormat({ fileName: `${fileName}.xml`, head });
  if (/^msgid\s/m.test(text)) return inFile('po-pot', 'a gettext catalog (msgid lines)');
  if (/^\s*"[^"]*"\s*=\s*"/m.test(text)) return oneLanguage('localizable-strings', 'Apple "key" = "text"; lines');
  return oneLanguage('single-language-json', 'unknown: choose the format');
}
