// Secrets at rest (src/auth/sealed-secrets.ts): provider API keys are sealed
// with the server key in the database, never returned by an API, bound to
// their project, and sealed by the start-up data migration when stored in
// plain text by an older version. The server key is generated into DATA_DIR
// (mode 0600) or taken from SECRET_KEY; another key is refused at start-up.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, startTestService, type TestService } from '../support/service.js';
import { prepareDatabase } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import {
  loadSecretKey,
  open,
  seal,
  SealedSecretError,
  useSecretKey,
  verifySecretKey,
} from '../../src/auth/sealed-secrets.js';
import { providerApiKey } from '../../src/jobs/provider-keys.js';
import { readSettings, updateSettings } from '../../src/projects/settings.js';

let service: TestService;
let apiKey: string;
let projectToken: string;
let token: string;
const PLAIN = `provider-secret-${randomBytes(8).toString('hex')}`;

beforeAll(async () => {
  service = await startTestService();
  const account = await service.account();
  token = account.token;
  ({ apiKey, projectToken } = await account.project('Secrets'));
});
afterAll(() => service.close());

const gql = (query: string, headers: Record<string, string> = { 'x-service-token': apiKey }) =>
  service.request({
    method: 'POST',
    url: '/graphql',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: { query },
  });

async function projectRow(token = projectToken) {
  const rows = await service.db.prisma.$queryRawUnsafe<{ id: number; settings: string }[]>(
    `SELECT id, settings::text AS settings FROM "Project" WHERE "projectToken" = $1`,
    token,
  );
  return rows[0]!;
}

describe('provider API keys', () => {
  it('are stored sealed: the database column holds no plain text, and the key opens for its project only', async () => {
    const res = await gql(`mutation { setProviderApiKey(provider: MT_PROVIDER_B, apiKey: "${PLAIN}") }`);
    expect(res.json()).toEqual({ data: { setProviderApiKey: true } });
    const row = await projectRow();
    expect(row.settings).not.toContain(PLAIN);
    expect(row.settings).not.toContain(Buffer.from(PLAIN).toString('base64'));
    const settings = await readSettings(row.id);
    expect(settings.providerApiKeys!.MT_PROVIDER_B).toMatch(/^sealed:v1:/);
    expect(providerApiKey(row.id, settings, 'MT_PROVIDER_B')).toBe(PLAIN);
    // Copied into another project's settings, the sealed value does not open there.
    expect(() => providerApiKey(row.id + 1, settings, 'MT_PROVIDER_B')).toThrow(SealedSecretError);
    expect(() =>
      providerApiKey(
        row.id,
        { providerApiKeys: { MT_PROVIDER_A: settings.providerApiKeys!.MT_PROVIDER_B } },
        'MT_PROVIDER_A',
      ),
    ).toThrow(SealedSecretError);
  });

  it('are never returned by an API once set', async () => {
    const answers = [
      await service.request({ url: '/api/v2/project', headers: { 'x-service-token': apiKey } }),
      await service.request({ url: '/api/v2/projects', headers: { authorization: token } }),
      await gql('{ project { name apiKey projectToken translatedKeysByLanguage keys } projects { name } }'),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(PLAIN);
      expect(res.body).not.toContain('sealed:v1:');
    }
    // Nothing in the schema reads the project settings back: only the mutation
    // that sets a key names them, and `providerApiKeys` says whether one is set.
    const schema = (
      await gql(
        '{ __schema { types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } } } }',
      )
    ).json().data.__schema.types;
    const fields = schema
      .filter((t: any) => t.name !== 'Mutation')
      .flatMap((t: any) => (t.fields ?? []).map((f: any) => ({ owner: t.name as string, ...f })));
    const typeName = (t: any): string => t.name ?? typeName(t.ofType);
    expect(
      fields
        .filter((f: any) => /settings|providerApiKey$|apiKeys/i.test(f.name))
        .map((f: any) => `${f.owner}.${f.name}: ${typeName(f.type)}`),
    ).toEqual([
      'Query.autoTranslationSettings: AutoTranslationSettings',
      'Query.providerApiKeys: ProviderApiKeyStatus',
      'Query.llmProviderSettings: LlmProviderSettings',
    ]);
    // A language-model provider's settings name its extra headers, never their values (sealed).
    expect(
      schema
        .find((t: any) => t.name === 'LlmProviderSettings')
        .fields.map((f: any) => f.name)
        .sort(),
    ).toEqual([
      'headerNames',
      'model',
      'priceInput',
      'priceOutput',
      'provider',
      'responseFormat',
      'screenshots',
      'url',
    ]);
    // The per-language auto-translation settings name providers and codes, never a key.
    expect(
      schema
        .find((t: any) => t.name === 'AutoTranslationSettings')
        .fields.map((f: any) => f.name)
        .filter((n: string) => /key$|secret|token/i.test(n)),
    ).toEqual(['languageKey']);
    expect(
      schema
        .find((t: any) => t.name === 'ProviderApiKeyStatus')
        .fields.map((f: any) => f.name)
        .sort(),
    ).toEqual(['provider', 'set']);
  });

  it('stored in plain text by an older version are sealed by the start-up data migration', async () => {
    const other = await (await service.account()).project('Legacy');
    const row = await projectRow(other.projectToken);
    await updateSettings(row.id, {
      providerApiKeys: { MT_PROVIDER_A: 'legacy-plain-a', MT_PROVIDER_B: 'legacy-plain-b' },
    });
    expect((await projectRow(other.projectToken)).settings).toContain('legacy-plain-a');
    // What the service runs when it starts: migrations, the server key, the data migration.
    await prepareDatabase(service.config, service.db);
    const after = await projectRow(other.projectToken);
    expect(after.settings).not.toContain('legacy-plain');
    const settings = await readSettings(row.id);
    expect(providerApiKey(row.id, settings, 'MT_PROVIDER_A')).toBe('legacy-plain-a');
    expect(providerApiKey(row.id, settings, 'MT_PROVIDER_B')).toBe('legacy-plain-b');
    // Run again, it changes nothing (sealed values stay as they are).
    await prepareDatabase(service.config, service.db);
    expect((await projectRow(other.projectToken)).settings).toBe(after.settings);
    // The first project's key was already sealed and still opens.
    const first = await projectRow();
    expect(providerApiKey(first.id, await readSettings(first.id), 'MT_PROVIDER_B')).toBe(PLAIN);
  });

  it('removing a key with null leaves none behind', async () => {
    const other = await (await service.account()).project('Removal');
    await gql(`mutation { setProviderApiKey(provider: MT_PROVIDER_A, apiKey: "to-remove") }`, {
      'x-service-token': other.apiKey,
    });
    await gql(`mutation { setProviderApiKey(provider: MT_PROVIDER_A, apiKey: null) }`, {
      'x-service-token': other.apiKey,
    });
    const row = await projectRow(other.projectToken);
    expect(providerApiKey(row.id, await readSettings(row.id), 'MT_PROVIDER_A')).toBeUndefined();
    expect(row.settings).not.toContain('sealed:v1:');
  });
});

