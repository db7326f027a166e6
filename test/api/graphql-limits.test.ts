// GraphQL document limits (src/http/limits-graphql.ts) on every entry point:
// HTTP POST and GET, multipart uploads, graphql-ws. Reproduces the issue's
// attacks (5,000 aliases starving /healthz, a 150-level nested introspection
// query) as quick 400s naming the limit, and checks that the REST routes'
// own documents, at their largest page sizes, stay under every limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIntrospectionQuery, parse, validate } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestService, type TestService } from '../support/service.js';
import { schema } from '../../src/schema/index.js';
import { ALL_ROUTES } from '../../rest-compat/index.js';
import { loadConfig } from '../../src/config.js';
import { costOf, graphqlLimitPlugins, MAX_NESTING, nestsDeeperThan } from '../../src/http/limits-graphql.js';

let service: TestService;
let apiKey: string;
let projectToken: string;
let token: string;

beforeAll(async () => {
  service = await startTestService({ listen: true });
  const account = await service.account();
  token = account.token;
  ({ apiKey, projectToken } = await account.project('Limits'));
});
afterAll(() => service.close());

async function post(query: string, variables?: Record<string, unknown>) {
  const started = performance.now();
  const res = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { data?: any; errors?: { message: string; extensions?: any }[] },
    ms: performance.now() - started,
  };
}

const aliases = (n: number, selection: string) =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${selection}`).join(' ')} }`;
/** `{ __schema { types { fields { type { fields { type … name } } } } } }`, `depth` fields deep. */
function nestedIntrospection(depth: number): string {
  const chain = [
    '__schema',
    'types',
    ...Array.from({ length: depth - 3 }, (_, i) => (i % 2 === 0 ? 'fields' : 'type')),
  ];
  return `{ ${chain.join(' { ')} { name${' }'.repeat(chain.length)} }`;
}

describe('the issue’s attacks are refused quickly', () => {
  it('5,000 aliases of projects { name languages { key } }: 400 in well under a second, /healthz stays fast', async () => {
    const attack = aliases(5000, 'projects { name languages { key } }');
    const health = (async () => {
      await new Promise((r) => setTimeout(r, 20));
      const started = performance.now();
      const res = await fetch(`${service.url}/healthz`);
      return { status: res.status, ms: performance.now() - started };
    })();
    const answers = await Promise.all([post(attack), post(attack), post(attack), post(attack)]);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.data).toBeUndefined();
      expect(answer.body.errors![0]!.message).toMatch(/exceeds the tokens limit.*\(GRAPHQL_MAX_TOKENS\)/);
      // Before the limits each took 11–12.5 s and /healthz 11 s; the bounds leave room for a loaded CI machine.
      expect(answer.ms).toBeLessThan(4000);
    }
    const h = await health;
    expect(h.status).toBe(200);
    expect(h.ms).toBeLessThan(3000);
  });

  it('documents nested thousands deep (list and object literals 2,000, selections 5,000), without any credential: 400 before parsing', async () => {
    const anonymous = (query: string) =>
      fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
    for (const query of [
      `{ projects(sort: ${'['.repeat(2000)}1${']'.repeat(2000)}) { name } }`,
      `query { projects(filter: ${'{a:'.repeat(2000)}1${'}'.repeat(2000)}) { name } }`,
      `${'{ a '.repeat(5000)}${'}'.repeat(5000)}`,
    ]) {
      const res = await anonymous(query);
      const body = (await res.json()) as {
        data?: unknown;
        errors: { message: string; extensions: Record<string, unknown> }[];
      };
      expect(res.status).toBe(400);
      expect(body.data).toBeUndefined();
      expect(body.errors[0]!.message).toBe(
        `The query exceeds the depth limit: brackets nested more than ${MAX_NESTING} deep, refused before parsing (GRAPHQL_MAX_DEPTH)`,
      );
      expect(body.errors[0]!.extensions).toMatchObject({ code: 'BAD_REQUEST', limit: 'depth' });
    }
    const get = await fetch(
      `${service.url}/graphql?query=${encodeURIComponent(`{ a(x: ${'['.repeat(2000)}1${']'.repeat(2000)}) }`)}`,
      { headers: { accept: 'application/json' } },
    );
    expect(get.status).toBe(400);
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
  });

  it('the nesting scan counts brackets of the document, not of its strings and comments', () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(nestsDeeperThan(`{ a(x: ${deep(10)}) }`, 12)).toBe(false);
    expect(nestsDeeperThan(`{ a(x: ${deep(11)}) }`, 12)).toBe(true);
    expect(nestsDeeperThan(`{ a(x: "${deep(50)}\\" y: \\"${deep(50)}") }`, 3)).toBe(false);
    expect(nestsDeeperThan(`{ a(x: """ ${deep(50)} \\""" ${deep(50)} """) }`, 3)).toBe(false);
    expect(nestsDeeperThan(`{ a # ${deep(50)}\n b }`, 3)).toBe(false);
    expect(nestsDeeperThan(`{ a(x: """ ${deep(50)} """ y: ${deep(5)}) }`, 3)).toBe(true);
  });

  it('a 150-level nested introspection query: 400 naming the depth limit', async () => {
    const answer = await post(nestedIntrospection(150));
    expect(answer.status).toBe(400);
    expect(answer.body.errors![0]!.message).toMatch(
      /exceeds the depth limit: Query depth limit of 20 exceeded, found 150 \(GRAPHQL_MAX_DEPTH\)/,
    );
    expect(answer.body.errors![0]!.extensions).toMatchObject({
      code: 'BAD_REQUEST',
      limit: 'depth',
      setting: 'GRAPHQL_MAX_DEPTH',
    });
    expect(answer.ms).toBeLessThan(3000);
  });

  it('introspection within the depth limit but fanning out (fields of types of fields…) answers no data', async () => {
    // graphql-js's own rule refuses nested introspection lists (a validation error); the cost limit counts them too.
    const query = nestedIntrospection(20);
    const answer = await post(query);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors![0]!.message).toBe('Maximum introspection depth exceeded');
    expect(costOf(schema, parse(query), {}, undefined, 10)).toBeGreaterThan(1e9);
  });
});

