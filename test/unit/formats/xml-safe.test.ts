import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/formats/model.js';
import {
  cdata,
  childElements,
  escapeXmlAttribute,
  escapeXmlText,
  firstChild,
  parseXml,
  parseXmlSplit,
  serializeNodes,
  textContent,
  xmlLineColumn,
} from '../../../src/formats/xml-safe.js';
import { corpusPath } from '../../support/corpus.js';
import { cpuClock, PATHOLOGICAL_CPU_MS, HOSTILE_TEST_TIMEOUT } from './support/linear-cost.js';

const TERMUX = corpusPath('android', 'termux_app_values_strings.xml');

function formatError(fn: () => unknown): FormatError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return e as FormatError;
  }
  throw new Error('expected a FormatError');
}

function timed(fn: () => unknown): { error: FormatError; ms: number } {
  const start = cpuClock();
  const error = formatError(fn);
  return { error, ms: cpuClock() - start };
}

const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<resources><string name="a">&lol9;</string></resources>`;

describe('parseXml: real files', () => {
  it.skipIf(!existsSync(TERMUX))('expands the internal entities Termux declares in its DOCTYPE', () => {
    const { root } = parseXml(readFileSync(TERMUX));
    expect(root.name).toBe('resources');
    const strings = childElements(root, 'string');
    const byName = new Map(strings.map((s) => [s.attributes.name, s]));
    expect(textContent(byName.get('application_name')!)).toBe('Termux');
    expect(textContent(byName.get('shared_user_label')!)).toBe('Termux user');
    // &TERMUX_STYLING_APP_NAME; is longer than fast-xml-parser's validator allows for entity names.
    expect(textContent(byName.get('error_styling_not_installed')!)).toBe(
      'The Termux:Styling Plugin App is not installed.',
    );
    expect(byName.get('application_name')!.line).toBe(16);
  });

  it('accepts an XLIFF 1.1 style DOCTYPE naming an external DTD, without fetching it', () => {
    const xml = `<?xml version="1.0"?>
