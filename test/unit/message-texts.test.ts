// The service's messages as data (src/message-text.ts): the catalogues of
// English texts (checks, jobs, refusals) word them, and the console's English
// file has the same texts under `server` (web/src/locales/en.json), so the
// console words a message as the service does, and in German from de.json
// (console-locales.test.ts checks that de.json has the same keys and placeholders).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wordInEnglish } from '../../src/message-text.js';
import { CHECK_MESSAGES, problem } from '../../src/checks/messages.js';
import { CHECKS, runChecks } from '../../src/checks/index.js';
import { JOB_MESSAGES } from '../../src/jobs/messages.js';
import { ERROR_MESSAGES } from '../../src/error-messages.js';
import { conflict, said } from '../../src/errors.js';

const en = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'web', 'src', 'locales', 'en.json'), 'utf8'),
) as { server: Record<string, unknown> };

/** The texts below a node of en.json, by their dotted path. */
function flat(node: unknown, path: string[] = [], out: Record<string, string> = {}): Record<string, string> {
  if (typeof node === 'string') out[path.join('.')] = node;
  else for (const [name, value] of Object.entries(node as object)) flat(value, [...path, name], out);
  return out;
}

describe("the console's English texts of the service's messages", () => {
  const server = flat(en.server);
  const under = (area: string) =>
    Object.fromEntries(
      Object.entries(server)
        .filter(([key]) => key.startsWith(`${area}.`))
        .map(([key, text]) => [key.slice(area.length + 1), text]),
    );

  it('are the checks’ messages and titles', () => {
    const texts = under('checks');
    const titles = Object.fromEntries(CHECKS.map((c) => [`${c.id}.title`, c.title]));
    expect(texts).toEqual({ ...CHECK_MESSAGES, ...titles });
  });

  it('are the jobs’ messages', () => {
    expect(under('jobs')).toEqual({ ...JOB_MESSAGES });
  });

  it('are the refusals’ messages, and one text per error code for the others', () => {
    const texts = under('errors');
    const byCode = Object.keys(texts).filter((key) => key.startsWith('code.'));
    expect(byCode.length).toBeGreaterThan(5);
    for (const key of byCode) expect(texts[key]).toBe('{{message}}');
    const own = Object.fromEntries(
      Object.entries(texts).filter(([key]) => !key.startsWith('code.') && key !== 'network'),
    );
    expect(own).toEqual({ ...ERROR_MESSAGES });
  });
});

describe('wordInEnglish', () => {
  it('fills the placeholders, picks the plural form by count and words a message given as a value', () => {
    expect(problem('markup-tags.missing', { count: 1, tags: '<b>' }).message).toBe(
      "Missing tag <b>: keep the source's markup",
    );
    expect(problem('markup-tags.missing', { count: 2, tags: '<b> <i>' }).message).toBe(
      "Missing tags <b> <i>: keep the source's markup",
    );
    expect(conflict(said('key-exists', { key: said('key-in-namespace', { key: 'a', namespace: 'n' }) })).message).toBe(
      "key 'a' in namespace 'n' already exists",
    );
    expect(() => wordInEnglish(CHECK_MESSAGES, { id: 'no-such.message', params: {} })).toThrow(/no-such/);
  });

  it("gives a check's finding its message as data, worded as the finding's message", () => {
    const [finding] = runChecks({ source: 'Hello.', target: 'Hallo!', sourceLanguage: 'en', targetLanguage: 'de' });
    expect(finding!.text).toEqual({
      id: 'end-punctuation.differs',
      params: {
        source: { id: 'end-punctuation.mark.stop', params: {} },
        target: { id: 'end-punctuation.mark.exclamation', params: {} },
        language: 'de',
      },
    });
    expect(wordInEnglish(CHECK_MESSAGES, finding!.text!)).toBe(finding!.message);
  });

  it('gives a refusal its message as data in the GraphQL extensions', () => {
    const error = conflict(said('language-exists', { language: 'de' }));
    expect(error.message).toBe("language 'de' already exists");
    expect(error.extensions).toEqual({
      code: 'CONFLICT',
      messageText: { id: 'language-exists', params: { language: 'de' } },
    });
  });
});
