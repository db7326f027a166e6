import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeSql } from '../../src/db/client.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';

let service: TestService;
let account: TestAccount;
let api: ProjectApi;

beforeAll(async () => {
  service = await startTestService();
  account = await service.account();
  api = await projectApi(service, account, 'GraphQL content');
});
afterAll(() => service.close());

/** Runs a GraphQL operation and returns its data, failing on errors. */
const run = async (query: string, variables?: Record<string, unknown>) => {
  const result = await api.gql(query, variables);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data;
};
const errorCode = async (query: string, variables?: Record<string, unknown>) => {
  const result = await api.gql(query, variables);
  return { code: result.errors?.[0]?.extensions?.code, message: result.errors?.[0]?.message };
};

describe('languages', () => {
  it('creates, lists, renames, makes default and deletes', async () => {
    expect(
      (await run('mutation { createLanguage(input: {key: "de", name: "German"}) { key name isDefault order } }'))
        .createLanguage,
    ).toEqual({ key: 'de', name: 'German', isDefault: false, order: 1 });
    await run('mutation { createLanguage(input: {key: "fr"}) { key } }');
    const renamed = await run(
      'mutation { updateLanguage(key: "fr", input: {key: "fr-FR", name: "French", isDefault: true}) { key name isDefault } }',
    );
    expect(renamed.updateLanguage).toEqual({ key: 'fr-FR', name: 'French', isDefault: true });
    expect((await run('{ languages { key isDefault } }')).languages).toEqual([
      { key: 'en', isDefault: false },
      { key: 'de', isDefault: false },
      { key: 'fr-FR', isDefault: true },
    ]);
    expect(await run('mutation { deleteLanguage(key: "fr-FR") }')).toEqual({ deleteLanguage: true });
    expect((await run('{ languages { key isDefault } }')).languages).toEqual([
      { key: 'en', isDefault: true },
      { key: 'de', isDefault: false },
    ]);
  });

  it('reports failures with their code', async () => {
    expect(await errorCode('mutation { createLanguage(input: {key: "de"}) { key } }')).toEqual({
      code: 'CONFLICT',
      message: "language 'de' already exists",
    });
    // The schema requires the key; the domain refuses an empty one.
    expect((await errorCode('mutation { createLanguage(input: {name: "x"}) { key } }')).code).toBe(
      'GRAPHQL_VALIDATION_FAILED',
    );
    expect(await errorCode('mutation { createLanguage(input: {key: "", name: "x"}) { key } }')).toEqual({
      code: 'BAD_REQUEST',
      message: 'key is required',
    });
    expect((await errorCode('mutation { deleteLanguage(key: "zz") }')).code).toBe('NOT_FOUND');
  });
});

describe('customers', () => {
  it('creates, reads, renames and deletes', async () => {
    await run('mutation { createCustomer(input: {key: "acme", description: "Acme"}) { key } }');
    expect((await run('{ customer(key: "acme") { key description } }')).customer).toEqual({
      key: 'acme',
      description: 'Acme',
    });
    await run('mutation { updateCustomer(key: "acme", input: {key: "acme-inc"}) { key } }');
    expect((await run('{ customers { key description } }')).customers).toEqual([
      { key: 'acme-inc', description: 'Acme' },
    ]);
    await run('mutation { createCustomer(input: {key: "gone"}) { key } }');
    expect(await run('mutation { deleteCustomer(key: "gone") }')).toEqual({ deleteCustomer: true });
    expect((await errorCode('{ customer(key: "gone") { key } }')).code).toBe('NOT_FOUND');
  });
});