<!DOCTYPE xliff PUBLIC "-//XLIFF//DTD XLIFF//EN" "http://www.oasis-open.org/committees/xliff/documents/xliff.dtd">
<xliff version="1.1"><file><body/></file></xliff>`;
    expect(parseXml(xml).root.name).toBe('xliff');
  });

  it('keeps order, comments, CDATA and whitespace; decodes references', () => {
    const line3 =
      '<r a="x &amp; &quot;y&quot;&#10;z"> t &lt;1&gt; &#233;&#x1F600; <b>bold</b><![CDATA[<raw> & ]]><!-- c --></r>';
    const { root, prolog } = parseXml(`<?xml version="1.0"?>\n<!-- head -->\n${line3}`);
    expect(prolog).toEqual([{ type: 'comment', value: ' head ' }]);
    expect(root.attributes.a).toBe('x & "y"\nz');
    expect(root.children.map((c) => c.type)).toEqual(['text', 'element', 'cdata', 'comment']);
    expect(root.children[0]).toEqual({ type: 'text', value: ' t <1> é😀 ' });
    expect(textContent(root)).toBe(' t <1> é😀 bold<raw> & ');
    expect(firstChild(root, 'b')).toMatchObject({ line: 3, column: line3.indexOf('<b>') + 1 });
  });

  it('decodes UTF-16 with a BOM and a latin1 file that says so', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<r>Grüße</r>', 'utf16le')]);
    expect(textContent(parseXml(utf16).root)).toBe('Grüße');
    const latin1 = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><r>Gr\xfc\xdfe</r>', 'latin1');
    expect(textContent(parseXml(latin1).root)).toBe('Grüße');
  });

  it('keeps a carriage return written as a reference', () => {
    expect(textContent(parseXml('<r>a&#13;\nb</r>').root)).toBe('a\r\nb');
  });
});

describe('parseXml: hostile and broken input', () => {
  it(
    'refuses a billion-laughs file quickly',
    () => {
      const { error, ms } = timed(() => parseXml(billionLaughs));
      expect(error.message).toMatch(/Entity "lol\d" expands to more than/);
      expect(ms).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it(
    'refuses many references to a large entity (quadratic blowup)',
    () => {
      const big = 'x'.repeat(10_000);
      const xml = `<!DOCTYPE r [<!ENTITY big "${big}">]><r>${'&big;'.repeat(1000)}</r>`;
      const { error, ms } = timed(() => parseXml(xml));
      expect(error.message).toMatch(/Entity references expand to more than/);
      expect(ms).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('refuses external, parameter, unparsed and recursive entities', () => {
    expect(
      formatError(() => parseXml('<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>')).message,
    ).toMatch(/External entity "xxe"/);
    expect(
      formatError(() => parseXml('<!DOCTYPE r [<!ENTITY xxe PUBLIC "-//x//y" "http://example.com/x">]><r>&xxe;</r>'))
        .message,
    ).toMatch(/External entity/);
    expect(
      formatError(() => parseXml('<!DOCTYPE r [<!ENTITY % p SYSTEM "http://example.com/p.dtd"> %p;]><r/>')).message,
    ).toMatch(/Parameter entit/);
    expect(formatError(() => parseXml('<!DOCTYPE r [<!ENTITY u SYSTEM "x.gif" NDATA gif>]><r/>')).message).toMatch(
      /External entity/,
    );
    expect(formatError(() => parseXml('<!DOCTYPE r [<!ENTITY a "&b;"><!ENTITY b "&a;">]><r>&a;</r>')).message).toMatch(
      /refers to itself/,
    );
    expect(formatError(() => parseXml('<!DOCTYPE r [<!ENTITY m "<b>x</b>">]><r>&m;</r>')).message).toMatch(
      /contains markup/,
    );
  });

  it('refuses too many entity declarations', () => {
    const decls = Array.from({ length: 300 }, (_, i) => `<!ENTITY e${i} "v">`).join('');
    expect(formatError(() => parseXml(`<!DOCTYPE r [${decls}]><r/>`)).message).toMatch(/Too many entities/);
  });

  it('refuses a DOCTYPE inside the document', () => {
    const e = formatError(() => parseXml('<r>\n<!DOCTYPE r [<!ENTITY a "b">]></r>'));
    expect(e.message).toMatch(/DOCTYPE/);
    expect(e.position?.line).toBe(2);
  });

  it(
    'refuses deep nesting, quickly even for very deep files',
    () => {
      expect(formatError(() => parseXml('<a>'.repeat(65) + '</a>'.repeat(65))).message).toMatch(
        /nesting is deeper than 64/,
      );
      expect(() => parseXml('<a>'.repeat(64) + '</a>'.repeat(64))).not.toThrow();
      const { ms } = timed(() => parseXml('<a>'.repeat(200_000) + '</a>'.repeat(200_000)));
      expect(ms).toBeLessThan(PATHOLOGICAL_CPU_MS);
    },
    HOSTILE_TEST_TIMEOUT,
  );

  it('reports malformed XML with its line and column', () => {
    const e = formatError(() =>
      parseXml('<resources>\n  <string name="a">x</string>\n  <string name="b">y</strin>\n</resources>'),
    );
    expect(e.message).toMatch(/^Malformed XML: .*line 3/);
    expect(e.position?.line).toBe(3);
    expect(e.position?.column).toBeGreaterThan(0);
  });

  it('reports an undefined entity with its line', () => {
    const e = formatError(() => parseXml('<r>\n\n  a&nbsp;b</r>'));
    expect(e.message).toMatch(/undefined entity &nbsp;/);
    expect(e.position).toEqual({ line: 3, column: 4 });
  });

  it('refuses invalid UTF-8 with the offset of the bad byte', () => {
    const e = formatError(() =>
      parseXml(Buffer.concat([Buffer.from('<r>\nok '), Buffer.from([0xc3, 0x28]), Buffer.from('</r>')])),
    );
    expect(e.message).toMatch(/not valid UTF-8: invalid byte at offset 7/);
    expect(e.position?.line).toBe(2);
  });

  // Found by the fuzzer (scripts/fuzz.ts): such characters were accepted, then
  // written back as U+FFFD, so an import and an export changed the text.
  it('refuses characters XML 1.0 forbids (C0 controls, U+FFFE, lone surrogates) with their position', () => {
    for (const [input, code] of [
      ['<r>\nab\u001fc</r>', '001F'],
      ['<r>\nab\uFFFEc</r>', 'FFFE'],
      ['<r>\nab\uD800c</r>', 'D800'],
      ['<r a="\u0001"/>', '0001'],
    ] as const) {
      const e = formatError(() => parseXml(input));
      expect(e.message).toContain(`U+${code} is not allowed in XML`);
      if (input.startsWith('<r>\n')) expect(e.position).toEqual({ line: 2, column: 3 });
    }
    expect(formatError(() => parseXml(Buffer.from('<r>a\uFFFFb</r>', 'utf8'))).message).toMatch(/U\+FFFF/);
    // Tab, line breaks and the characters around the forbidden ranges stay.
    expect(() => parseXml('<r>\t\r\n \uFFFD \uD83D\uDE00 \uE000</r>')).not.toThrow();
  });

  it('throws only FormatError for truncated and garbled files', () => {
    const source = existsSync(TERMUX) ? readFileSync(TERMUX, 'utf8') : billionLaughs;
    for (let cut = 1; cut < source.length; cut += Math.ceil(source.length / 60)) {
      for (const input of [source.slice(0, cut), source.slice(0, cut) + '<' + source.slice(cut), source.slice(cut)]) {
        try {
          parseXml(input);
        } catch (e) {
          expect(e).toBeInstanceOf(FormatError);
        }
      }
    }
    for (const junk of [
      '',
      'plain text',
      '<',
      '<<>>',
      '<r',
      '</r>',
      '<r></r><r></r>',
      '<?xml version="1.0"?>',
      '<!-- only a comment -->',
      '<r>]]></r>',
    ]) {
      try {
        parseXml(junk);
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
      }
    }
  });
});

describe('XML writer helpers', () => {
  it('escapes text and attributes so a parser reads back the same string', () => {
    const nasty = 'a & b < c > d "q" \'s\' ]]> tab\there\nnew\r\nline';
    const xml = `<r k="${escapeXmlAttribute(nasty)}">${escapeXmlText(nasty)}${cdata('x]]>y')}</r>`;
    const { root } = parseXml(xml);
    expect(root.attributes.k).toBe(nasty);
    expect(root.children[0]).toEqual({ type: 'text', value: nasty });
    expect(textContent(root)).toBe(nasty + 'x]]>y');
  });

  it('replaces characters XML cannot carry with U+FFFD', () => {
    expect(escapeXmlText('a\u0001b\uD800c')).toBe('a\uFFFDb\uFFFDc');
    expect(escapeXmlText('😀')).toBe('😀');
  });

  it(
    'reads back every code unit as written, or U+FFFD where XML cannot carry it (the no-escape shortcut included)',
    { timeout: 30_000 },
    () => {
      const invalid = (c: number) =>
        (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) ||
        c === 0xfffe ||
        c === 0xffff ||
        (c >= 0xd800 && c <= 0xdfff);
      const wrong: string[] = [];
      for (let c = 0; c <= 0xffff; c++) {
        const s = `a${String.fromCharCode(c)}b`;
        const expected = invalid(c) ? 'a\uFFFDb' : s;
        const { root } = parseXml(`<r k="${escapeXmlAttribute(s)}">${escapeXmlText(s)}</r>`);
        if (root.attributes.k !== expected || textContent(root) !== expected) wrong.push(c.toString(16));
      }
      expect(wrong).toEqual([]);
      // A text with nothing to escape is returned as it is.
      const plain = 'screen1.label_2 {name} é 😀';
      expect(escapeXmlText(plain)).toBe(plain);
      expect(escapeXmlAttribute(plain)).toBe(plain);
    },
  );

  it('serializes nodes back to equivalent XML', () => {
    const { root } = parseXml('<r>x &amp; <b id="1&lt;">y</b><br/><![CDATA[<z>]]><!-- c --></r>');
    const inner = serializeNodes(root.children);
    expect(inner).toBe('x &amp; <b id="1&lt;">y</b><br/><![CDATA[<z>]]><!-- c -->');
    expect(parseXml(`<r>${inner}</r>`).root).toEqual({ ...root, column: 1 });
  });

  it('computes line and column of an offset', () => {
    expect(xmlLineColumn('ab\ncd\nef', 4)).toEqual({ line: 2, column: 2 });
    expect(xmlLineColumn('ab', 0)).toEqual({ line: 1, column: 1 });
  });
});

describe('parseXmlSplit', () => {
  const strip = (el: unknown): unknown =>
    JSON.parse(JSON.stringify(el, (k, v) => (k === 'line' || k === 'column' ? undefined : v)));
  const DOC = `<?xml version="1.0"?>