describe('each limit, named in a 400', () => {
  it('aliases', async () => {
    const answer = await post(aliases(101, 'projects { name }'));
    expect(answer.status).toBe(400);
    expect(answer.body.errors![0]!.message).toBe(
      'The query exceeds the aliases limit: Aliases limit of 100 exceeded, found 101 (GRAPHQL_MAX_ALIASES)',
    );
    expect((await post(aliases(100, 'projects { name }'))).status).toBe(200);
  });

  it('directives', async () => {
    const answer = await post(
      `{ projects { ${Array.from({ length: 51 }, () => 'name @include(if: true)').join(' ')} } }`,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors![0]!.message).toMatch(
      /exceeds the directives limit.*found 51 \(GRAPHQL_MAX_DIRECTIVES\)/,
    );
  });

  it('cost counts page sizes given as variables', async () => {
    const query = `query ($n: Int) { translationKeys(projectToken: "${projectToken}", first: $n) { edges { node { key namespace description } } } }`;
    const small = await post(query, { n: 10 });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
    const huge = await post(query, { n: 1_000_000 });
    expect(huge.status).toBe(400);
    expect(huge.body.data).toBeUndefined();
    expect(huge.body.errors![0]!.message).toMatch(
      /exceeds the cost limit: cost 5000001, at most 1000000; ask for smaller pages or fewer fields \(GRAPHQL_MAX_COST\)/,
    );
    // The cost is kept per document and page size: each size keeps its own, in any order.
    expect((await post(query, { n: 10 })).status).toBe(200);
    expect((await post(query, { n: 1_000_000 })).status).toBe(400);
    expect((await post(query, { n: 199_999 })).status).toBe(200);
    expect((await post(query, { n: 200_001 })).status).toBe(400);
  });

  it('a document counted once is held to its cost every time; one whose directives take variables is counted each time', async () => {
    const keys = (first: number) =>
      `translationKeys(projectToken: "${projectToken}", first: ${first}) { edges { node { key } } }`;
    // The same text is the same parsed document (Yoga's cache): its cost is counted once, and refuses every time.
    for (let i = 0; i < 2; i++) expect((await post(`{ ${keys(1_000_000)} }`)).status).toBe(400);
    const query = `query ($big: Boolean!) { small: ${keys(10)} big: ${keys(1_000_000).replace(') {', ') @include(if: $big) {')} }`;
    expect((await post(query, { big: false })).status).toBe(200);
    const refused = await post(query, { big: true });
    expect(refused.status).toBe(400);
    expect(refused.body.errors![0]!.message).toMatch(/exceeds the cost limit/);
    expect((await post(query, { big: false })).status).toBe(200);
  });

  it('introspection stays available and cheap: the standard query answers at once', async () => {
    const answer = await post(getIntrospectionQuery());
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.__schema.types.length).toBeGreaterThan(20);
    expect(answer.ms).toBeLessThan(3000);
  });
});