describe('translation keys', () => {
  it('creates, updates and reads a key', async () => {
    const created = await run(
      `mutation($input: CreateTranslationKeyInput!) { createTranslationKey(input: $input) { key namespace tags charactersLimit lock deprecated deprecatedAt } }`,
      { input: { key: 'title', namespace: 'home', tags: ['ui'], charactersLimit: 10 } },
    );
    expect(created.createTranslationKey).toEqual({
      key: 'title',
      namespace: 'home',
      tags: ['ui'],
      charactersLimit: 10,
      lock: false,
      deprecated: false,
      deprecatedAt: null,
    });
    const updated = await run(
      `mutation { updateTranslationKey(key: "title", namespace: "home", input: {description: "Page title", charactersLimit: -1, deprecated: true}) { description charactersLimit deprecated deprecatedAt } }`,
    );
    expect(updated.updateTranslationKey).toMatchObject({
      description: 'Page title',
      charactersLimit: null,
      deprecated: true,
    });
    expect(updated.updateTranslationKey.deprecatedAt).toEqual(expect.any(String));
    expect(
      (await run('{ translationKey(key: "title", namespace: "home") { key description } }')).translationKey,
    ).toEqual({ key: 'title', description: 'Page title' });
    expect(
      (await errorCode('mutation { createTranslationKey(input: {key: "title", namespace: "home"}) { key } }')).code,
    ).toBe('CONFLICT');
    expect((await errorCode('mutation { updateTranslationKey(key: "nope", input: {}) { key } }')).code).toBe(
      'NOT_FOUND',
    );
  });

  it('lists keys as a relay connection with filters, sorts, cursors and a total count', async () => {
    await run(`mutation($c: [TranslationElementInput!]!) { importTranslations(content: $c) { uniqueKeysProcessed } }`, {
      c: ['k1', 'k2', 'k3', 'k4', 'k5'].map((key) => ({ key, language: 'en', text: key.toUpperCase() })),
    });
    const first = await run(
      '{ translationKeys(first: 2, filter: {namespace: ""}) { totalCount edges { cursor node { key } } pageInfo { hasNextPage endCursor } } }',
    );
    expect(first.translationKeys.totalCount).toBe(5);
    expect(first.translationKeys.edges.map((e: any) => e.node.key)).toEqual(['k1', 'k2']);
    expect(first.translationKeys.pageInfo.hasNextPage).toBe(true);
    const next = await run(
      'query($after: String) { translationKeys(first: 10, after: $after, filter: {namespace: ""}) { edges { node { key } } pageInfo { hasNextPage } } }',
      { after: first.translationKeys.pageInfo.endCursor },
    );
    expect(next.translationKeys.edges.map((e: any) => e.node.key)).toEqual(['k3', 'k4', 'k5']);
    expect(next.translationKeys.pageInfo.hasNextPage).toBe(false);
    await run('mutation { updateTranslationKey(key: "k2", input: {}) { key } }');
    const bySeen = await run('{ translationKeys(first: 1, sort: LAST_SEEN_AT) { edges { node { key } } } }');
    expect(bySeen.translationKeys.edges[0].node.key).toBe('k2');
    const filtered = await run(
      '{ translationKeys(filter: {key: "title", namespace: "home"}) { totalCount edges { node { key namespace } } } }',
    );
    expect(filtered.translationKeys).toEqual({ totalCount: 1, edges: [{ node: { key: 'title', namespace: 'home' } }] });
    const page = await run(
      '{ translationKeyPage(page: 1, size: 2, filter: {namespace: ""}) { content { key } page { number size totalElements totalPages } } }',
    );
    expect(page.translationKeyPage).toEqual({
      content: [{ key: 'k3' }, { key: 'k4' }],
      page: { number: 1, size: 2, totalElements: 5, totalPages: 3 },
    });
  });

  it('deletes one key and several keys', async () => {
    expect(await run('mutation { deleteTranslationKey(key: "k5") }')).toEqual({ deleteTranslationKey: true });
    expect(
      await run('mutation { deleteTranslationKeys(translationKeys: [{key: "k4"}, {key: "k3", namespace: ""}]) }'),
    ).toEqual({ deleteTranslationKeys: 2 });
    expect((await run('{ translationKeys(filter: {namespace: ""}) { totalCount } }')).translationKeys.totalCount).toBe(
      2,
    );
    expect(
      (await errorCode('mutation { deleteTranslationKeys(translationKeys: [{key: "k1"}, {key: "k9"}]) }')).code,
    ).toBe('NOT_FOUND');
    expect((await run('{ translationKeys(filter: {namespace: ""}) { totalCount } }')).translationKeys.totalCount).toBe(
      2,
    );
  });
});

