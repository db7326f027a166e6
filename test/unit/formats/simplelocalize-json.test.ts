import { describe, expect, it } from 'vitest';
import { FormatError, type Bundle, type ExportOption } from '../../../src/formats/model.js';
import { simplelocalizeJson } from '../../../src/formats/simplelocalize-json.js';

const parse = (source: unknown, languageKey: string | undefined = 'en', namespace?: string) =>
  simplelocalizeJson.parse(Buffer.from(typeof source === 'string' ? source : JSON.stringify(source)), {
    languageKey,
    namespace,
    options: new Set(),
  });
const serialize = async (bundle: Bundle, language: string, options: ExportOption[] = [], namespace?: string) =>
  (
    await simplelocalizeJson.serialize(bundle, { languages: [{ key: language }], options: new Set(options), namespace })
  ).toString('utf8');

async function formatError(promise: Promise<unknown>): Promise<FormatError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FormatError);
  return error as FormatError;
}

describe('simplelocalize-json: import (FormatJS style, one language per file)', () => {
  it('reads {"key": {"message": …}} into the languageKey', async () => {
    const b = await parse(
      {
        'home.title': { message: 'Welcome, {name}!' },
        'cart.items': { message: '{count, plural, one {# item} other {# items}}' },
      },
      'pl',
      'web',
    );
    expect(b).toEqual({
      languages: [{ key: 'pl' }],
      keys: [
        { key: 'home.title', namespace: 'web', translations: { pl: { text: 'Welcome, {name}!' } } },
        {
          key: 'cart.items',
          namespace: 'web',
          translations: { pl: { text: '{count, plural, one {# item} other {# items}}' } },
        },
      ],
    });
  });

  it('reads FormatJS extract output: defaultMessage, description as the code description, source locations ignored', async () => {
    const extracted = {
      'app.greeting': {
        defaultMessage: 'Hello {name}',
        description: 'Greeting on the dashboard',
        file: 'src/App.tsx',
        start: 120,
        end: 188,
        line: 7,
        col: 4,
      },
      'app.object': { defaultMessage: 'Hi', description: { context: 'menu', maxLength: 10 } },
    };
    const b = await parse(extracted);
    expect(b.keys).toEqual([
      {
        key: 'app.greeting',
        namespace: '',
        codeDescription: 'Greeting on the dashboard',
        translations: { en: { text: 'Hello {name}' } },
      },
      {
        key: 'app.object',
        namespace: '',
        codeDescription: '{"context":"menu","maxLength":10}',
        translations: { en: { text: 'Hi' } },
      },
    ]);
  });

  it('reads charactersLimit and tags; message wins over defaultMessage; a key without a text has no translation', async () => {
    const b = await parse({
      a: { message: 'Translated', defaultMessage: 'Source', charactersLimit: 40, tags: ['web', 'checkout'] },
      b: { description: 'Only described' },
      c: { message: null, charactersLimit: null, tags: [] },
    });
    expect(b.keys).toEqual([
      {
        key: 'a',
        namespace: '',
        charactersLimit: 40,
        tags: ['web', 'checkout'],
        translations: { en: { text: 'Translated' } },
      },
      { key: 'b', namespace: '', codeDescription: 'Only described', translations: {} },
      { key: 'c', namespace: '', charactersLimit: null, translations: {} },
    ]);
  });

  it('refuses other shapes with a message that shows the expected one', async () => {
    const flat = (await formatError(parse({ 'home.title': 'Welcome' }))).message;
    expect(flat).toContain('the value of "home.title" must be an object, {"key": {"message": "…"}}');
    expect(flat).toContain('single-language-json');
    expect((await formatError(parse('[]'))).message).toContain('the file must be an object of keys');
    expect((await formatError(parse({ a: { message: 3 } }))).message).toContain('"a".message must be a string');
    expect((await formatError(parse({ a: { defaultMessage: ['x'] } }))).message).toContain(
      '"a".defaultMessage must be a string',
    );
    expect((await formatError(parse({ a: { message: 'x', charactersLimit: -1 } }))).message).toContain(
      '"a".charactersLimit must be a whole number',
    );
    expect((await formatError(parse({ a: { message: 'x', tags: 'web' } }))).message).toContain(
      '"a".tags must be an array of texts',
    );
    expect((await formatError(parse({ a: { message: 'x', description: 5 } }))).message).toContain(
      '"a".description must be a string',
    );
    expect((await formatError(parse({ a: { message: 'x' } }, ''))).message).toContain('languageKey is required');
  });

  it('keeps the hostile-input limits of every JSON format', async () => {
    expect((await formatError(parse(`{"a": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`))).message).toMatch(
      /deeper than 64/,
    );
    const b = await parse('{"__proto__": {"message": "x"}}');
    expect(b.keys.map((k) => k.key)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).message).toBeUndefined();
  });
});

describe('simplelocalize-json: export', () => {
  const bundle: Bundle = {
    languages: [{ key: 'en' }, { key: 'de' }],
    keys: [
      {
        key: 'home.title',
        namespace: '',
        description: 'for translators',
        codeDescription: 'Dashboard title',
        charactersLimit: 30,
        tags: ['web'],
        translations: { en: { text: "It's {name}'s home" }, de: { text: 'Start' } },
      },
      {
        key: 'cart.items',
        namespace: '',
        translations: { en: { text: '{count, plural, one {# item} other {# items}}' } },
      },
    ],
  };

  it('writes {"key": {"message", "description"?, "charactersLimit"?, "tags"?}} for one language, "" when missing', async () => {
    const de = await serialize(bundle, 'de');
    expect(de).toBe(
      `${JSON.stringify(
        {
          'home.title': { message: 'Start', description: 'Dashboard title', charactersLimit: 30, tags: ['web'] },
          'cart.items': { message: '' },
        },
        null,
        2,
      )}\n`,
    );
    expect(await serialize({ keys: [], languages: [] }, 'en')).toBe('{}\n');
  });

  it('round-trips texts, code descriptions, limits and tags', async () => {
    const back = await parse(await serialize(bundle, 'en'), 'en');
    expect(back.keys).toEqual([
      {
        key: 'home.title',
        namespace: '',
        codeDescription: 'Dashboard title',
        charactersLimit: 30,
        tags: ['web'],
        translations: { en: { text: "It's {name}'s home" } },
      },
      {
        key: 'cart.items',
        namespace: '',
        translations: { en: { text: '{count, plural, one {# item} other {# items}}' } },
      },
    ]);
  });

  it('ESCAPE_SINGLE_QUOTES escapes apostrophes of the message only', async () => {
    const out = JSON.parse(await serialize(bundle, 'en', ['ESCAPE_SINGLE_QUOTES']));
    expect(out['home.title'].message).toBe("It\\'s {name}\\'s home");
  });

  it('writes one namespace of a split export; unsplit, the key of the first namespace', async () => {
    const b: Bundle = {
      languages: [{ key: 'en' }],
      keys: [
        { key: 'title', namespace: 'web', translations: { en: { text: 'Web' } } },
        { key: 'title', namespace: 'app', translations: { en: { text: 'App' } } },
      ],
    };
    expect(JSON.parse(await serialize(b, 'en', [], 'web'))).toEqual({ title: { message: 'Web' } });
    expect(JSON.parse(await serialize(b, 'en'))).toEqual({ title: { message: 'App' } });
  });
});
