// The OpenAPI description at /openapi.json: valid OpenAPI 3.1 (checked by a
// real validator), and true of the running service: for every operation a
// sample request's answer matches the declared schema of its status (ajv,
// JSON Schema 2020-12), and so does its answer without credentials. /docs
// serves the reference page with its assets from the service itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bombPng } from '../support/screenshots.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { seedTranslations } from '../support/content.js';

let service: TestService;
let account: TestAccount;
let apiKey: string;
let doc: any;
let jobId = '';
let projectToken = '';
let activityId = '';
let cellChangeId = '';
let webhookId = '';
let secondProjectToken = '';
let screenshotId = '';
let linkId = '';

interface Sample {
  /** `METHOD /path/{param}` as the description names the operation. */
  operation: string;
  url: string;
  body?: unknown;
  /** A file sent as multipart form field `file`. */
  file?: { name: string; content: string | Buffer };
  auth?: 'apiKey' | 'vendorHeader' | 'basic' | 'personalToken';
  /** The expected status (200 unless said). */
  status?: number;
  after?: (data: any) => void;
}

const FILE = { name: 'en.json', content: JSON.stringify({ imported_a: 'A', imported_b: 'B' }) };

// One sample per operation, in an order where each finds what it needs.
const samples: Sample[] = [
  { operation: 'GET /api/v2/projects', url: '/api/v2/projects?sort=created', auth: 'personalToken' },
  {
    operation: 'POST /api/v2/projects',
    url: '/api/v2/projects',
    body: { name: 'second' },
    auth: 'personalToken',
    after: (data) => (secondProjectToken = data.projectToken),
  },
  { operation: 'GET /api/v1/projects', url: '/api/v1/projects', auth: 'basic' },
  { operation: 'POST /api/v1/projects', url: '/api/v1/projects', body: { name: 'third' }, auth: 'basic' },
  { operation: 'GET /api/v2/project', url: '/api/v2/project', auth: 'vendorHeader' },
  { operation: 'POST /api/v1/customers', url: '/api/v1/customers', body: { key: 'acme', description: 'Acme' } },
  { operation: 'GET /api/v1/customers', url: '/api/v1/customers' },
  { operation: 'GET /api/v1/customers/{customerKey}', url: '/api/v1/customers/acme' },
  {
    operation: 'PATCH /api/v1/customers/{customerKey}',
    url: '/api/v1/customers/acme',
    body: { description: 'ACME Inc.' },
  },
  { operation: 'POST /api/v1/languages', url: '/api/v1/languages', body: { key: 'fr', name: 'French' } },
  { operation: 'GET /api/v1/languages', url: '/api/v1/languages' },
  { operation: 'PATCH /api/v1/languages/{languageKey}', url: '/api/v1/languages/fr', body: { name: 'Français' } },
  {
    operation: 'POST /api/v1/translation-keys',
    url: '/api/v1/translation-keys',
    body: { key: 'k1', description: 'a key', tags: ['t'] },
  },
  { operation: 'GET /api/v1/translation-keys', url: '/api/v1/translation-keys?size=10&sort=created_at' },
  {
    operation: 'PATCH /api/v1/translation-keys',
    url: '/api/v1/translation-keys?key=k1',
    body: { charactersLimit: 40 },
  },
  {
    operation: 'POST /api/v1/translations',
    url: '/api/v1/translations',
    body: { content: [{ key: 'k2', language: 'en', text: 'Hi' }] },
  },
  {
    operation: 'PATCH /api/v1/translations',
    url: '/api/v1/translations',
    body: {
      content: [
        { key: 'k2', language: 'en', text: 'Hello' },
        { key: 'missing', language: 'en', text: 'x' },
      ],
    },
  },
  { operation: 'GET /api/v2/translations', url: '/api/v2/translations?language=en&size=50' },
  {
    operation: 'PATCH /api/v2/translations',
    url: '/api/v2/translations',
    body: { key: 'k2', language: 'en', text: 'Hey', reviewStatus: 'REVIEWED' },
  },
  {
    operation: 'POST /api/v2/import',
    url: '/api/v2/import?uploadFormat=single-language-json&languageKey=en',
    file: FILE,
  },
  {
    operation: 'POST /cli/v2/upload',
    url: '/cli/v2/upload?uploadFormat=single-language-json&languageKey=en&fileName=en.json',
    file: FILE,
  },
  {
    operation: 'POST /cli/v2/upload-preview',
    url: '/cli/v2/upload-preview?uploadFormat=single-language-json&languageKey=de',
    file: FILE,
  },
  { operation: 'GET /api/v4/export', url: '/api/v4/export?downloadFormat=single-language-json' },
  { operation: 'GET /api/v3/export', url: '/api/v3/export?downloadFormat=single-language-json&languageKey=en' },
  {
    operation: 'GET /cli/v2/download',
    url: '/cli/v2/download?downloadFormat=single-language-json&downloadOptions=SPLIT_BY_NAMESPACES',
  },
  { operation: 'POST /cli/v1/stacktrace', url: '/cli/v1/stacktrace', body: { message: 'boom', stacktrace: 'at x' } },
  {
    operation: 'POST /api/v1/jobs/auto-translate',
    url: '/api/v1/jobs/auto-translate',
    body: {
      translationProvider: 'PSEUDO',
      targetProjectLanguage: 'de',
      targetLanguage: 'de',
      sourceProjectLanguage: 'en',
    },
    after: (data) => (jobId = data.jobId),
  },
  {
    operation: 'POST /api/v2/jobs/auto-translate',
    url: '/api/v2/jobs/auto-translate',
    body: {
      translationProvider: 'PSEUDO',
      sourceProjectLanguage: 'en',
      targets: [{ targetProjectLanguage: 'fr', targetLanguage: 'fr' }],
    },
  },
  { operation: 'GET /api/v1/jobs', url: '/api/v1/jobs' },
  { operation: 'GET /api/v2/jobs', url: '/api/v2/jobs?status=STARTED,SUCCESS&type=AUTO_TRANSLATION' },
  { operation: 'GET /api/v1/jobs/{jobId}', url: '/api/v1/jobs/{jobId}' },
  { operation: 'GET /api/v2/environments', url: '/api/v2/environments' },
  {
    operation: 'POST /api/v2/environments',
    url: '/api/v2/environments',
    body: { key: 'staging', name: 'Staging', color: '#00aa00' },
  },
  {
    operation: 'POST /api/v2/environments/{environmentKey}/publish',
    url: '/api/v2/environments/_latest/publish',
    body: { label: 'first' },
  },
  { operation: 'GET /api/v2/environments/{environmentKey}', url: '/api/v2/environments/_latest' },
  { operation: 'DELETE /api/v1/translation-keys', url: '/api/v1/translation-keys?key=k1' },
  {
    operation: 'DELETE /api/v1/translation-keys/bulk',
    url: '/api/v1/translation-keys/bulk',
    body: { translationKeys: [{ key: 'imported_a' }, { key: 'imported_b' }] },
  },
  { operation: 'DELETE /api/v1/customers/{customerKey}', url: '/api/v1/customers/acme' },
  { operation: 'DELETE /api/v1/languages/{languageKey}', url: '/api/v1/languages/it' },
  {
    operation: 'GET /api/v2/translations/history',
    url: '/api/v2/translations/history?key=k2&language=en',
    after: (data) => (cellChangeId = data[0].id),
  },
  {
    operation: 'POST /api/v2/translations/history/{cellChangeId}/revert',
    url: '/api/v2/translations/history/{cellChangeId}/revert',
  },
  {
    operation: 'GET /api/v2/activity',
    url: '/api/v2/activity?kind=TRANSLATIONS&size=5',
    after: (data) => (activityId = data[0].id),
  },
  { operation: 'GET /api/v2/activity/{activityId}/cells', url: '/api/v2/activity/{activityId}/cells?size=10' },
  { operation: 'POST /api/v2/activity/{activityId}/revert', url: '/api/v2/activity/{activityId}/revert' },
  {
    operation: 'POST /api/v2/webhooks',
    url: '/api/v2/webhooks',
    body: { url: 'https://hooks.example.com/translations', triggers: ['CHANGE', 'PUBLICATION'] },
    after: (data) => (webhookId = String(data.id)),
  },
  { operation: 'GET /api/v2/webhooks', url: '/api/v2/webhooks' },
  { operation: 'GET /api/v2/webhooks/{webhookId}', url: '/api/v2/webhooks/{webhookId}' },
  { operation: 'PATCH /api/v2/webhooks/{webhookId}', url: '/api/v2/webhooks/{webhookId}', body: { enabled: false } },
  { operation: 'POST /api/v2/webhooks/{webhookId}/test', url: '/api/v2/webhooks/{webhookId}/test' },
  { operation: 'GET /api/v2/webhooks/{webhookId}/deliveries', url: '/api/v2/webhooks/{webhookId}/deliveries?size=10' },
  { operation: 'DELETE /api/v2/webhooks/{webhookId}', url: '/api/v2/webhooks/{webhookId}' },
  {
    operation: 'GET /api/v2/translation-memory/suggestions',
    url: '/api/v2/translation-memory/suggestions?targetLanguage=de&text=Hello&limit=5&minScore=40',
  },
  {
    operation: 'POST /api/v2/glossary/import',
    url: '/api/v2/glossary/import?format=CSV',
    file: { name: 'glossary.csv', content: 'term,description,de\nhello,A greeting,Hallo\n' },
  },
  { operation: 'GET /api/v2/glossary/terms', url: '/api/v2/glossary/terms?search=hel&size=10' },
  { operation: 'GET /api/v2/glossary/matches', url: '/api/v2/glossary/matches?targetLanguage=de&text=Hello%20there' },
  { operation: 'GET /api/v2/glossary/export', url: '/api/v2/glossary/export?format=TBX' },
  { operation: 'GET /api/v2/quality-checks', url: '/api/v2/quality-checks?severity=error&size=10' },
  {
    operation: 'GET /api/v2/projects/{projectToken}/members',
    url: '/api/v2/projects/{projectToken}/members',
    auth: 'personalToken',
  },
  {
    operation: 'POST /api/v2/projects/{projectToken}/invitations',
    url: '/api/v2/projects/{projectToken}/invitations',
    body: { email: 'teammate@example.com', role: 'translator', languages: ['de'], canReview: true },
    auth: 'personalToken',
  },
  {
    operation: 'PATCH /api/v2/projects/{projectToken}/members/{email}',
    url: '/api/v2/projects/{projectToken}/members/{ownerEmail}',
    body: { role: 'admin' },
    auth: 'personalToken',
    status: 409,
  },
  {
    operation: 'DELETE /api/v2/projects/{projectToken}/members/{email}',
    url: '/api/v2/projects/{projectToken}/members/nobody@example.com',
    auth: 'personalToken',
    status: 404,
  },
  {
    operation: 'POST /api/v2/screenshots',
    url: '/api/v2/screenshots?name=Home',
    file: { name: 'home.png', content: bombPng(40) },
    after: (data) => (screenshotId = String(data.id)),
  },
  { operation: 'GET /api/v2/screenshots', url: '/api/v2/screenshots?linked=false&limit=10' },
  { operation: 'GET /api/v2/screenshots/{screenshotId}', url: '/api/v2/screenshots/{screenshotId}' },
  {
    operation: 'POST /api/v2/screenshots/{screenshotId}/links',
    url: '/api/v2/screenshots/{screenshotId}/links',
    body: { key: 'greeting', x: 1, y: 2, width: 30, height: 10 },
    after: (data) => (linkId = String(data.id)),
  },
  {
    operation: 'PATCH /api/v2/screenshots/{screenshotId}/links/{linkId}',
    url: '/api/v2/screenshots/{screenshotId}/links/{linkId}',
    body: { x: 2, y: 2, width: 30, height: 10 },
  },
  {
    operation: 'DELETE /api/v2/screenshots/{screenshotId}/links/{linkId}',
    url: '/api/v2/screenshots/{screenshotId}/links/{linkId}',
  },
  { operation: 'DELETE /api/v2/screenshots/{screenshotId}', url: '/api/v2/screenshots/{screenshotId}' },
  { operation: 'DELETE /api/v1/translations/purge', url: '/api/v1/translations/purge?source=CLI' },
  {
    operation: 'PATCH /api/v2/projects/{projectToken}',
    url: '/api/v2/projects/{projectToken}',
    body: { name: 'described again' },
    auth: 'personalToken',
  },
  {
    operation: 'POST /api/v2/projects/{projectToken}/api-key/rotate',
    url: '/api/v2/projects/{projectToken}/api-key/rotate',
    auth: 'personalToken',
    after: (data) => (apiKey = data.apiKey),
  },
  {
    operation: 'DELETE /api/v2/projects/{projectToken}',
    url: '/api/v2/projects/{secondProjectToken}',
    auth: 'personalToken',
  },
];