<!DOCTYPE r [<!ENTITY brand "Acme">]>
<r lang="en"><head><title>&brand;</title></head><list>
  <item id="1"><a>one &amp; &brand;</a><!-- </item> in a comment --><b><![CDATA[</item> <item>]]></b></item>
  <item id="2"/>
  <other><item id="3" note="a > b"><a>nested</a></item></other>
</list></r>`;

  it('gives the same elements as the whole tree, one at a time, and the rest as the tree', () => {
    const whole = parseXml(DOC);
    const split = parseXmlSplit(DOC, ['item']);
    const list = childElements(whole.root, 'list')[0]!;
    const items = [...childElements(list, 'item'), ...childElements(childElements(list, 'other')[0]!, 'item')];
    const entries = [...split.entries()];
    expect(entries.map((e) => [e.element.attributes.id, e.parent])).toEqual([
      ['1', 'list'],
      ['2', 'list'],
      ['3', 'other'],
    ]);
    expect(entries.map((e) => strip(e.element))).toEqual(items.map(strip));
    expect(textContent(entries[0]!.element)).toBe('one & Acme</item> <item>');
    expect(split.root.attributes.lang).toBe('en');
    expect(textContent(childElements(split.root, 'head')[0]!)).toBe('Acme');
    expect(childElements(childElements(split.root, 'list')[0]!, 'item')).toEqual([]);
  });

  it("keeps the whole document's limits: a malformed part, nesting with the ancestors, one expansion budget", () => {
    expect(formatError(() => parseXmlSplit('<r><item><a></item></r>', ['item'])).message).toMatch(/^Malformed XML/);
    const deep = (n: number) => `<r><s><item>${'<d>'.repeat(n)}${'</d>'.repeat(n)}</item></s></r>`;
    expect([...parseXmlSplit(deep(5), ['item'], { maxDepth: 8 }).entries()]).toHaveLength(1);
    expect(formatError(() => [...parseXmlSplit(deep(6), ['item'], { maxDepth: 8 }).entries()]).message).toBe(
      'XML nesting is deeper than 8 levels',
    );
    // Each entry stays under the budget, all of them together do not.
    const many = `<!DOCTYPE r [<!ENTITY e "${'x'.repeat(1000)}">]><r>${'<item>&e;&e;</item>'.repeat(20)}</r>`;
    expect([...parseXmlSplit(many, ['item'], { maxTotalExpansion: 50_000 }).entries()]).toHaveLength(20);
    expect(
      formatError(() => [...parseXmlSplit(many, ['item'], { maxTotalExpansion: 30_000 }).entries()]).message,
    ).toMatch(/expand to more than 30000 characters/);
  });
});
