// The key rules (src/content/keys/input.ts) hold on every path that creates keys
// (src/content/keys/create.ts): REST v1 key creation, GraphQL createTranslationKey,
// v1 POST translations, v1 PATCH translations with CREATE_KEY_IF_NOT_FOUND and
// file import. Each path reports a broken key its own way (400, GraphQL error,
// v1 warning or failure, import refused as a whole); none creates it. Text no
// key can hold (NUL, half a surrogate pair) is refused at the edge (src/http/input-text.ts): the bulk
// paths answer 400 for the whole request instead of a warning for the item.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { importRequest } from '../support/transfer.js';

let service: TestService;
let api: ProjectApi;

beforeAll(async () => {
  service = await startTestService();
  api = await projectApi(service, await service.account(), 'Key rules');
});
afterAll(() => service.close());

const CASES: { name: string; key: string; namespace?: string; problem: RegExp; edge?: boolean }[] = [
  { name: 'a key over 500 characters', key: 'k'.repeat(501), problem: /key\b.*must have at most 500 characters/ },
  { name: 'a blank key', key: '   ', problem: /key is required|key is empty|empty name/ },
  { name: 'a key holding U+0000', key: 'a\u0000b', problem: /NUL character/, edge: true },
  { name: 'a key holding half a surrogate pair', key: 'a\uD800b', problem: /surrogate pair/, edge: true },
  {
    name: 'a namespace holding U+0000',
    key: 'fine',
    namespace: 'n\u0000s',
    problem: /namespace contains a NUL character/,
    edge: true,
  },
  {
    name: 'a namespace over 128 characters',
    key: 'fine',
    namespace: 'n'.repeat(129),
    problem: /namespace must have at most 128 characters/,
  },
];

describe.each(CASES)('$name', ({ key, namespace, problem, edge }) => {
  it('is refused by every path, and no key is created', async () => {
    const v1Key = await api.post('/api/v1/translation-keys', { key, namespace });
    expect(v1Key.status).toBe(400);
    expect(v1Key.msg).toMatch(problem);

    const gql = await api.gql(
      'mutation ($input: CreateTranslationKeyInput!) { createTranslationKey(input: $input) { key } }',
      { input: { key, namespace } },
    );
    expect(gql.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(gql.errors?.[0]?.message).toMatch(problem);

    const v1Post = await api.post('/api/v1/translations', { content: [{ key, namespace, language: 'en', text: 'x' }] });
    const v1Patch = await api.patch('/api/v1/translations?updateOptions=CREATE_KEY_IF_NOT_FOUND', {
      content: [{ key, namespace, language: 'en', text: 'x' }],
    });
    if (edge) {
      for (const answer of [v1Post, v1Patch]) {
        expect(answer.status).toBe(400);
        expect(answer.msg).toMatch(new RegExp(`content\\[0\\]\\.[^;]*(${problem.source})`));
      }
    } else {
      expect(v1Post.status).toBe(200);
      expect(v1Post.data.message).toMatch(new RegExp(`content\\[0\\]: [^;]*(${problem.source})`));
      expect(v1Patch.status).toBe(200);
      expect(v1Patch.data.failures).toEqual([
        expect.stringMatching(new RegExp(`content\\[0\\]: [^;]*(${problem.source})`)),
      ]);
    }

    const imported = await importRequest(service, api.apiKey, JSON.stringify({ [key]: 'x' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      ...(namespace ? { namespace } : {}),
    });
    expect(imported.statusCode).toBe(400);
    expect(envelope(imported).msg).toMatch(problem);

    expect((await api.counters()).keys).toBe(0);
  });
});