// Error answers the description declares, one per status the service can be made to give here.
const errorSamples: Sample[] = [
  { operation: 'GET /api/v4/export', url: '/api/v4/export', status: 400 },
  { operation: 'GET /api/v1/translation-keys', url: '/api/v1/translation-keys?size=9999', status: 400 },
  { operation: 'GET /api/v1/customers/{customerKey}', url: '/api/v1/customers/nobody', status: 404 },
  { operation: 'POST /api/v1/translation-keys', url: '/api/v1/translation-keys', body: { key: 'twice' }, status: 200 },
  { operation: 'POST /api/v1/translation-keys', url: '/api/v1/translation-keys', body: { key: 'twice' }, status: 409 },
  { operation: 'GET /api/v2/projects', url: '/api/v2/projects', auth: 'apiKey', status: 403 },
];

function headersFor(auth: Sample['auth'] = 'apiKey'): Record<string, string> {
  switch (auth) {
    case 'apiKey':
      return { 'x-service-token': apiKey };
    case 'vendorHeader':
      return { 'x-simplelocalize-token': apiKey };
    case 'basic':
      return { authorization: account.basic };
    case 'personalToken':
      return { authorization: account.token };
  }
}

async function send(
  sample: Sample,
  withCredentials = true,
): Promise<{ status: number; contentType: string; body: any }> {
  const [method] = sample.operation.split(' ');
  const headers: Record<string, string> = withCredentials ? headersFor(sample.auth) : {};
  let body: BodyInit | undefined;
  if (sample.file) {
    const form = new FormData();
    form.append(
      'file',
      new Blob([typeof sample.file.content === 'string' ? sample.file.content : new Uint8Array(sample.file.content)], {
        type: typeof sample.file.content === 'string' ? 'application/json' : 'image/png',
      }),
      sample.file.name,
    );
    body = form;
  } else if (sample.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(sample.body);
  }
  const res = await fetch(
    `${service.url}${sample.url.replace('{jobId}', jobId).replace('{projectToken}', projectToken).replace('{activityId}', activityId).replace('{cellChangeId}', cellChangeId).replace('{webhookId}', webhookId).replace('{secondProjectToken}', secondProjectToken).replace('{screenshotId}', screenshotId).replace('{linkId}', linkId).replace('{ownerEmail}', encodeURIComponent(account.email))}`,
    { method, headers, body },
  );
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.json() };
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const validators = new Map<string, ValidateFunction>();

