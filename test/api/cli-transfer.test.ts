// The official command-line client's file calls (spec/real-clients.md), replayed
// byte for byte as the client (v2.11) makes them, against the service
// listening on loopback: a hand-built multipart body (part Content-Type `null`,
// no CRLF after the closing boundary), query strings joined by hand (values
// not URL-encoded, lists comma-joined), the X-SimpleLocalize-Token header. The
// assertions are what the client reads: exactly 200, `msg`, `data` of a
// preview, `files[]` at the root of a download, a 200 for each file fetch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomInt } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { contentOf, importRequest, keysOf, projectSnapshot } from '../support/transfer.js';

let service: TestService;
let account: Awaited<ReturnType<TestService['account']>>;

beforeAll(async () => {
  service = await startTestService({ listen: true });
  account = await service.account({ plan: 'business' });
});
afterAll(() => service.close());

const CLI_VERSION = '2.11.0';
const json = (value: unknown) => JSON.stringify(value);

/** The body the client builds: one part `file`, its Content-Type the OS's guess (here `null`), no CRLF after the closing boundary. */
function clientMultipart(
  fileName: string,
  content: string | Buffer,
  partContentType = 'null',
): { body: Buffer; contentType: string } {
  const boundary = `simplelocalize-${randomInt(1_000_000_000)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=`, 'utf8'),
    Buffer.from(`"file"; filename="${fileName}"\r\nContent-Type: ${partContentType}\r\n\r\n`, 'utf8'),
    Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'),
    Buffer.from('\r\n', 'utf8'),
    Buffer.from(`--${boundary}--`, 'utf8'),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

const clientHeaders = (apiKey: string) => ({
  'X-SimpleLocalize-Cli-Version': CLI_VERSION,
  'X-SimpleLocalize-Token': apiKey,
});

interface Reply {
  status: number;
  body: any;
  text: string;
}

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

/** POST /cli/v2/upload or upload-preview with the query exactly as given (joined by hand, not encoded). */
async function cliUpload(
  command: 'upload' | 'upload-preview',
  apiKey: string,
  query: string,
  fileName: string,
  content: string | Buffer,
  partContentType?: string,
): Promise<Reply> {
  const { body, contentType } = clientMultipart(fileName, content, partContentType);
  const res = await fetch(`${service.url}/cli/v2/${command}?${query}`, {
    method: 'POST',
    headers: { ...clientHeaders(apiKey), 'Content-Type': contentType },
    body: new Uint8Array(body),
  });
  return reply(res);
}

async function cliDownload(apiKey: string, query: string): Promise<Reply> {
  return reply(await fetch(`${service.url}/cli/v2/download?${query}`, { headers: clientHeaders(apiKey) }));
}

/** The client's file fetch: GET <url> with its headers; the url names the configured PUBLIC_URL, served here on loopback. */
async function fetchFile(apiKey: string, url: string): Promise<{ status: number; text: string }> {
  expect(url.startsWith(`${service.config.publicUrl}/`)).toBe(true);
  const u = new URL(url);
  const res = await fetch(`${service.url}${u.pathname}${u.search}`, { headers: clientHeaders(apiKey) });
  return { status: res.status, text: await res.text() };
}

async function uploadOk(apiKey: string, query: string, fileName: string, content: string): Promise<any> {
  const res = await cliUpload('upload', apiKey, query, fileName, content);
  if (res.status !== 200) throw new Error(`upload failed with ${res.status}: ${res.text}`);
  return res.body.data;
}

const FILE_FIELDS = ['url', 'language', 'namespace', 'customer', 'translationKey', 'remotePath'];

