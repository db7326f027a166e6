// .NET resource files: `resx` (.resx) and `string-resources` (.resw).
//
// Why `string-resources` is .resw: the identifier comes from the hosted
// service's format list, where it sits next to `resx`. Microsoft calls the
// .resw files of UWP / WinUI / Windows App SDK apps "string resources"
// (Resources.resw, "Localize strings in your UI and app package manifest"),
// and .resw uses the very same XML schema as .resx, restricted to strings.
// Both formats therefore share this code; only the identifier and the
// extension differ. (The service's own documentation for the identifier was
// not available to confirm this.)
//
// Conventions:
//   - <data name="k"><value>text</value><comment>description</comment></data>;
//     <data> with a `type` (other than System.String) or `mimetype` attribute
//     is a non-string resource (image, file reference, serialized object) and
//     is skipped.
//   - The value is taken as written; a whitespace-only value counts as empty
//     unless xml:space="preserve" is set (what ResXResourceReader does).
//   - Export writes the standard schema and resheader block, xml:space="preserve"
//     on every <data>, the description as <comment> with INCLUDE_DESCRIPTIONS,
//     and omits keys without a translation (.NET then falls back to the
//     neutral resources instead of showing an empty string).
//   - Duplicate names: the first one wins. Namespace: the import's namespace or ''
//     (no namespaces in the file, so export gets one key per name).
import { linesWriter } from './entry-writer.js';
import { defineFormat } from './define.js';
import {
  FormatError,
  type Bundle,
  type BundleKey,
  type FileFormat,
  type FormatWriter,
  type ParseOptions,
  type SerializeOptions,
} from './model.js';
import { requireLanguageKey, singleLanguage } from './single-language.js';
import { childElements, escapeXmlAttribute, escapeXmlText, firstChild, parseXml, textContent } from './xml-safe.js';

async function parseResx(input: Buffer, options: ParseOptions, formatId: string): Promise<Bundle> {
  const language = requireLanguageKey(options, formatId);
  const namespace = options.namespace ?? '';
  const { root } = parseXml(input);
  if (root.name !== 'root')
    throw new FormatError(`Not a .NET resource file: the root element is <${root.name}>, expected <root>`, {
      line: root.line,
      column: root.column,
    });
  const keys: BundleKey[] = [];
  const seen = new Set<string>();
  for (const data of childElements(root, 'data')) {
    const name = data.attributes.name;
    if (name === undefined)
      throw new FormatError('<data> without a name attribute', { line: data.line, column: data.column });
    const type = data.attributes.type;
    if (data.attributes.mimetype !== undefined || (type !== undefined && !/^System\.String\b/.test(type))) continue;
    if (seen.has(name)) continue;
    seen.add(name);
    const valueEl = firstChild(data, 'value');
    const raw = valueEl ? textContent(valueEl) : '';
    const preserve = data.attributes['xml:space'] === 'preserve' || root.attributes['xml:space'] === 'preserve';
    const text = !preserve && raw.trim() === '' ? '' : raw;
    const commentEl = firstChild(data, 'comment');
    const description = commentEl ? textContent(commentEl) : '';
    keys.push({
      key: name,
      namespace,
      ...(description ? { description } : {}),
      translations: { [language]: { text } },
    });
  }
  return { keys, languages: [{ key: language }] };
}