/** The validator of an operation's declared answer for a status. */
function validatorFor(operation: string, status: number): ValidateFunction {
  const id = `${operation} ${status}`;
  let validate = validators.get(id);
  if (!validate) {
    const [method, path] = operation.split(' ') as [string, string];
    const declared = doc.paths[path]?.[method.toLowerCase()];
    if (!declared) throw new Error(`${operation} is not in the description`);
    let response = declared.responses[status];
    if (!response) throw new Error(`${operation} declares no ${status} answer`);
    if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
    validate = ajv.compile(rewriteRefs(response.content['application/json'].schema));
    validators.set(id, validate);
  }
  return validate;
}

/** Component references point into the description added to ajv under its own id. */
const rewriteRefs = (schema: unknown) =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"https://service.test/openapi.json#/components/'));

async function expectConforms(sample: Sample, withCredentials = true, status = sample.status ?? 200): Promise<any> {
  const answer = await send(sample, withCredentials);
  expect(answer.status, `${sample.operation}: ${JSON.stringify(answer.body)}`).toBe(status);
  expect(answer.contentType).toMatch(/^application\/json/);
  const validate = validatorFor(sample.operation, status);
  expect(
    validate(answer.body),
    `${sample.operation} ${status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(answer.body).slice(0, 2000)}`,
  ).toBe(true);
  return answer.body;
}

