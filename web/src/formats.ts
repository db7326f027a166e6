// What the Import and Export screens share about file formats: the list the
// service gives (fileFormats), the layout options each format has (the same
// choice on import and export), and file sizes for people.
import { graphql, type ResultOf } from './graphql';
import { i18n } from './i18n';

export const FileFormatsQuery = graphql(`
  query FileFormats { fileFormats { id format name multiLanguage multiLanguageLayouts languageInFile extension } }
`);
export type FileFormat = ResultOf<typeof FileFormatsQuery>['fileFormats'][number];

export type LayoutOption = 'MULTI_LANGUAGE' | 'LANGUAGES_NESTED' | 'SHEETS_AS_NAMESPACES';

/** The options that choose a format's layout: JSON and YAML languages, Excel sheets. */
export function layoutOptionsOf(format: FileFormat | undefined): LayoutOption[] {
  if (!format) return [];
  if (format.id === 'excel') return ['SHEETS_AS_NAMESPACES'];
  if (format.multiLanguageLayouts) return ['MULTI_LANGUAGE', 'LANGUAGES_NESTED'];
  if (format.id === 'multi-language-json') return ['LANGUAGES_NESTED'];
  return [];
}

export const fileSize = (n: number) =>
  n < 1024
    ? i18n.t('fileSize.bytes', { value: n })
    : n < 1 << 20
      ? i18n.t('fileSize.kb', { value: n / 1024 })
      : i18n.t('fileSize.mb', { value: n / (1 << 20) });
