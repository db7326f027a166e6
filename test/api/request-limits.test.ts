// Request limits (src/http/limits-request.ts, limits-heavy.ts): body size per
// route class, header size, multipart field and file counts, and the cap on
// expensive operations per credential; each refused in the contract's
// envelope (413, 431, 429) with the setting named. The service runs with
// small limits so the tests send little.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'graphql';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { importRequest, multipart } from '../support/transfer.js';
import { heavyOperationsPlugin, isHeavy } from '../../src/http/limits-heavy.js';
import { loadConfig } from '../../src/config.js';

let service: TestService;
let apiKey: string;

beforeAll(async () => {
  service = await startTestService({
    listen: true,
    env: {
      MAX_BODY_BYTES: '65536',
      MAX_BULK_BODY_BYTES: '1048576',
      MAX_HEADER_BYTES: '8192',
      MAX_MULTIPART_FIELDS: '3',
      MAX_MULTIPART_FILES: '2',
      MAX_HEAVY_OPERATIONS: '1',
    },
  });
  ({ apiKey } = await (await service.account()).project('Request limits'));
});
afterAll(() => service.close());

const json = (value: unknown) => JSON.stringify(value);
const post = (url: string, body: string, method = 'POST') =>
  fetch(`${service.url}${url}`, {
    method,
    headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
    body,
  });
async function answer(res: Response) {
  const body = (await res.json()) as { msg: string; status: number };
  expect(body.status).toBe(res.status);
  return body;
}

describe('body size per route class', () => {
  it('an ordinary JSON route takes MAX_BODY_BYTES', async () => {
    const small = await post('/api/v1/translation-keys', json({ key: 'k', description: 'd' }));
    expect(small.status).toBe(200);
    const large = await post('/api/v1/translation-keys', json({ key: 'k2', description: 'x'.repeat(70_000) }));
    expect(large.status).toBe(413);
    expect((await answer(large)).msg).toBe('The request body is larger than 65536 bytes (MAX_BODY_BYTES)');
  });

  it('the bulk routes take MAX_BULK_BODY_BYTES', async () => {
    const content = (n: number) =>
      json({
        content: Array.from({ length: n }, (_, i) => ({
          key: `bulk.${i}`,
          language: 'en',
          text: `Text number ${i} of the bulk body`,
        })),
      });
    const medium = content(2_000); // ≈ 150 KB: over the ordinary limit, under the bulk one
    expect(medium.length).toBeGreaterThan(65536);
    const accepted = await post('/api/v1/translations', medium);
    expect(accepted.status).toBe(200);
    const huge = content(20_000);
    expect(huge.length).toBeGreaterThan(1048576);
    const refused = await post('/api/v1/translations', huge, 'PATCH');
    expect(refused.status).toBe(413);
    expect((await answer(refused)).msg).toBe('The request body is larger than 1048576 bytes (MAX_BULK_BODY_BYTES)');
    const graphql = await post(
      '/graphql',
      json({ query: '{ projects { name } }', variables: { padding: 'x'.repeat(1_100_000) } }),
    );
    expect(graphql.status).toBe(413);
    expect((await answer(graphql)).msg).toMatch(/MAX_BULK_BODY_BYTES/);
    const graphqlMedium = await post(
      '/graphql',
      json({ query: '{ projects { name } }', variables: { padding: 'x'.repeat(100_000) } }),
    );
    expect(graphqlMedium.status).toBe(200);
  });

  it('uploads are held to MAX_UPLOAD_BYTES, not to the JSON body limits', async () => {
    const file = json(
      Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`upload.${i}`, `Uploaded text ${i}`])),
    );
    expect(file.length).toBeGreaterThan(2 * 65536);
    const res = await importRequest(service, apiKey, file, { uploadFormat: 'single-language-json', languageKey: 'en' });
    expect(res.statusCode).toBe(200);
  });
});

describe('header size', () => {
  it('headers beyond MAX_HEADER_BYTES: 431 in the envelope, and the server goes on', async () => {
    const res = await fetch(`${service.url}/api/v2/project`, {
      headers: { 'x-service-token': apiKey, 'x-padding': 'x'.repeat(10_000) },
    });
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({
      msg: 'The request line and headers are larger than 8192 bytes (MAX_HEADER_BYTES)',
      status: 431,
    });
    expect((await fetch(`${service.url}/api/v2/project`, { headers: { 'x-service-token': apiKey } })).status).toBe(200);
  });
});