beforeAll(async () => {
  service = await startTestService({ listen: true });
  account = await service.account();
  ({ apiKey } = await account.project('described'));
  ({ projectToken } = {
    projectToken: (
      await (await fetch(`${service.url}/api/v2/project`, { headers: { 'x-service-token': apiKey } })).json()
    ).data.projectToken,
  });
  await seedTranslations(service.db, {
    projectToken,
    translations: {
      en: { greeting: 'Hello', farewell: 'Bye' },
      de: { greeting: 'Hallo', farewell: '' },
      it: { greeting: 'Ciao' },
    },
  });
  doc = await (await fetch(`${service.url}/openapi.json`)).json();
  ajv.addSchema({ $id: 'https://service.test/openapi.json', components: rewriteRefs(doc.components) });
});

afterAll(async () => {
  await service?.close();
});

describe('the OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes the schemes, limits, enums, bodies and deprecations of the declarations', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiKey',
      'apiKeyVendorHeader',
      'basic',
      'personalToken',
    ]);
    expect(doc.components.securitySchemes.apiKeyVendorHeader).toMatchObject({
      in: 'header',
      name: 'X-SimpleLocalize-Token',
    });
    expect(doc.paths['/api/v1/customers'].get.security).toEqual([{ apiKey: [] }, { apiKeyVendorHeader: [] }]);
    expect(doc.paths['/api/v1/projects'].get.security).toEqual([{ basic: [] }]);
    const size = doc.paths['/api/v1/translation-keys'].get.parameters.find((p: any) => p.name === 'size');
    expect(size.schema).toMatchObject({ type: 'integer', minimum: 0, maximum: 2500, default: 100 });
    const sort = doc.paths['/api/v2/projects'].get.parameters.find((p: any) => p.name === 'sort');
    expect(sort.schema.enum).toContain('translation_progress');
    const options = doc.paths['/api/v2/import'].post.parameters.find((p: any) => p.name === 'importOptions');
    expect(options.schema.items.enum).toContain('REPLACE_TRANSLATION_IF_FOUND');
    expect(doc.paths['/api/v2/import'].post.requestBody.content['multipart/form-data'].schema.required).toEqual([
      'file',
    ]);
    expect(doc.paths['/api/v1/customers'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateCustomerInput',
    });
    expect(doc.components.schemas.CreateCustomerInput.properties.key).toMatchObject({ maxLength: 40 });
    expect(doc.components.schemas.CreateTranslationKeyInput.properties.tags).toMatchObject({
      maxItems: 100,
      items: { type: 'string', maxLength: 100 },
    });
    expect(doc.paths['/api/v1/languages/{languageKey}'].patch.parameters[0]).toMatchObject({
      name: 'languageKey',
      in: 'path',
      required: true,
      schema: { maxLength: 20 },
    });
    expect(doc.paths['/api/v3/export'].get.deprecated).toBe(true);
    expect(doc.paths['/api/v1/translations'].post.deprecated).toBe(true);
    for (const status of ['400', '402', '403', '404', '409', '429', '500']) {
      expect(doc.paths['/api/v1/languages'].get.responses[status]).toEqual({
        $ref: `#/components/responses/Error${status}`,
      });
    }
    expect(doc.components.responses.Error429.headers).toHaveProperty('Retry-After');
    // Deletes answer without data.
    expect(
      doc.paths['/api/v1/languages/{languageKey}'].delete.responses[200].content['application/json'].schema.required,
    ).toEqual(['msg', 'status']);
  });

  it('has a sample here for every operation it describes', () => {
    const described = Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(samples.map((s) => s.operation).sort()).toEqual(described.sort());
  });
});

