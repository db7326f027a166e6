// Bad input gets a 4xx, never a 5xx, never a silent change (issue #33): a table
// of routes × bad inputs, each refused at the edge (src/http/input-text.ts)
// with a 400 in the envelope (REST, the CLI routes) or a GraphQL error with
// code BAD_REQUEST, and the project and the accounts left as they were.
import { connect } from 'node:net';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, startTestService, type TestAccount, type TestService } from '../support/service.js';
import { multipart, projectSnapshot } from '../support/transfer.js';
import { ALL_ROUTES } from '../../rest-compat/index.js';

let service: TestService;
let account: TestAccount;
let apiKey: string;
let projectToken: string;

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false });
  account = await service.account();
  ({ apiKey, projectToken } = await account.project('Bad input'));
  const headers = { 'x-service-token': apiKey };
  expect(
    (
      await service.request({
        method: 'POST',
        url: '/api/v1/translations',
        headers,
        payload: { content: [{ key: 'hello', language: 'en', text: 'Hello' }] },
      })
    ).statusCode,
  ).toBe(200);
});
afterAll(() => service.close());

/** The project's rows and every account's projects: what a refused request must leave alone. */
async function everything() {
  const db = service.db.prisma;
  return {
    project: await projectSnapshot(service, projectToken),
    accounts: await db.$queryRawUnsafe(`SELECT row_to_json(a)::text AS row FROM "Account" a ORDER BY id`),
    projects: await db.$queryRawUnsafe(`SELECT row_to_json(p)::text AS row FROM "Project" p ORDER BY id`),
  };
}

interface BadText {
  name: string;
  /** As a JavaScript string, for JSON bodies and GraphQL variables (MARK stands for bytes that are not UTF-8). */
  text: string;
  /** Not text at all: refused as the body's bytes, in the envelope on every route. */
  bytes?: boolean;
  /** As it is written in a URL. */
  url: string;
  /** The words a refusal has. */
  problem: RegExp;
}

/** Stands for an invalid UTF-8 byte: encode() replaces its UTF-8 form (EE 80 80) with FF. */
const MARK = '\ue000';

const BAD: BadText[] = [
  { name: 'a NUL character', text: 'a\u0000b', url: 'a%00b', problem: /NUL character/ },
  // In a URL, half a surrogate pair can only be written as its (invalid) UTF-8 bytes.
  {
    name: 'half of a surrogate pair',
    text: 'a\ud800b',
    url: 'a%ED%A0%80b',
    problem: /surrogate pair \(U\+D800\)|not valid UTF-8/,
  },
  {
    name: 'a low surrogate alone',
    text: '\udc00',
    url: '%ED%B0%80',
    problem: /surrogate pair \(U\+DC00\)|not valid UTF-8/,
  },
  {
    name: 'bytes that are not UTF-8',
    text: `a${MARK}b`,
    url: 'a%FFb',
    bytes: true,
    problem: /not valid UTF-8: invalid byte at offset \d+/,
  },
];

/** A JSON text as the bytes sent, with MARK as an invalid byte. */
const encode = (json: string): Buffer =>
  Buffer.from(Buffer.from(json).toString('latin1').replaceAll('\xee\x80\x80', '\xff'), 'latin1');

const credentials = (auth: string): Record<string, string> =>
  auth === 'apiKey'
    ? { 'x-service-token': apiKey }
    : auth === 'basic'
      ? { authorization: account.basic }
      : { authorization: account.token };

/** Refused in the envelope with a 400 naming the problem. */
function refused(res: { statusCode: number; body: string } & Parameters<typeof envelope>[0], problem: RegExp) {
  expect(res.statusCode, res.body).toBe(400);
  expect(envelope(res).msg).toMatch(problem);
}

