import { describe, expect, it } from 'vitest';
import { browserExtensionJson } from '../../../src/formats/browser-extension.js';
import { FormatError, type Bundle } from '../../../src/formats/model.js';

// No corpus folder exists for this format: the files below follow the
// WebExtensions/Chrome rules for _locales/<lang>/messages.json.
const parse = (source: string, language = 'en', namespace?: string) =>
  browserExtensionJson.parse(Buffer.from(source), { languageKey: language, namespace, options: new Set() });
const serialize = async (bundle: Bundle, language = 'en', namespace?: string) =>
  (
    await browserExtensionJson.serialize(bundle, { languages: [{ key: language }], options: new Set(), namespace })
  ).toString('utf8');

async function formatError(promise: Promise<unknown>): Promise<FormatError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormatError);
  return error as FormatError;
}

const MESSAGES = `{
  "extensionName": {
    "message": "Notify!",
    "description": "Name of the extension."
  },
  "notificationContent": {
    "message": "You clicked $URL$ at $TIME$, cost $$5",
    "description": "Tells the user which link they clicked.",
    "placeholders": {
      "url": { "content": "$1", "example": "https://developer.mozilla.org" },
      "time": { "content": "$2" }
    }
  },
  "plural": {
    "message": "{count, plural, one {# tab} other {# tabs}}"
  },
  "empty": { "message": "" }
}
`;

describe('browser-extension-json', () => {
  it('reads messages, descriptions and placeholders', async () => {
    const b = await parse(MESSAGES, 'de', 'popup');
    expect(b.languages).toEqual([{ key: 'de' }]);
    expect(b.keys).toEqual([
      {
        key: 'extensionName',
        namespace: 'popup',
        description: 'Name of the extension.',
        translations: { de: { text: 'Notify!' } },
      },
      {
        key: 'notificationContent',
        namespace: 'popup',
        description: 'Tells the user which link they clicked.',
        codeDescription: '{"url":{"content":"$1","example":"https://developer.mozilla.org"},"time":{"content":"$2"}}',
        translations: { de: { text: 'You clicked $URL$ at $TIME$, cost $$5' } },
      },
      {
        key: 'plural',
        namespace: 'popup',
        translations: { de: { text: '{count, plural, one {# tab} other {# tabs}}' } },
      },
      { key: 'empty', namespace: 'popup', translations: { de: { text: '' } } },
    ]);
  });

  it('round-trips messages, descriptions and placeholders unchanged', async () => {
    const b = await parse(MESSAGES);
    const out = await serialize(b);
    expect(JSON.parse(out)).toEqual(JSON.parse(MESSAGES));
    expect(await parse(out)).toEqual(b);
  });

  it('writes "" for a missing translation and ignores a codeDescription that is not placeholders JSON', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }, { key: 'fr' }],
      keys: [
        { key: 'a', namespace: '', codeDescription: 'used in popup.js', translations: { fr: { text: 'Bonjour' } } },
        { key: 'b', namespace: '', codeDescription: '{"not": "placeholders"}', translations: { en: { text: 'B' } } },
        { key: 'c', namespace: '', codeDescription: '{"broken json', translations: { en: { text: 'C' } } },
      ],
    };
    expect(JSON.parse(await serialize(b))).toEqual({ a: { message: '' }, b: { message: 'B' }, c: { message: 'C' } });
    expect(await serialize({ languages: [], keys: [] })).toBe('{}\n');
  });

  it('writes the namespace of a split export, and otherwise of two same-named keys the one of the namespace first in code-point order', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: [
        { key: 'title', namespace: 'popup', translations: { en: { text: 'Popup' } } },
        { key: 'title', namespace: 'options', translations: { en: { text: 'Options' } } },
        { key: '10', namespace: 'options', translations: { en: { text: 'ten' } } },
      ],
    };
    expect(JSON.parse(await serialize(b, 'en', 'popup'))).toEqual({ title: { message: 'Popup' } });
    const all = await serialize(b);
    expect(JSON.parse(all)).toEqual({ title: { message: 'Options' }, '10': { message: 'ten' } });
    // Written in the given order, even for numeric names.
    expect(all.indexOf('"title"')).toBeLessThan(all.indexOf('"10"'));
  });

  it.each([
    ['[]', /JSON object of messages/],
    ['{"a": "text"}', /"a" must be an object such as \{"message": "text"\}/],
    ['{"a": {"description": "no message"}}', /"a\.message" must be a string/],
    ['{"a": {"message": 5}}', /"a\.message" must be a string/],
    ['{"a": {"message": "x", "description": 1}}', /"a\.description" must be a string/],
    ['{"a": {"message": "x", "placeholders": []}}', /"a\.placeholders" must be an object/],
    ['{\n  "a": {"message": "x"},\n  "b": \n}', /line 4, column 1/],
  ])('refuses %s', async (source, message) => {
    expect((await formatError(parse(source))).message).toMatch(message);
  });

  it('refuses deep nesting and keeps __proto__ as an ordinary key', async () => {
    await formatError(
      parse('{"a": {"message": "x", "placeholders": ' + '{"p": '.repeat(100_000) + '1' + '}'.repeat(100_000) + '}}'),
    );
    const b = await parse('{"__proto__": {"message": "x", "placeholders": {"__proto__": {"content": "$1"}}}}');
    expect(b.keys.map((k) => k.key)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).message).toBeUndefined();
    expect(JSON.parse(await serialize(b))).toEqual(
      JSON.parse('{"__proto__": {"message": "x", "placeholders": {"__proto__": {"content": "$1"}}}}'),
    );
  });
});