// The schema block Visual Studio writes at the top of every .resx/.resw.
const SCHEMA = `  <xsd:schema id="root" xmlns="" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata">
    <xsd:import namespace="http://www.w3.org/XML/1998/namespace" />
    <xsd:element name="root" msdata:IsDataSet="true">
      <xsd:complexType>
        <xsd:choice maxOccurs="unbounded">
          <xsd:element name="metadata">
            <xsd:complexType>
              <xsd:sequence>
                <xsd:element name="value" type="xsd:string" minOccurs="0" />
              </xsd:sequence>
              <xsd:attribute name="name" use="required" type="xsd:string" />
              <xsd:attribute name="type" type="xsd:string" />
              <xsd:attribute name="mimetype" type="xsd:string" />
              <xsd:attribute ref="xml:space" />
            </xsd:complexType>
          </xsd:element>
          <xsd:element name="assembly">
            <xsd:complexType>
              <xsd:attribute name="alias" type="xsd:string" />
              <xsd:attribute name="name" type="xsd:string" />
            </xsd:complexType>
          </xsd:element>
          <xsd:element name="data">
            <xsd:complexType>
              <xsd:sequence>
                <xsd:element name="value" type="xsd:string" minOccurs="0" msdata:Ordinal="1" />
                <xsd:element name="comment" type="xsd:string" minOccurs="0" msdata:Ordinal="2" />
              </xsd:sequence>
              <xsd:attribute name="name" type="xsd:string" use="required" msdata:Ordinal="1" />
              <xsd:attribute name="type" type="xsd:string" msdata:Ordinal="3" />
              <xsd:attribute name="mimetype" type="xsd:string" msdata:Ordinal="4" />
              <xsd:attribute ref="xml:space" />
            </xsd:complexType>
          </xsd:element>
          <xsd:element name="resheader">
            <xsd:complexType>
              <xsd:sequence>
                <xsd:element name="value" type="xsd:string" minOccurs="0" msdata:Ordinal="1" />
              </xsd:sequence>
              <xsd:attribute name="name" type="xsd:string" use="required" />
            </xsd:complexType>
          </xsd:element>
        </xsd:choice>
      </xsd:complexType>
    </xsd:element>
  </xsd:schema>`;

const RESHEADERS: [string, string][] = [
  ['resmimetype', 'text/microsoft-resx'],
  ['version', '2.0'],
  [
    'reader',
    'System.Resources.ResXResourceReader, System.Windows.Forms, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089',
  ],
  [
    'writer',
    'System.Resources.ResXResourceWriter, System.Windows.Forms, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089',
  ],
];

/** Writes a .resx/.resw: nothing is held between pages (keys come one per name). */
function resxWriter(options: SerializeOptions, formatId: string): FormatWriter {
  const language = singleLanguage(options, formatId);
  const withDescriptions = options.options.has('INCLUDE_DESCRIPTIONS');
  const escapeNewLines = options.options.has('ESCAPE_NEW_LINES');
  const header = ['<?xml version="1.0" encoding="utf-8"?>', '<root>', SCHEMA];
  for (const [name, value] of RESHEADERS)
    header.push(`  <resheader name="${name}">`, `    <value>${value}</value>`, '  </resheader>');
  return linesWriter(header, {
    write(keys, out) {
      for (const key of keys) {
        const text = key.translations[language]?.text;
        if (text === undefined) continue;
        out.push(`  <data name="${escapeXmlAttribute(key.key)}" xml:space="preserve">`);
        out.push(`    <value>${escapeXmlText(escapeNewLines ? text.replace(/\n/g, '\\n') : text)}</value>`);
        if (withDescriptions && key.description) out.push(`    <comment>${escapeXmlText(key.description)}</comment>`);
        out.push('  </data>');
      }
    },
    end(out) {
      out.push('</root>');
    },
  });
}

function resxFormat(id: string, extension: string): FileFormat {
  return defineFormat({
    id,
    multiLanguage: false,
    // Namespaces are not in the file: import gives its keys the request's namespace.
    namespaces: false,
    extension,
    contentType: 'application/xml; charset=utf-8',
    parse: (input, options) => parseResx(input, options, id),
    writer: (options) => resxWriter(options, id),
  });
}

export const resx: FileFormat = resxFormat('resx', 'resx');
/** `string-resources`: Windows .resw string resources (same schema as .resx, see above). */
export const stringResources: FileFormat = resxFormat('string-resources', 'resw');

// --- Streaming XML writers -----------------------------------------------------
// Shared by the line-based XML writers (.resx here, Android, Qt Linguist, XLIFF).
// They live in this module, which depends on none of the others.