describe.each(BAD)('$name', (bad) => {
  it('in a path parameter of every route that has one (..%00%2F and the like)', async () => {
    const before = await everything();
    const routes = ALL_ROUTES.filter((route) => route.path.includes(':'));
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) {
      const url = route.path.replace(/:\w+/g, `..${bad.url}%2F`);
      const res = await service.request({
        method: route.method,
        url,
        headers: { ...credentials(route.auth), 'content-type': 'application/json' },
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
      });
      refused(res, bad.problem);
    }
    expect(await everything()).toEqual(before);
  });

  it('in a query parameter (REST and the CLI routes)', async () => {
    const before = await everything();
    for (const url of [
      `/api/v2/translations?key=${bad.url}`,
      `/api/v1/translation-keys?namespace=${bad.url}`,
      `/api/v4/export?uploadFormat=single-language-json&languageKey=${bad.url}`,
      `/cli/v2/download?downloadFormat=single-language-json&languageKey=${bad.url}`,
      `/api/v2/activity?${bad.url}=1`,
    ]) {
      refused(await service.request({ url, headers: { 'x-service-token': apiKey } }), bad.problem);
    }
    refused(
      await service.request({ url: `/api/v2/projects?sort=${bad.url}`, headers: { authorization: account.token } }),
      bad.problem,
    );
    expect(await everything()).toEqual(before);
  });

  const BODIES: { name: string; method: string; url: string; auth?: string; body: (text: string) => unknown }[] = [
    {
      name: 'a text, v1 POST translations',
      method: 'POST',
      url: '/api/v1/translations',
      body: (text) => ({ content: [{ key: 'hello', language: 'en', text }] }),
    },
    {
      name: 'a key, v1 POST translations',
      method: 'POST',
      url: '/api/v1/translations',
      body: (text) => ({ content: [{ key: text, language: 'en', text: 'x' }] }),
    },
    {
      name: 'a text, v1 PATCH translations',
      method: 'PATCH',
      url: '/api/v1/translations',
      body: (text) => ({ content: [{ key: 'hello', language: 'en', text }] }),
    },
    {
      name: 'a text, v2 PATCH translations',
      method: 'PATCH',
      url: '/api/v2/translations',
      body: (text) => ({ key: 'hello', language: 'en', text }),
    },
    {
      name: 'a description, v1 POST translation-keys',
      method: 'POST',
      url: '/api/v1/translation-keys',
      body: (text) => ({ key: 'new', description: text }),
    },
    {
      name: 'a namespace, v1 PATCH translation-keys',
      method: 'PATCH',
      url: '/api/v1/translation-keys?key=hello',
      body: (text) => ({ namespace: text }),
    },
    { name: 'a language name', method: 'POST', url: '/api/v1/languages', body: (text) => ({ key: 'fr', name: text }) },
    {
      name: 'a customer description',
      method: 'POST',
      url: '/api/v1/customers',
      body: (text) => ({ key: 'acme', description: text }),
    },
    {
      name: 'a webhook name',
      method: 'POST',
      url: '/api/v2/webhooks',
      body: (text) => ({ url: 'https://example.com/hook', name: text }),
    },
    { name: 'an environment key', method: 'POST', url: '/api/v2/environments', body: (text) => ({ key: text }) },
    {
      name: 'a property name',
      method: 'POST',
      url: '/api/v1/translations',
      body: (text) => ({ content: [{ key: 'hello', language: 'en', text: 'x', [text]: 1 }] }),
    },
    {
      name: 'a stack trace, /cli/v1/stacktrace',
      method: 'POST',
      url: '/cli/v1/stacktrace',
      body: (text) => ({ stacktrace: text }),
    },
    {
      name: 'a project name',
      method: 'POST',
      url: '/api/v2/projects',
      auth: 'personalToken',
      body: (text) => ({ name: text }),
    },
    {
      name: 'a project name, v1',
      method: 'POST',
      url: '/api/v1/projects',
      auth: 'basic',
      body: (text) => ({ name: text }),
    },
  ];

  it.each(BODIES)('in a JSON body: $name', async ({ method, url, auth = 'apiKey', body }) => {
    const before = await everything();
    refused(
      await service.request({
        method,
        url,
        headers: { ...credentials(auth), 'content-type': 'application/json' },
        payload: encode(JSON.stringify(body(bad.text))),
      }),
      bad.problem,
    );
    expect(await everything()).toEqual(before);
  });

  it('in Basic credentials: no account is looked up, a 400', async () => {
    const before = await everything();
    // Credentials are bytes: half a surrogate pair is sent as its (invalid) UTF-8 form.
    const bytes = Buffer.from(
      bad.url.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    );
    const basic = `Basic ${Buffer.concat([Buffer.from(account.email), bytes, Buffer.from(`:${account.password}`)]).toString('base64')}`;
    refused(await service.request({ url: '/api/v1/projects', headers: { authorization: basic } }), bad.problem);
    refused(
      await service.request({
        method: 'POST',
        url: '/api/v1/projects',
        headers: { authorization: basic, 'content-type': 'application/json' },
        payload: '{"name":"fine"}',
      }),
      bad.problem,
    );
    expect(await everything()).toEqual(before);
  });

  describe('in GraphQL', () => {
    async function graphql(
      query: string,
      variables: Record<string, unknown>,
      headers: Record<string, string> = { 'x-service-token': apiKey },
    ) {
      const res = await service.request({
        method: 'POST',
        url: '/graphql',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: encode(JSON.stringify({ query, variables })),
      });
      return {
        status: res.statusCode,
        body: res.json() as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] },
      };
    }
    const expectRefused = (answer: Awaited<ReturnType<typeof graphql>>) => {
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      // Bytes that are not text are refused with the body, before it is GraphQL: the envelope.
      if (bad.bytes) return expect(answer.body).toEqual({ status: 400, msg: expect.stringMatching(bad.problem) });
      expect(answer.body.data ?? null).toBeNull();
      expect(answer.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
      expect(answer.body.errors?.[0]?.message).toMatch(bad.problem);
    };

    it('in a variable: sign-in without any credential, a key, a nested input', async () => {
      const before = await everything();
      expectRefused(
        await graphql(
          'mutation ($email: String!) { signIn(email: $email, password: "whatever") { email } }',
          { email: `someone${bad.text}@example.com` },
          {},
        ),
      );
      expectRefused(
        await graphql('mutation ($input: CreateTranslationKeyInput!) { createTranslationKey(input: $input) { key } }', {
          input: { key: 'new', description: bad.text },
        }),
      );
      expectRefused(
        await graphql('query ($k: String) { translationKeys(filter: { namespace: $k }) { totalCount } }', {
          k: bad.text,
        }),
      );
      expect(await everything()).toEqual(before);
    });

    it('in the operations field of a multipart request (the form an upload is sent in)', async () => {
      const before = await everything();
      const operations = encode(
        JSON.stringify({
          query: 'mutation ($input: CreateTranslationKeyInput!) { createTranslationKey(input: $input) { key } }',
          variables: { input: { key: 'new', description: bad.text } },
        }),
      );
      const form = multipart([
        { name: 'operations', content: operations },
        { name: 'map', content: '{}' },
      ]);
      const res = await service.request({
        method: 'POST',
        url: '/graphql',
        headers: { 'x-service-token': apiKey, ...form.headers },
        payload: form.payload,
      });
      const body = res.json() as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
      expect(res.statusCode, res.body).toBe(400);
      expect(body.data ?? null).toBeNull();
      expect(body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
      expect(body.errors?.[0]?.message).toMatch(bad.problem);
      expect(await everything()).toEqual(before);
    });

    it('in WebSocket connectionParams: the Basic credentials and a header value, refused before any account is looked up', async () => {
      const bytes = Buffer.from(
        bad.url.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      );
      const basic = `Basic ${Buffer.concat([Buffer.from(account.email), bytes, Buffer.from(`:${account.password}`)]).toString('base64')}`;
      const params: Record<string, string>[] = [{ authorization: basic }];
      if (!bad.bytes) params.push({ 'X-Service-Token': `${apiKey}${bad.text}` });
      for (const connectionParams of params) {
        const client = createClient({
          url: `${service.url.replace('http', 'ws')}/graphql`,
          webSocketImpl: WebSocket,
          connectionParams,
          lazy: false,
          retryAttempts: 0,
        });
        try {
          const errors = await new Promise<{ message: string; extensions?: { code?: string } }[]>((resolve, reject) => {
            client.subscribe(
              { query: 'subscription { translationChanges { id } }' },
              {
                next: (value) => reject(new Error(`an event: ${JSON.stringify(value)}`)),
                error: (error) => resolve(error as never),
                complete: () => reject(new Error('completed without an error')),
              },
            );
          });
          expect(errors[0]?.extensions?.code).toBe('BAD_REQUEST');
          expect(errors[0]?.message).toMatch(bad.problem);
        } finally {
          await client.dispose();
        }
      }
    });

    it('in an inline string literal', async () => {
      const before = await everything();
      const literal = JSON.stringify(bad.text).replace(
        /[\u0000\ud800-\udfff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
      expectRefused(await graphql(`mutation { signIn(email: ${literal}, password: "whatever") { email } }`, {}, {}));
      expectRefused(
        await graphql(`mutation { createTranslationKey(input: { key: "new", description: ${literal} }) { key } }`, {}),
      );
      expect(await everything()).toEqual(before);
    });
  });
});

describe('NUL where only NUL can be written', () => {
  it('in the file name of a CLI upload (multipart names are decoded leniently: only NUL survives to be seen)', async () => {
    const before = await everything();
    const form = multipart([{ name: 'file', fileName: 'en.json', content: '{"fresh": "Fresh"}' }]);
    const res = await service.request({
      method: 'POST',
      url: `/cli/v2/upload?uploadFormat=single-language-json&languageKey=en&namespace=x`,
      headers: { 'x-service-token': apiKey, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(200);
    const bad1 = multipart([{ name: 'file', fileName: 'en\u0000.json', content: '{"fresh2": "Fresh"}' }]);
    const after = await everything();
    refused(
      await service.request({
        method: 'POST',
        url: `/cli/v2/upload?uploadFormat=single-language-json&languageKey=en`,
        headers: { 'x-service-token': apiKey, ...bad1.headers },
        payload: bad1.payload,
      }),
      /NUL character/,
    );
    expect(await everything()).toEqual(after);
    expect(after).not.toEqual(before);
  });

  it('in a header value, sent raw: refused with a 400 in the envelope, and the server goes on', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(service.url).port), '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString('latin1')));
      socket.on('end', () => resolve(data));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
      socket.write(
        `GET /api/v2/project HTTP/1.1\r\nHost: localhost\r\nX-Service-Token: ${apiKey}\u0000x\r\n\r\n`,
        'latin1',
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body.status).toBe(400);
    expect((await fetch(`${service.url}/api/v2/project`, { headers: { 'x-service-token': apiKey } })).status).toBe(200);
  });
});

describe('a JSON body field of the wrong type', () => {
  /** A value of another JSON type than the one a field's schema names. */
  const WRONG: Record<string, unknown> = {
    string: { not: 'a string' },
    integer: 'one',
    number: 'one',
    boolean: 'yes',
    array: 'not an array',
    object: 'not an object',
  };
  /** Values that fit, for the fields a body may need, so that the wrong one is what gets refused. */
  const FITTING: Record<string, unknown> = {
    name: 'n',
    key: 'k',
    email: 'someone@example.com',
    role: 'viewer',
    translationProvider: 'PSEUDO',
    targetProjectLanguage: 'en',
    targetLanguage: 'de',
    targets: [{ targetProjectLanguage: 'en', targetLanguage: 'de' }],
    languageKeys: ['en'],
    x: 1,
    y: 1,
    width: 1,
    height: 1,
  };
  type Schema = { type?: unknown; description?: string };
  type Body = { properties?: Record<string, Schema>; oneOf?: Body[] };

  it("is a 400 naming the field on every REST route that declares its body's fields, and changes nothing", async () => {
    const before = await everything();
    const cases = ALL_ROUTES.filter((route) => route.body && !route.multipart).flatMap((route) => {
      const body = route.body as Body;
      return (body.oneOf ?? [body]).flatMap((variant) =>
        Object.entries(variant.properties ?? {})
          // A field the route ignores (the vendor client's `source`) may hold anything.
          .filter(
            ([, schema]) => typeof schema.type === 'string' && schema.type in WRONG && schema.description !== 'Ignored',
          )
          .map(([field, schema]) => {
            const fitting = Object.fromEntries(
              Object.keys(variant.properties!).flatMap((name) => (name in FITTING ? [[name, FITTING[name]]] : [])),
            );
            return { route, field, body: { ...fitting, [field]: WRONG[schema.type as string] } };
          }),
      );
    });
    expect(cases.length).toBeGreaterThan(40);
    for (const { route, field, body } of cases) {
      const res = await service.request({
        method: route.method,
        url: route.path.replace(/:\w+/g, '1'),
        headers: { ...credentials(route.auth), 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      const what = `${route.method} ${route.path} ${field}: ${res.body}`;
      expect(res.statusCode, what).toBe(400);
      expect(envelope(res).msg, what).toMatch(new RegExp(`^${field}\\b`));
    }
    expect(await everything()).toEqual(before);
  });
});