describe('POST /cli/v2/upload', () => {
  it("imports the file of the client's exact request and answers exactly 200", async () => {
    const { apiKey, projectToken } = await account.project('cli upload');
    const res = await cliUpload(
      'upload',
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&uploadOptions=REPLACE_TRANSLATION_IF_FOUND&tags=web,mobile&namespace=common&fileName=common.json&source=CLI',
      'common.json',
      json({ 'home.title': 'Home', 'home.cta': 'Start now' }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ msg: 'OK', status: 200 });
    expect(res.body.data).toMatchObject({
      numberOfKeysFound: 2,
      keysCreated: 2,
      translationsInserted: 2,
      keysDeleted: 0,
      languagesCreated: [],
    });
    expect(await contentOf(service, projectToken)).toEqual({
      en: { 'common/home.title': 'Home', 'common/home.cta': 'Start now' },
    });
    expect((await keysOf(service, projectToken)).map((k) => [k.namespace, k.key, k.tags])).toEqual([
      ['common', 'home.title', ['web', 'mobile']],
      ['common', 'home.cta', ['web', 'mobile']],
    ]);
  });

  it("reads values as the client sends them: not URL-encoded (+ is a plus), lists comma-joined, the OS's part Content-Type", async () => {
    const { apiKey, projectToken } = await account.project('cli raw query');
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=pt-BR&namespace=app+web&tags=a+b,c&fileName=pt-BR.json',
      'pt-BR.json',
      json({ hello: 'Olá' }),
    );
    // The OS's guess for a JSON file, as the client may send it instead of `null`.
    const guessed = await cliUpload(
      'upload',
      apiKey,
      'uploadFormat=single-language-json&languageKey=pt-BR&namespace=app+web&fileName=x.json',
      'x.json',
      json({ bye: 'Tchau' }),
      'application/json',
    );
    expect(guessed.status).toBe(200);
    expect(await contentOf(service, projectToken)).toEqual({
      'pt-BR': { 'app+web/hello': 'Olá', 'app+web/bye': 'Tchau' },
    });
    expect((await keysOf(service, projectToken))[0]!.tags).toEqual(['a+b', 'c']);
  });

  it('answers a refused upload with a status other than 200 and a msg, and leaves the project unchanged', async () => {
    const { apiKey, projectToken } = await account.project('cli refused');
    await uploadOk(apiKey, 'uploadFormat=single-language-json&languageKey=en', 'en.json', json({ keep: 'Kept' }));
    const before = await projectSnapshot(service, projectToken);
    const cases: [string, string, RegExp][] = [
      [
        'uploadFormat=single-language-json&languageKey=en&uploadOptions=DELETE_NOT_PRESENT_KEYS',
        '{"broken": ',
        /not a valid single-language-json file/,
      ],
      [
        'uploadFormat=single-language-json&languageKey=en&uploadOptions=NOT_AN_OPTION',
        json({ a: 'A' }),
        /uploadOptions must be one of/,
      ],
      ['uploadFormat=papyrus&languageKey=en', json({ a: 'A' }), /Unknown uploadFormat 'papyrus'/],
      ['uploadFormat=single-language-json', json({ a: 'A' }), /languageKey is required/],
      [
        'uploadFormat=single-language-json&languageKey=en&uploadOptions=INCLUDE_FILE_PATH',
        json({ a: 'A' }),
        /INCLUDE_FILE_PATH needs the path/,
      ],
      ['uploadFormat=single-language-json&languageKey=en&translationKey=blog.post', json({ a: 'A' }), /translationKey/],
      [
        'uploadFormat=single-language-json&languageKey=en&customerId=acme&uploadOptions=DELETE_NOT_PRESENT_KEYS',
        json({ a: 'A' }),
        /cannot be combined with customerId/,
      ],
    ];
    for (const [query, content, msg] of cases) {
      const res = await cliUpload('upload', apiKey, query, 'en.json', content);
      expect(res.status, query).toBe(400);
      expect(res.body.msg, query).toMatch(msg);
    }
    const wrongKey = await cliUpload(
      'upload',
      'not-the-key',
      'uploadFormat=single-language-json&languageKey=en',
      'en.json',
      json({ a: 'A' }),
    );
    expect(wrongKey.status).toBe(403);
    expect(typeof wrongKey.body.msg).toBe('string');
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });
});

/**
 * A request as Java's HttpClient (the client's) sends it over plain http: it
 * asks to switch to HTTP/2 (`Upgrade: h2c`), which the server must ignore and
 * answer as HTTP/1.1. (fetch cannot send these headers; node:http can.)
 */