describe('multipart counts', () => {
  it('REST uploads: fields beyond MAX_MULTIPART_FIELDS are a 413', async () => {
    const body = multipart([
      ...['a', 'b', 'c', 'd'].map((name) => ({ name, content: 'v' })),
      { name: 'file', fileName: 'a.json', content: json({ a: 'A' }) },
    ]);
    const res = await service.request({
      method: 'POST',
      url: '/api/v2/import?uploadFormat=single-language-json&languageKey=en',
      headers: { 'x-service-token': apiKey, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(413);
    expect(envelope(res).msg).toBe('Too many form fields: at most 3 (MAX_MULTIPART_FIELDS)');
  });

  it('GraphQL multipart requests: files beyond MAX_MULTIPART_FILES are a 413', async () => {
    const form = new FormData();
    form.set(
      'operations',
      json({
        query:
          'mutation ($a: Upload!, $b: Upload!, $c: Upload!) { a: previewImport(file: $a, uploadFormat: SINGLE_LANGUAGE_JSON, languageKey: "en") { translationsToInsert } }',
        variables: { a: null, b: null, c: null },
      }),
    );
    form.set('map', json({ 0: ['variables.a'], 1: ['variables.b'], 2: ['variables.c'] }));
    for (const name of ['0', '1', '2'])
      form.set(name, new Blob(['{"a":"A"}'], { type: 'application/json' }), `${name}.json`);
    const res = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'x-service-token': apiKey },
      body: form,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).errors[0].message).toBe(
      'Too many files: at most 2 per request (MAX_MULTIPART_FILES)',
    );
  });
});

describe('expensive operations at once per credential', () => {
  it('over MAX_HEAVY_OPERATIONS, an import is refused with 429 and Retry-After; the slot is free again afterwards', async () => {
    const file = json(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`heavy.${i}`, `Heavy ${i}`])));
    const query = { uploadFormat: 'single-language-json', languageKey: 'en' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => importRequest(service, apiKey, file, query)));
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses).toContain(200);
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    const refused = answers.find((res) => res.statusCode === 429)!;
    expect(envelope(refused).msg).toMatch(
      /^Too many requests: at most 1 imports, exports, publications or auto-translations at once per credential \(MAX_HEAVY_OPERATIONS\)/,
    );
    expect(refused.headers['retry-after']).toBe('1');
    expect((await importRequest(service, apiKey, file, query)).statusCode).toBe(200);
  });

  it('counts per credential, releases on every ending, and leaves other operations alone', async () => {
    const plugin = heavyOperationsPlugin(1);
    const document = parse('mutation { publishEnvironment(environmentKey: "_latest") { version } }');
    const run = (principal: object, executeFn: () => Promise<unknown>) => {
      let wrapped: ((args: unknown) => Promise<any>) | undefined;
      void plugin.onExecute!({
        args: { document, contextValue: { principal } },
        executeFn,
        setExecuteFn: (fn: any) => (wrapped = fn),
      } as any);
      return wrapped!({});
    };
    let finish!: () => void;
    const first = run(
      { kind: 'project', projectId: 1 },
      () => new Promise<any>((resolve) => (finish = () => resolve({ data: { ok: 1 } }))),
    );
    expect(
      (await run({ kind: 'project', projectId: 1 }, async () => ({ data: {} }))).errors[0].extensions,
    ).toMatchObject({ code: 'TOO_MANY_REQUESTS', setting: 'MAX_HEAVY_OPERATIONS' });
    expect(await run({ kind: 'project', projectId: 2 }, async () => ({ data: { other: true } }))).toEqual({
      data: { other: true },
    });
    expect(await run({ kind: 'account', accountId: 1 }, async () => ({ data: { account: true } }))).toEqual({
      data: { account: true },
    });
    finish();
    await first;
    await expect(
      run({ kind: 'project', projectId: 1 }, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await run({ kind: 'project', projectId: 1 }, async () => ({ data: { again: true } }))).toEqual({
      data: { again: true },
    });
    expect(isHeavy(parse('query { projects { name } }'))).toBe(false);
    expect(
      isHeavy(
        parse(
          'query Q { ...F } fragment F on Query { exportTranslations(uploadFormat: "single-language-json") { files { url } } }',
        ),
      ),
    ).toBe(true);
  });

  it('defaults: sensible values with no setting', () => {
    expect(loadConfig({}).requestLimits).toEqual({
      bodyBytes: 1024 * 1024,
      bulkBodyBytes: 32 * 1024 * 1024,
      headerBytes: 16 * 1024,
      multipartFields: 20,
      multipartFiles: 10,
      heavyOperationsPerCredential: 4,
    });
  });
});