describe('translations', () => {
  it('reads cells per key, per language and through a customer', async () => {
    await run(
      'mutation { updateTranslation(input: {key: "k1", language: "de", text: "K1 de", reviewStatus: REVIEWED}) { text } }',
    );
    await run(
      'mutation { updateTranslation(input: {key: "k1", language: "en", customerKey: "acme-inc", text: "Acme K1"}) { text } }',
    );
    const key = await run(`{ translationKey(key: "k1") {
      all: translations { language text reviewStatus isOverride customerKey }
      de: translations(languages: ["de"]) { text }
      acme: translations(customerKey: "acme-inc") { language text isOverride customerKey }
    } }`);
    expect(key.translationKey.all).toEqual([
      { language: 'en', text: 'K1', reviewStatus: 'NOT_REVIEWED', isOverride: false, customerKey: null },
      { language: 'de', text: 'K1 de', reviewStatus: 'REVIEWED', isOverride: false, customerKey: null },
    ]);
    expect(key.translationKey.de).toEqual([{ text: 'K1 de' }]);
    expect(key.translationKey.acme).toEqual([
      { language: 'en', text: 'Acme K1', isOverride: true, customerKey: 'acme-inc' },
      { language: 'de', text: 'K1 de', isOverride: false, customerKey: 'acme-inc' },
    ]);
    const german = await run(
      '{ translations(filter: {language: "de", textStatus: NOT_EMPTY}) { key text } translationCount(filter: {language: "de"}) }',
    );
    expect(german).toEqual({ translations: [{ key: 'k1', text: 'K1 de' }], translationCount: 3 });
    expect(await errorCode('{ translations(size: 501) { key } }')).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/size/),
    });
  });

  it('bulk-updates with failures reported as data', async () => {
    const result = await run(
      `mutation($c: [TranslationElementInput!]!) { updateTranslations(content: $c, options: [CREATE_KEY_IF_NOT_FOUND]) { numberOfUpdates numberOfInserts numberOfFailures failures } }`,
      {
        c: [
          { key: 'k1', language: 'en', text: 'K1!' },
          { key: 'new', language: 'de', text: 'Neu' },
          { key: 'k2', language: 'xx', text: 'x' },
        ],
      },
    );
    expect(result.updateTranslations).toEqual({
      numberOfUpdates: 1,
      numberOfInserts: 1,
      numberOfFailures: 1,
      failures: ["content[2]: language 'xx' is not in the project"],
    });
  });
});

describe('access', () => {
  it('an account reaches a member project by projectToken, never another one', async () => {
    const gql = (who: TestAccount, query: string) =>
      service
        .request({
          method: 'POST',
          url: '/graphql',
          headers: { authorization: who.token, 'content-type': 'application/json' },
          payload: { query },
        })
        .then((r) => r.json());
    const own = await gql(
      account,
      `{ translationKeys(projectToken: "${api.projectToken}", filter: {key: "k1"}) { totalCount } languages(projectToken: "${api.projectToken}") { key } }`,
    );
    expect(own.data).toEqual({ translationKeys: { totalCount: 1 }, languages: [{ key: 'en' }, { key: 'de' }] });
    const stranger = await service.account();
    for (const query of [
      `{ languages(projectToken: "${api.projectToken}") { key } }`,
      `{ translations(projectToken: "${api.projectToken}") { key } }`,
      `mutation { createTranslationKey(projectToken: "${api.projectToken}", input: {key: "intruder"}) { key } }`,
      `mutation { deleteLanguage(projectToken: "${api.projectToken}", key: "de") }`,
    ]) {
      expect((await gql(stranger, query)).errors[0].extensions.code).toBe('NOT_FOUND');
    }
    const other = await projectApi(service, stranger, 'Stranger');
    const viaKey = await other.gql(`{ translationKeys(projectToken: "${api.projectToken}") { totalCount } }`);
    expect(viaKey.errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await other.gql('{ translationKeys { totalCount } }')).data.translationKeys.totalCount).toBe(0);
  });
});