function javaRequest(
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${service.url}${path}`,
      {
        method,
        headers: {
          Connection: 'Upgrade, HTTP2-Settings',
          'HTTP2-Settings': 'AAEAAEAAAAIAAAABAAMAAABkAAQBAAAAAAUAAEAA',
          Upgrade: 'h2c',
          'User-Agent': 'Java-http-client/17.0.15',
          ...headers,
          ...(body && { 'Content-Length': String(body.length) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode!, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe("Java's HttpClient asking for Upgrade: h2c", () => {
  it('is answered as HTTP/1.1: upload with its body, download, file fetch', async () => {
    const { apiKey, projectToken } = await account.project('cli h2c');
    const { body, contentType } = clientMultipart('en.json', json({ hello: 'Hello' }));
    const upload = await javaRequest(
      'POST',
      '/cli/v2/upload?uploadFormat=single-language-json&languageKey=en',
      { ...clientHeaders(apiKey), 'Content-Type': contentType },
      body,
    );
    expect(upload.status, upload.text).toBe(200);
    expect(await contentOf(service, projectToken)).toEqual({ en: { hello: 'Hello' } });
    const listed = await javaRequest(
      'GET',
      '/cli/v2/download?downloadFormat=single-language-json&languageKey=en',
      clientHeaders(apiKey),
    );
    expect(listed.status, listed.text).toBe(200);
    const file = await javaRequest('GET', new URL(listed.body.files[0].url).pathname, clientHeaders(apiKey));
    expect(file.status).toBe(200);
    expect(JSON.parse(file.text)).toEqual({ hello: 'Hello' });
  });
});

describe('DELETE_NOT_PRESENT_KEYS', () => {
  async function seeded() {
    const project = await account.project('cli delete');
    await uploadOk(
      project.apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=home',
      'home.json',
      json({ title: 'Home', old: 'Old', locked: 'Locked' }),
    );
    await uploadOk(
      project.apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=shop',
      'shop.json',
      json({ cart: 'Cart' }),
    );
    await uploadOk(
      project.apiKey,
      'uploadFormat=single-language-json&languageKey=de&namespace=home',
      'home.json',
      json({ old: 'Alt' }),
    );
    const lock = await service.request({
      method: 'PATCH',
      url: '/api/v1/translation-keys?key=locked&namespace=home',
      headers: { 'x-service-token': project.apiKey },
      payload: { lock: true },
    });
    expect(lock.statusCode).toBe(200);
    return project;
  }

  it('deletes the keys of the uploaded namespace that the file lacks (with their translations), in the same import; other namespaces and locked keys stay', async () => {
    const { apiKey, projectToken } = await seeded();
    const data = await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=home&uploadOptions=DELETE_NOT_PRESENT_KEYS',
      'home.json',
      json({ title: 'Home!', added: 'New' }),
    );
    expect(data).toMatchObject({ keysDeleted: 1, keysCreated: 1, translationsInserted: 1 });
    expect((await keysOf(service, projectToken)).map((k) => `${k.namespace}/${k.key}`)).toEqual([
      'home/title',
      'home/locked',
      'shop/cart',
      'home/added',
    ]);
    expect(await contentOf(service, projectToken)).toEqual({
      en: { 'home/title': 'Home', 'home/locked': 'Locked', 'shop/cart': 'Cart', 'home/added': 'New' },
    });
  });

  it('without a namespace, deletes every key of the project the file lacks', async () => {
    const { apiKey, projectToken } = await seeded();
    const data = await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&uploadOptions=DELETE_NOT_PRESENT_KEYS,REPLACE_TRANSLATION_IF_FOUND',
      'en.json',
      json({ solo: 'Alone' }),
    );
    expect(data.keysDeleted).toBe(3);
    expect((await keysOf(service, projectToken)).map((k) => `${k.namespace}/${k.key}`)).toEqual([
      'home/locked',
      '/solo',
    ]);
  });

  it('is reported by /api/v2/import too (same engine), and a refused file deletes nothing', async () => {
    const { apiKey, projectToken } = await seeded();
    const before = await projectSnapshot(service, projectToken);
    const refused = await importRequest(service, apiKey, '{"title": ', {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      namespace: 'home',
      importOptions: 'DELETE_NOT_PRESENT_KEYS',
    });
    expect(refused.statusCode).toBe(400);
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
    const res = await importRequest(service, apiKey, json({ cart: 'Cart' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      namespace: 'shop',
      importOptions: 'DELETE_NOT_PRESENT_KEYS',
    });
    expect(res.statusCode).toBe(200);
    expect(envelope(res).data).toMatchObject({ numberOfKeysFound: 1, keysDeleted: 0 });
  });
});

describe('POST /cli/v2/upload-preview', () => {
  it('answers in data what the upload would change, writes nothing, and agrees with the upload that follows', async () => {
    const { apiKey, projectToken } = await account.project('cli preview');
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=home',
      'home.json',
      json({ title: 'Home', old: 'Old', gone: 'Gone' }),
    );
    const before = await projectSnapshot(service, projectToken);
    const query =
      'uploadFormat=single-language-json&languageKey=fr&namespace=home&uploadOptions=DELETE_NOT_PRESENT_KEYS&fileName=home.json';
    const file = json({ title: 'Accueil', added: 'Nouveau' });
    const preview = await cliUpload('upload-preview', apiKey, query, 'home.json', file);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ msg: 'OK', status: 200 });
    expect(preview.body.data).toEqual({
      numberOfKeysFound: 2,
      numberOfUniqueKeysFound: 2,
      foundLanguages: [{ key: 'fr', name: 'French' }],
      languagesToCreate: ['fr'],
      keysToCreate: { count: 1, keys: [{ key: 'added', namespace: 'home' }] },
      keysToDelete: {
        count: 2,
        keys: [
          { key: 'old', namespace: 'home' },
          { key: 'gone', namespace: 'home' },
        ],
      },
      translationsToInsert: 2,
      translationsToUpdate: 0,
    });
    expect(await projectSnapshot(service, projectToken)).toEqual(before);

    const done = await uploadOk(apiKey, query, 'home.json', file);
    expect(done).toMatchObject({
      languagesCreated: ['fr'],
      keysCreated: 1,
      keysDeleted: 2,
      translationsInserted: 2,
      translationsUpdated: 0,
    });
    expect(await contentOf(service, projectToken)).toEqual({
      en: { 'home/title': 'Home' },
      fr: { 'home/title': 'Accueil', 'home/added': 'Nouveau' },
    });
  });

  it('counts the translations an overwrite would update, and refuses what the upload would refuse', async () => {
    const { apiKey, projectToken } = await account.project('cli preview update');
    await uploadOk(apiKey, 'uploadFormat=single-language-json&languageKey=en', 'en.json', json({ a: 'A', b: 'B' }));
    const before = await projectSnapshot(service, projectToken);
    const preview = await cliUpload(
      'upload-preview',
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&uploadOptions=REPLACE_TRANSLATION_IF_FOUND',
      'en.json',
      json({ a: 'A2', b: 'B' }),
    );
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({
      translationsToInsert: 0,
      translationsToUpdate: 1,
      keysToCreate: { count: 0, keys: [] },
      keysToDelete: { count: 0, keys: [] },
    });
    const bad = await cliUpload(
      'upload-preview',
      apiKey,
      'uploadFormat=single-language-json&languageKey=en',
      'en.json',
      '[1, 2',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/not a valid single-language-json file/);
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
  });
});

describe('GET /cli/v2/download', () => {
  let apiKey: string;
  beforeAll(async () => {
    ({ apiKey } = await account.project('cli download'));
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=home&tags=web',
      'home.json',
      json({ title: 'Home', cta: 'Go' }),
    );
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=fr&namespace=home',
      'home.json',
      json({ title: 'Accueil' }),
    );
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=shop&tags=mobile',
      'shop.json',
      json({ cart: 'Cart' }),
    );
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=de',
      'de.json',
      json({ only: 'Nur Deutsch' }),
    );
    for (const key of ['acme', 'globex']) {
      const res = await service.request({
        method: 'POST',
        url: '/api/v1/customers',
        headers: { 'x-service-token': apiKey },
        payload: { key },
      });
      expect(res.statusCode).toBe(200);
    }
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=home&customerId=acme',
      'acme.json',
      json({ title: 'Acme home' }),
    );
  });

  /** The files of a download, each fetched as the client does. */
  async function downloaded(query: string): Promise<{ file: Record<string, unknown>; content: any }[]> {
    const res = await cliDownload(apiKey, query);
    expect(res.status, res.text).toBe(200);
    expect(Array.isArray(res.body.files)).toBe(true);
    const out = [];
    for (const file of res.body.files) {
      expect(Object.keys(file).sort()).toEqual([...FILE_FIELDS].sort());
      const fetched = await fetchFile(apiKey, file.url);
      expect(fetched.status).toBe(200);
      out.push({ file, content: JSON.parse(fetched.text) });
    }
    return out;
  }

  it('lists files[] at the root of the body with all six fields (absent ones null); each file fetch with the token header answers 200', async () => {
    const res = await cliDownload(
      apiKey,
      'downloadFormat=single-language-json&languageKey=en,fr&downloadOptions=SPLIT_BY_LANGUAGES',
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['files', 'msg', 'status']);
    expect(res.body.data).toBeUndefined();
    expect(res.body.files.map((f: any) => ({ ...f, url: typeof f.url }))).toEqual([
      { url: 'string', language: 'en', namespace: null, customer: null, translationKey: null, remotePath: 'en.json' },
      { url: 'string', language: 'fr', namespace: null, customer: null, translationKey: null, remotePath: 'fr.json' },
    ]);
    const files = await downloaded(
      'downloadFormat=single-language-json&languageKey=en,fr&downloadOptions=SPLIT_BY_LANGUAGES',
    );
    expect(files.map((f) => f.content)).toEqual([
      { title: 'Home', cta: 'Go', cart: 'Cart', only: '' },
      { title: 'Accueil', cta: '', cart: '', only: '' },
    ]);
  });

  it("splits by namespace and language ({ns} and {lang} in the client's path) into <namespace>_<language> files", async () => {
    const files = await downloaded(
      'downloadFormat=single-language-json&languageKey=en&downloadOptions=SPLIT_BY_NAMESPACES,SPLIT_BY_LANGUAGES&sort=NAMESPACES',
    );
    expect(
      files.map((f) => [f.file.namespace, f.file.language, new URL(f.file.url as string).pathname.split('/').pop()]),
    ).toEqual([
      ['_default', 'en', '_default_en.json'],
      ['home', 'en', 'home_en.json'],
      ['shop', 'en', 'shop_en.json'],
    ]);
    expect(files.map((f) => f.content)).toEqual([{ only: '' }, { cta: 'Go', title: 'Home' }, { cart: 'Cart' }]);
  });

  it('filters by namespace and by tags', async () => {
    const byNamespace = await downloaded(
      'downloadFormat=single-language-json&languageKey=en&namespace=home&downloadOptions=SPLIT_BY_LANGUAGES',
    );
    expect(byNamespace.map((f) => f.content)).toEqual([{ title: 'Home', cta: 'Go' }]);
    const byTags = await downloaded('downloadFormat=single-language-json&languageKey=en,fr&tags=web,mobile');
    expect(byTags.map((f) => [f.file.language, f.content])).toEqual([
      ['en', { title: 'Home', cta: 'Go', cart: 'Cart' }],
      ['fr', { title: 'Accueil', cta: '', cart: '' }],
    ]);
    const both = await downloaded('downloadFormat=single-language-json&languageKey=en&tags=mobile&namespace=home');
    expect(both.map((f) => f.content)).toEqual([{}]);
  });

  it('applies the tags filter before choosing one key per name, in key order and in path order (WRITE_NESTED)', async () => {
    const project = await account.project('cli tags one per name');
    // `title` in namespace "aaa" (untagged) comes first in code-point order; the tagged one is in "home".
    await uploadOk(
      project.apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=aaa',
      'aaa.json',
      json({ title: 'Untagged', 'menu.open': 'Open' }),
    );
    await uploadOk(
      project.apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=home&tags=web',
      'home.json',
      json({ title: 'Tagged', 'menu.close': 'Close' }),
    );
    for (const options of ['', '&downloadOptions=WRITE_NESTED']) {
      const res = await cliDownload(
        project.apiKey,
        `downloadFormat=single-language-json&languageKey=en&tags=web${options}`,
      );
      expect(res.status).toBe(200);
      const fetched = await fetchFile(project.apiKey, res.body.files[0].url);
      expect(JSON.parse(fetched.text), options).toEqual(
        options ? { title: 'Tagged', menu: { close: 'Close' } } : { title: 'Tagged', 'menu.close': 'Close' },
      );
    }
  });

  it('splits by customer ({customer} in the path): one file per customer, its texts merged over the base, customer filled', async () => {
    const files = await downloaded(
      'downloadFormat=single-language-json&languageKey=en&namespace=home&downloadOptions=SPLIT_BY_CUSTOMERS,SPLIT_BY_LANGUAGES',
    );
    expect(
      files.map((f) => [
        f.file.customer,
        f.file.language,
        new URL(f.file.url as string).pathname.split('/').pop(),
        f.content,
      ]),
    ).toEqual([
      ['acme', 'en', 'acme_en.json', { title: 'Acme home', cta: 'Go' }],
      ['globex', 'en', 'globex_en.json', { title: 'Home', cta: 'Go' }],
    ]);
    const one = await downloaded(
      'downloadFormat=single-language-json&languageKey=en&namespace=home&customerId=acme&downloadOptions=SPLIT_BY_CUSTOMERS',
    );
    expect(one.map((f) => [f.file.customer, f.content])).toEqual([['acme', { title: 'Acme home', cta: 'Go' }]]);
  });

  it('answers a refusal with a status other than 200 and a msg', async () => {
    const unknown = await cliDownload(apiKey, 'downloadFormat=papyrus');
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toContain("Unknown downloadFormat 'papyrus'");
    const language = await cliDownload(apiKey, 'downloadFormat=single-language-json&languageKey=en,xx');
    expect(language.status).toBe(400);
    expect(language.body.msg).toContain("'xx'");
    const option = await cliDownload(apiKey, 'downloadFormat=single-language-json&downloadOptions=NOPE');
    expect(option.status).toBe(400);
    expect(option.body.msg).toMatch(/downloadOptions must be one of/);
  });
});

describe('INCLUDE_FILE_PATH', () => {
  it("records the uploaded file's path on its keys; a download gives it back as remotePath when a file's keys share one", async () => {
    const { apiKey, projectToken } = await account.project('cli file path');
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=home&uploadOptions=INCLUDE_FILE_PATH&fileName=home.json&path=./src/locales/home.json',
      'home.json',
      json({ title: 'Home' }),
    );
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=shop&uploadOptions=INCLUDE_FILE_PATH&fileName=shop.json&path=src/features/shop/messages.json',
      'shop.json',
      json({ cart: 'Cart' }),
    );
    // Without the option the path is not recorded.
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=misc&fileName=misc.json&path=src/misc.json',
      'misc.json',
      json({ misc: 'Misc' }),
    );
    const rows = await service.db.prisma.translationKey.findMany({
      where: { project: { projectToken } },
      orderBy: { importOrder: 'asc' },
      select: { key: true, filePath: true },
    });
    expect(rows).toEqual([
      { key: 'title', filePath: 'src/locales/home.json' },
      { key: 'cart', filePath: 'src/features/shop/messages.json' },
      { key: 'misc', filePath: '' },
    ]);

    const res = await cliDownload(
      apiKey,
      'downloadFormat=single-language-json&languageKey=en&downloadOptions=SPLIT_BY_NAMESPACES&sort=NAMESPACES',
    );
    expect(res.status).toBe(200);
    expect(res.body.files.map((f: any) => [f.namespace, f.remotePath])).toEqual([
      ['home', 'src/locales/home.json'],
      ['misc', 'misc_en.json'],
      ['shop', 'src/features/shop/messages.json'],
    ]);
    const whole = await cliDownload(apiKey, 'downloadFormat=single-language-json&languageKey=en');
    expect(whole.body.files.map((f: any) => f.remotePath)).toEqual(['en.json']);

    // The contract's import takes the client's `path` too, and a later upload's path replaces a key's.
    const v2 = await importRequest(service, apiKey, json({ misc: 'Misc' }), {
      uploadFormat: 'single-language-json',
      languageKey: 'en',
      namespace: 'misc',
      importOptions: 'INCLUDE_FILE_PATH',
      path: 'lib\\misc.json',
    });
    expect(v2.statusCode).toBe(200);
    const misc = await service.db.prisma.translationKey.findFirstOrThrow({
      where: { project: { projectToken }, key: 'misc' },
      select: { filePath: true },
    });
    expect(misc.filePath).toBe('lib/misc.json');
  });
});

describe('{remotePath} and {ns} downloads: every file has a path the client can write', () => {
  /** The client's path for a file: its downloadPath with {remotePath}, {ns}, {lang} filled as the client fills them (null: ''). */
  const clientPath = (pattern: string, file: any) =>
    pattern
      .replace('{remotePath}', file.remotePath ?? '')
      .replace('{ns}', file.namespace ?? '')
      .replace('{lang}', file.language ?? '');
  const writable = (path: string) =>
    !path.endsWith('/') && !/(^|\/)\.[^/]*$/.test(path) && !path.split('/').includes('');

  it('keys uploaded without INCLUDE_FILE_PATH, across namespaces and languages, the default namespace included', async () => {
    const { apiKey, projectToken } = await account.project('cli remote paths');
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=home',
      'home.json',
      json({ title: 'Home' }),
    );
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=fr&namespace=home',
      'home.json',
      json({ title: 'Accueil' }),
    );
    await uploadOk(apiKey, 'uploadFormat=single-language-json&languageKey=en', 'common.json', json({ ok: 'OK' }));
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=shop&uploadOptions=INCLUDE_FILE_PATH&path=src/shop/en.json',
      'en.json',
      json({ cart: 'Cart' }),
    );

    const split = await cliDownload(
      apiKey,
      'downloadFormat=single-language-json&languageKey=en,fr&downloadOptions=SPLIT_BY_NAMESPACES,SPLIT_BY_LANGUAGES&sort=NAMESPACES',
    );
    expect(split.status, split.text).toBe(200);
    expect(split.body.files.map((f: any) => [f.namespace, f.language, f.remotePath])).toEqual([
      ['_default', 'en', '_default_en.json'],
      ['_default', 'fr', '_default_fr.json'],
      ['home', 'en', 'home_en.json'],
      ['home', 'fr', 'home_fr.json'],
      ['shop', 'en', 'src/shop/en.json'],
      ['shop', 'fr', 'src/shop/en.json'],
    ]);
    // {remotePath}: a file path for each; {ns}/{lang}: the default namespace's file has a name, not `.json`.
    const remote = split.body.files.map((f: any) => clientPath('./locales/{remotePath}', f));
    expect(remote.every(writable), remote.join(', ')).toBe(true);
    const byNamespace = split.body.files.map((f: any) => clientPath('./locales/{lang}/{ns}.json', f));
    expect(byNamespace.slice(0, 2)).toEqual(['./locales/en/_default.json', './locales/fr/_default.json']);
    expect(new Set(byNamespace).size).toBe(byNamespace.length);

    // Whole-project and zipped downloads name their file too.
    const multi = await cliDownload(apiKey, 'downloadFormat=multi-language-json');
    expect(multi.body.files.map((f: any) => f.remotePath)).toEqual(['translations.json']);
    const zip = await cliDownload(apiKey, 'downloadFormat=single-language-json&downloadOptions=ZIP_FILES');
    expect(zip.body.files.map((f: any) => f.remotePath)).toEqual(['translations-single-language-json.zip']);

    // The client's {ns} upload of `_default.json` goes back to the default namespace, and its download filter reads it alike.
    const before = await keysOf(service, projectToken);
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=_default&uploadOptions=REPLACE_TRANSLATION_IF_FOUND',
      '_default.json',
      json({ ok: 'Okay' }),
    );
    expect(await keysOf(service, projectToken)).toEqual(before);
    const onlyDefault = await cliDownload(
      apiKey,
      'downloadFormat=single-language-json&languageKey=en&namespace=_default&downloadOptions=SPLIT_BY_NAMESPACES',
    );
    expect(onlyDefault.body.files.map((f: any) => [f.namespace, f.remotePath])).toEqual([
      ['_default', '_default_en.json'],
    ]);
    const [file] = onlyDefault.body.files;
    expect(JSON.parse((await fetchFile(apiKey, file.url)).text)).toEqual({ ok: 'Okay' });
  });
});

describe('POST /cli/v1/stacktrace', () => {
  const post = (apiKey: string, body: string) =>
    fetch(`${service.url}/cli/v1/stacktrace`, {
      method: 'POST',
      headers: { ...clientHeaders(apiKey), 'Content-Type': 'application/json; charset=utf-8' },
      body,
    }).then(reply);

  it("accepts the client's failure report with 200", async () => {
    const { apiKey } = await account.project('cli stacktrace');
    const res = await post(
      apiKey,
      json({
        configuration: 'Configuration{uploadFormat=json}',
        message: 'Request failed',
        stacktrace: 'io.simplelocalize.cli.exception.ApiRequestException: Request failed\n\tat …',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ msg: 'OK', status: 200 });
  });

  it('refuses a body that is not an object of strings within the size limits', async () => {
    const { apiKey } = await account.project('cli stacktrace bad');
    const notString = await post(apiKey, json({ configuration: '', message: 42, stacktrace: '' }));
    expect(notString.status).toBe(400);
    expect(notString.body.msg).toBe('message must be a string');
    const array = await post(apiKey, json(['a']));
    expect(array.status).toBe(400);
    const huge = await post(apiKey, json({ configuration: '', message: '', stacktrace: 'x'.repeat(100_001) }));
    expect(huge.status).toBe(400);
    expect(huge.body.msg).toBe('stacktrace must have at most 100000 characters');
  });
});

describe('previewImport and importFile over GraphQL (multipart request spec)', () => {
  async function gqlUpload(apiKey: string, query: string, variables: Record<string, unknown>, content: string) {
    const form = new FormData();
    form.set('operations', JSON.stringify({ query, variables: { file: null, ...variables } }));
    form.set('map', JSON.stringify({ 0: ['variables.file'] }));
    form.set('0', new Blob([content], { type: 'application/json' }), 'home.json');
    const res = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'x-service-token': apiKey },
      body: form,
    });
    return (await res.json()) as { data?: any; errors?: { message: string }[] };
  }
  const ARGS = `$file: Upload!, $options: [ImportOption!], $path: String`;
  const CALL = `file: $file, uploadFormat: SINGLE_LANGUAGE_JSON, languageKey: "en", namespace: "home", importOptions: $options, filePath: $path`;

  it('previews, then imports with the same arguments: the same changes', async () => {
    const { apiKey, projectToken } = await account.project('gql preview');
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=home',
      'home.json',
      json({ a: 'A', b: 'B' }),
    );
    const before = await projectSnapshot(service, projectToken);
    const variables = {
      options: ['DELETE_NOT_PRESENT_KEYS', 'REPLACE_TRANSLATION_IF_FOUND', 'INCLUDE_FILE_PATH'],
      path: 'web/home.json',
    };
    const file = json({ a: 'A2', c: 'C' });
    const preview = await gqlUpload(
      apiKey,
      `mutation (${ARGS}) { previewImport(${CALL}) {
      keysToCreate { count keys { key namespace } } keysToDelete { count keys { key } } translationsToInsert translationsToUpdate languagesToCreate } }`,
      variables,
      file,
    );
    expect(preview.errors).toBeUndefined();
    expect(preview.data.previewImport).toEqual({
      keysToCreate: { count: 1, keys: [{ key: 'c', namespace: 'home' }] },
      keysToDelete: { count: 1, keys: [{ key: 'b' }] },
      translationsToInsert: 1,
      translationsToUpdate: 1,
      languagesToCreate: [],
    });
    expect(await projectSnapshot(service, projectToken)).toEqual(before);
    const done = await gqlUpload(
      apiKey,
      `mutation (${ARGS}) { importFile(${CALL}) { keysCreated keysDeleted translationsInserted translationsUpdated languagesCreated } }`,
      variables,
      file,
    );
    expect(done.errors).toBeUndefined();
    expect(done.data.importFile).toEqual({
      keysCreated: 1,
      keysDeleted: 1,
      translationsInserted: 1,
      translationsUpdated: 1,
      languagesCreated: [],
    });
    expect(await contentOf(service, projectToken)).toEqual({ en: { 'home/a': 'A2', 'home/c': 'C' } });
    const paths = await service.db.prisma.translationKey.findMany({
      where: { project: { projectToken } },
      select: { filePath: true },
    });
    expect(paths.map((k) => k.filePath)).toEqual(['web/home.json', 'web/home.json']);
  });
});

describe('the same options on /api/v4/export and GraphQL', () => {
  it('SPLIT_BY_CUSTOMERS, namespace and tags filters, customer and remotePath of the files', async () => {
    const { apiKey } = await account.project('v4 options');
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=home&tags=web&uploadOptions=INCLUDE_FILE_PATH&path=locales/home.json',
      'home.json',
      json({ title: 'Home' }),
    );
    await uploadOk(
      apiKey,
      'uploadFormat=single-language-json&languageKey=en&namespace=shop',
      'shop.json',
      json({ cart: 'Cart' }),
    );
    await service.request({
      method: 'POST',
      url: '/api/v1/customers',
      headers: { 'x-service-token': apiKey },
      payload: { key: 'acme' },
    });
    const v4 = await service.request({
      url: '/api/v4/export?downloadFormat=single-language-json&downloadOptions=SPLIT_BY_CUSTOMERS&namespace=home&tags=web',
      headers: { 'x-service-token': apiKey },
    });
    expect(v4.statusCode).toBe(200);
    expect(envelope(v4).data.files.map((f: any) => ({ ...f, url: undefined }))).toEqual([
      { url: undefined, language: 'en', customer: 'acme' },
    ]);

    const gql = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': apiKey, 'content-type': 'application/json' },
      payload: {
        query: `mutation { exportTranslations(downloadFormat: SINGLE_LANGUAGE_JSON, namespace: "home", tags: ["web"], downloadOptions: [SPLIT_BY_NAMESPACES]) { files { fileName language namespace customer remotePath } } }`,
      },
    });
    expect(gql.json().data.exportTranslations.files).toEqual([
      { fileName: 'home_en.json', language: 'en', namespace: 'home', customer: null, remotePath: 'locales/home.json' },
    ]);
  });
});