describe('the samples against the description', () => {
  it('send only declared query parameters, with declared values, and declared bodies', () => {
    for (const sample of [...samples, ...errorSamples.filter((s) => s.status === 200)]) {
      const [method, path] = sample.operation.split(' ') as [string, string];
      const declared = doc.paths[path][method.toLowerCase()];
      const url = new URL(sample.url, 'http://x');
      for (const [name, value] of url.searchParams) {
        const parameter = declared.parameters.find((p: any) => p.in === 'query' && p.name === name);
        expect(parameter, `${sample.operation}: query parameter ${name} is not declared`).toBeDefined();
        const schema = parameter.schema.type === 'array' ? parameter.schema.items : parameter.schema;
        const values = parameter.schema.type === 'array' ? value.split(',') : [value];
        const validate = ajv.compile(rewriteRefs(schema));
        for (const v of values)
          expect(
            validate(schema.type === 'integer' ? Number(v) : v),
            `${sample.operation} ${name}=${v}: ${ajv.errorsText(validate.errors)}`,
          ).toBe(true);
      }
      if (sample.body !== undefined) {
        const schema = declared.requestBody?.content['application/json']?.schema;
        expect(schema, `${sample.operation} declares no JSON body`).toBeDefined();
        const validate = ajv.compile(rewriteRefs(schema));
        expect(validate(sample.body), `${sample.operation} body: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
      if (sample.file) expect(declared.requestBody.content).toHaveProperty('multipart/form-data');
    }
  });
});

describe('the running service against its description', () => {
  it('answers each operation with the declared success shape', async () => {
    for (const sample of samples) {
      const body = await expectConforms(sample);
      sample.after?.(body.data);
    }
  });

  it('answers each operation without credentials with the declared 403 envelope', async () => {
    for (const sample of samples) await expectConforms(sample, false, 403);
  });

  it('answers bad input, unknown resources and conflicts with the declared error envelopes', async () => {
    for (const sample of errorSamples) await expectConforms(sample);
  });

  it('refuses with 400 every query value outside its declared enum or limits', async () => {
    let checked = 0;
    for (const sample of samples) {
      const [method, path] = sample.operation.split(' ') as [string, string];
      for (const parameter of doc.paths[path][method.toLowerCase()].parameters.filter((p: any) => p.in === 'query')) {
        const schema = parameter.schema.type === 'array' ? parameter.schema.items : parameter.schema;
        const wrong = [
          ...(schema.enum ? ['NOT_A_VALUE'] : []),
          ...(schema.maximum !== undefined ? [String(schema.maximum + 1)] : []),
          ...(schema.minimum !== undefined ? [String(schema.minimum - 1)] : []),
          ...(schema.type === 'integer' ? ['ten'] : []),
          ...(schema.maxLength !== undefined ? ['x'.repeat(schema.maxLength + 1)] : []),
        ];
        for (const value of wrong) {
          const url = new URL(sample.url, 'http://x');
          url.searchParams.set(parameter.name, value);
          await expectConforms({ ...sample, url: `${url.pathname}${url.search}` }, true, 400);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
  });
});

describe('the reference page', () => {
  it('serves /docs with the renderer from the service itself, no other origin', async () => {
    const res = await fetch(`${service.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toContain('/docs/swagger-ui-bundle.js');
    for (const asset of assets) {
      const answer = await fetch(`${service.url}${asset}`);
      expect(answer.status, asset).toBe(200);
      expect((await answer.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }
    const init = await (await fetch(`${service.url}/docs/init.js`)).text();
    expect(init).toContain("url: '/openapi.json'");
    expect((await fetch(`${service.url}/docs/package.json`)).status).toBe(404);
  });
});