describe('the server key', () => {
  it('is generated into DATA_DIR with mode 0600 on first start, and read back on the next', () => {
    const path = join(service.config.dataDir, 'secret.key');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const loaded = loadSecretKey(service.config);
    expect(loaded.source).toBe('file');
    expect(open(seal('x', 'p'), 'p')).toBe('x');
  });

  it('comes from SECRET_KEY when set, which must be 32 bytes', () => {
    const key = randomBytes(32);
    const config = loadConfig({ SECRET_KEY: key.toString('base64'), DATA_DIR: '/nonexistent' });
    expect(loadSecretKey(config)).toEqual({ key, source: 'SECRET_KEY' });
    expect(loadConfig({ SECRET_KEY: key.toString('hex') }).secretKey).toEqual(key);
    expect(() => loadConfig({ SECRET_KEY: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ SECRET_KEY: randomBytes(16).toString('base64') })).toThrow(
      /SECRET_KEY must be 32 random bytes/,
    );
  });

  it('of another instance is refused at start-up: it does not open this database’s secrets', async () => {
    const current = loadSecretKey(service.config).key;
    try {
      useSecretKey(randomBytes(32));
      await expect(verifySecretKey()).rejects.toThrow(/server key differs/);
      await expect(prepareDatabase({ ...service.config, secretKey: randomBytes(32) }, service.db)).rejects.toThrow(
        SealedSecretError,
      );
    } finally {
      useSecretKey(current);
    }
    await verifySecretKey();
    // And with the right key the service answers as before.
    expect(
      envelope(await service.request({ url: '/api/v2/project', headers: { 'x-service-token': apiKey } })).status,
    ).toBe(200);
  });
});