describe('every entry point is held to the limits', () => {
  it('GET /graphql', async () => {
    const res = await fetch(`${service.url}/graphql?query=${encodeURIComponent(nestedIntrospection(30))}`, {
      headers: { authorization: token, accept: 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).errors[0].message).toMatch(/GRAPHQL_MAX_DEPTH/);
  });

  it('GraphQL multipart requests (uploads)', async () => {
    const form = new FormData();
    form.set(
      'operations',
      JSON.stringify({
        query: `mutation ($file: Upload!) { ${Array.from({ length: 101 }, (_, i) => `a${i}: previewImport(file: $file, uploadFormat: SINGLE_LANGUAGE_JSON, languageKey: "en") { translationsToInsert }`).join(' ')} }`,
        variables: { file: null },
      }),
    );
    form.set('map', JSON.stringify({ 0: ['variables.file'] }));
    form.set('0', new Blob(['{"a":"A"}'], { type: 'application/json' }), 'a.json');
    const res = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'x-service-token': apiKey },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).errors[0].message).toMatch(/aliases limit.*GRAPHQL_MAX_ALIASES/);
  });

  it('graphql-ws: validation limits and cost', async () => {
    const client = createClient({
      url: service.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: token },
      retryAttempts: 0,
    });
    const run = (query: string, variables?: Record<string, unknown>) =>
      new Promise<unknown>((resolve) => {
        const results: unknown[] = [];
        client.subscribe(
          { query, variables },
          { next: (value) => results.push(value), error: (error) => resolve(error), complete: () => resolve(results) },
        );
      });
    try {
      const deep = (await run(nestedIntrospection(30))) as { message: string }[];
      expect(deep[0]!.message).toMatch(/depth limit.*GRAPHQL_MAX_DEPTH/);
      const costly = (await run('query ($n: Int) { translationKeys(first: $n) { edges { node { key } } } }', {
        n: 1_000_000,
      })) as any[];
      expect(costly[0].errors[0].message).toMatch(/cost limit.*GRAPHQL_MAX_COST/);
      const fine = (await run('{ projects { name } }')) as any[];
      expect(fine[0].data.projects).toEqual([{ name: 'Limits' }]);
    } finally {
      await client.dispose();
    }
  });
});

describe('defaults the REST layer never reaches', () => {
  const limits = loadConfig({}).graphqlLimits;
  const rules = graphqlLimitPlugins(limits).flatMap((plugin) => {
    const added: any[] = [];
    plugin.onValidate?.({ addValidationRule: (rule: any) => added.push(rule) } as any);
    return added;
  });

  it.each(ALL_ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => {
    const document = parse(route.document);
    expect(validate(schema, document, rules)).toEqual([]);
    // Page sizes at the contract's largest (2500 keys per page); lists at GRAPHQL_LIST_SIZE.
    const variables: Record<string, unknown> = {};
    for (const definition of (document.definitions[0] as any).variableDefinitions ?? []) {
      if (['size', 'first', 'last'].includes(definition.variable.name.value))
        variables[definition.variable.name.value] = 2500;
    }
    expect(costOf(schema, document, variables, undefined, limits.listSize)).toBeLessThan(limits.maxCost * 0.6);
  });

  it('nor the standard introspection query', () => {
    const document = parse(
      getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
      }),
    );
    expect(validate(schema, document, rules)).toEqual([]);
    expect(costOf(schema, document, {}, undefined, limits.listSize)).toBeLessThan(limits.maxCost / 10);
  });
});