describe('reading keys with their translations', () => {
  it('costs the same number of SQL statements for 10 and 100 keys in 10 languages', async () => {
    const reader = await projectApi(service, account, 'N+1');
    const languages = ['de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'pl', 'cs'];
    const content = Array.from({ length: 100 }, (_, i) =>
      ['en', ...languages].map((language) => ({
        key: `key.${String(i).padStart(3, '0')}`,
        language,
        text: `${language} ${i}`,
      })),
    ).flat();
    expect((await reader.post('/api/v1/translations', { content })).status).toBe(200);
    await reader.post('/api/v1/customers', { key: 'acme' });
    await reader.patch('/api/v1/translations', {
      content: [{ key: 'key.005', language: 'de', customerId: 'acme', text: 'Acme 5' }],
    });
    const query = `query($n: Int) { translationKeys(first: $n) { totalCount edges { node { key namespace
      translations { language text reviewStatus lastModifiedAt }
      acme: translations(customerKey: "acme") { text isOverride } } } } }`;
    const statementsFor = async (n: number) => {
      const statements: string[] = [];
      let data: any;
      await observeSql(
        (sql) => statements.push(sql),
        async () => {
          data = await reader.gql(query, { n });
        },
      );
      expect(data.errors).toBeUndefined();
      const edges = data.data.translationKeys.edges;
      expect(edges).toHaveLength(n);
      expect(edges.every((e: any) => e.node.translations.length === 10 && e.node.acme.length === 10)).toBe(true);
      return { count: statements.length, edges };
    };
    const ten = await statementsFor(10);
    const hundred = await statementsFor(100);
    expect(ten.count).toBeGreaterThan(0);
    expect(hundred.count).toBe(ten.count);
    expect(hundred.count).toBeLessThanOrEqual(6);
    expect(hundred.edges[5].node.acme[1]).toEqual({ text: 'Acme 5', isOverride: true });
    expect(hundred.edges[99].node.translations[9]).toMatchObject({ language: 'cs', text: 'cs 99' });
  });

  it("reads a page of keys with their cells in one statement, the same cells as each key's own read", async () => {
    const reader = await projectApi(service, account, 'Keys with cells');
    for (const key of ['ja', 'de', 'fr'])
      await reader.gql(`mutation { createLanguage(input: {key: "${key}"}) { key } }`);
    // Languages out of their creation order, cells written, reviewed, empty and never written.
    expect((await reader.gql('mutation { setLanguageOrder(keys: ["fr"]) { key } }')).errors).toBeUndefined();
    const content = Array.from({ length: 12 }, (_, i) => [
      { key: `cell.${i}`, namespace: i % 3 ? '' : 'ns', language: 'en', text: `en ${i} "quoted" \\ ✓` },
      ...(i % 2 ? [{ key: `cell.${i}`, namespace: i % 3 ? '' : 'ns', language: 'de', text: `de ${i}` }] : []),
    ]).flat();
    // A key without any translation row, registered last.
    content.push({ key: 'cell.bare', namespace: '', language: 'en' } as (typeof content)[number]);
    expect((await reader.post('/api/v1/translations', { content })).status).toBe(200);
    await reader.gql(
      'mutation { updateTranslation(input: {key: "cell.1", language: "de", text: "reviewed", reviewStatus: REVIEWED}) { text } }',
    );
    // A cell emptied: its row stays, with an empty text.
    await reader.gql('mutation { updateTranslation(input: {key: "cell.4", language: "en", text: ""}) { text } }');
    const cells = 'language text reviewStatus lastModifiedAt isOverride customerKey';
    const seen = new Map<string, any[]>();
    for (const page of ['first: 5', 'last: 5', 'first: 13, sort: MODIFIED_AT']) {
      const statements: string[] = [];
      let listed: any;
      await observeSql(
        (sql) => statements.push(/^\/\* ([\w:-]+) \*\//.exec(sql)?.[1] ?? sql.slice(0, 40)),
        async () => {
          listed = await reader.gql(
            `{ translationKeys(${page}) { edges { node { key namespace translations { ${cells} } } } } }`,
          );
        },
      );
      expect(listed.errors).toBeUndefined();
      expect(statements, page).toEqual(['keys:connection-end-extra']);
      for (const { node } of listed.data.translationKeys.edges) {
        const own = await reader.gql(
          `query($k: String!, $n: String) { translationKey(key: $k, namespace: $n) { translations { ${cells} } } }`,
          { k: node.key, n: node.namespace },
        );
        expect(node.translations, node.key).toEqual(own.data.translationKey.translations);
        expect(node.translations.map((c: any) => c.language)).toEqual(['fr', 'en', 'ja', 'de']);
        seen.set(node.key, node.translations);
      }
    }
    // The pages held the key without rows and the emptied cell.
    expect(seen.get('cell.bare')!.map((c) => [c.text, c.reviewStatus, c.lastModifiedAt])).toEqual(
      Array(4).fill(['', 'NOT_REVIEWED', null]),
    );
    expect(seen.get('cell.4')![1]).toMatchObject({ language: 'en', text: '' });
    expect(seen.get('cell.4')![1].lastModifiedAt).not.toBeNull();
    const reviewed = await reader.gql(
      '{ translationKeys(first: 2) { edges { node { translations { text reviewStatus lastModifiedAt } } } } }',
    );
    const german = reviewed.data.translationKeys.edges[1].node.translations[3];
    expect(german).toMatchObject({ text: 'reviewed', reviewStatus: 'REVIEWED' });
    expect(Math.abs(Date.parse(german.lastModifiedAt) - Date.now())).toBeLessThan(60_000);
    expect(reviewed.data.translationKeys.edges[0].node.translations[2]).toEqual({
      text: '',
      reviewStatus: 'NOT_REVIEWED',
      lastModifiedAt: null,
    });
  });

  it("reads only the cells' columns its nodes select, whatever the aliases, fragments and other fields", async () => {
    const reader = await projectApi(service, account, 'Keys with some columns');
    await reader.gql('mutation { createLanguage(input: {key: "de"}) { key } }');
    const content = Array.from({ length: 4 }, (_, i) => [
      { key: `col.${i}`, language: 'en', text: `en ${i}` },
      ...(i % 2 ? [{ key: `col.${i}`, language: 'de', text: `de ${i}` }] : []),
    ]).flat();
    expect((await reader.post('/api/v1/translations', { content })).status).toBe(200);
    await reader.gql(
      'mutation { updateTranslation(input: {key: "col.1", language: "de", text: "checked", reviewStatus: REVIEWED}) { text } }',
    );
    const own = async (key: string) =>
      (
        await reader.gql(
          'query($k: String!) { translationKey(key: $k) { translations { language text reviewStatus lastModifiedAt } } }',
          { k: key },
        )
      ).data.translationKey.translations as Record<string, unknown>[];
    const pick = (cells: Record<string, unknown>[], fields: string[]) =>
      cells.map((cell) => Object.fromEntries(fields.map((f) => [f, cell[f]])));
    const cases: {
      query: string;
      variables?: Record<string, unknown>;
      columns: string[];
      check(node: any, cells: any[]): void;
    }[] = [
      {
        query: '{ translationKeys(first: 4) { edges { node { key translations { language text } } } } }',
        columns: ['text'],
        check: (node, cells) => expect(node.translations).toEqual(pick(cells, ['language', 'text'])),
      },
      {
        // Aliases, a named and an inline fragment, and a customer's view whose customerKey is null when it runs.
        query: `query($c: String) { translationKeys(first: 4) { edges { node { key
            a: translations { text }
            ... on TranslationKey { b: translations { ...status } }
            c: translations(customerKey: $c) { language lastModifiedAt } } } } }
          fragment status on Translation { reviewStatus }`,
        variables: { c: null },
        columns: ['text', 'reviewStatus', 'lastModifiedAt'],
        check: (node, cells) => {
          expect(node.a).toEqual(pick(cells, ['text']));
          expect(node.b).toEqual(pick(cells, ['reviewStatus']));
          expect(node.c).toEqual(pick(cells, ['language', 'lastModifiedAt']));
        },
      },
    ];
    for (const { query, variables, columns, check } of cases) {
      const statements: string[] = [];
      let listed: any;
      await observeSql(
        (sql) => statements.push(sql),
        async () => {
          listed = await reader.gql(query, variables);
        },
      );
      expect(listed.errors).toBeUndefined();
      expect(statements.map((sql) => /^\/\* ([\w:-]+) \*\//.exec(sql)?.[1])).toEqual(['keys:connection-end-extra']);
      for (const column of ['text', 'reviewStatus', 'lastModifiedAt'])
        expect(statements[0]!.includes(`t."${column}"`), column).toBe(columns.includes(column));
      expect(listed.data.translationKeys.edges).toHaveLength(4);
      for (const { node } of listed.data.translationKeys.edges) check(node, await own(node.key));
    }
    // The same operation reads other columns of the same keys elsewhere: those are read in full, not from the page.
    const both = await reader.gql(
      '{ translationKeys(first: 2) { edges { node { translations { text } } } } translationKey(key: "col.1") { translations { language reviewStatus lastModifiedAt } } }',
    );
    expect(both.errors).toBeUndefined();
    expect(both.data.translationKey.translations).toEqual(
      pick(await own('col.1'), ['language', 'reviewStatus', 'lastModifiedAt']),
    );
    expect(both.data.translationKey.translations[1]).toMatchObject({ language: 'de', reviewStatus: 'REVIEWED' });
  });
});
