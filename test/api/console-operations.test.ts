// The GraphQL the console's Auto-translate and Hosting screens read besides the
// existing operations: which providers have a project key (never the key), and
// the publication history with where each came from and who published it.
// Authorization of both is in authorization-matrix.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { isSealed } from '../../src/auth/sealed-secrets.js';
import { publishEnvironment } from '../../src/hosting/publish.js';
import { withOrigin } from '../../src/content/origin.js';
import { projectIdOf } from '../support/content.js';

let service: TestService;
let owner: TestAccount;
let api: ProjectApi;

async function asAccount(query: string, variables: Record<string, unknown> = {}) {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: owner.token, 'content-type': 'application/json' },
    payload: { query, variables },
  });
  return {
    body: res.body,
    ...(res.json() as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] }),
  };
}

beforeAll(async () => {
  service = await startTestService({ worker: false });
  owner = await service.account({ email: 'owner@example.com' });
  api = await projectApi(service, owner, 'Operations');
  expect(
    (await api.post('/api/v1/translations', { content: [{ key: 'hello', language: 'en', text: 'Hello' }] })).status,
  ).toBe(200);
});
afterAll(() => service.close());

describe('providerApiKeys', () => {
  const STATUS = `query($p: String!) { providerApiKeys(projectToken: $p) { provider set } }`;
  const SET = `mutation($p: String!, $provider: TranslationProvider!, $key: String) { setProviderApiKey(projectToken: $p, provider: $provider, apiKey: $key) }`;

  it('says which providers have a key, stores it sealed and never returns any part of it', async () => {
    expect((await asAccount(STATUS, { p: api.projectToken })).data.providerApiKeys).toEqual([
      { provider: 'MT_PROVIDER_A', set: false },
      { provider: 'MT_PROVIDER_B', set: false },
      { provider: 'LLM_OPENAI', set: false },
      { provider: 'LLM_ANTHROPIC', set: false },
    ]);
    const secret = 'deepl-key-0123456789abcdef:fx';
    expect(
      (await asAccount(SET, { p: api.projectToken, provider: 'MT_PROVIDER_B', key: secret })).data.setProviderApiKey,
    ).toBe(true);
    const after = await asAccount(STATUS, { p: api.projectToken });
    expect(after.data.providerApiKeys).toEqual([
      { provider: 'MT_PROVIDER_A', set: false },
      { provider: 'MT_PROVIDER_B', set: true },
      { provider: 'LLM_OPENAI', set: false },
      { provider: 'LLM_ANTHROPIC', set: false },
    ]);
    expect(after.body).not.toContain('abcdef');
    const { settings } = await service.db.prisma.project.findUniqueOrThrow({
      where: { projectToken: api.projectToken },
      select: { settings: true },
    });
    const stored = (settings as { providerApiKeys: Record<string, string> }).providerApiKeys.MT_PROVIDER_B!;
    expect(isSealed(stored)).toBe(true);
    expect(stored).not.toContain('0123456789');
    // The project API key reads the same status; removing the key clears it.
    expect((await api.gql(STATUS, { p: api.projectToken })).data.providerApiKeys[1]).toEqual({
      provider: 'MT_PROVIDER_B',
      set: true,
    });
    await asAccount(SET, { p: api.projectToken, provider: 'MT_PROVIDER_B', key: null });
    expect((await asAccount(STATUS, { p: api.projectToken })).data.providerApiKeys[1]).toEqual({
      provider: 'MT_PROVIDER_B',
      set: false,
    });
  });
});

describe('publications', () => {
  const LIST = `query($p: String!, $env: String, $limit: Int) {
    publications(projectToken: $p, environmentKey: $env, limit: $limit) {
      id environmentKey source state message label numberOfKeys completedAt changeSource publishedBy { kind name email }
    }
  }`;

  it('lists every publication newest first with its source, state and who published it', async () => {
    const published = await asAccount(
      `mutation($p: String!) { publishEnvironment(projectToken: $p, key: "_latest", label: "v1") { version } }`,
      { p: api.projectToken },
    );
    expect(published.errors).toBeUndefined();
    expect((await api.post('/api/v2/environments/_production/publish')).status).toBe(200);
    // A failed publication stays in the history with its author (recorded when it started; the activity entry is written only on completion).
    const projectId = await projectIdOf(service.db, api.projectToken);
    const failing = () =>
      publishEnvironment({
        projectId,
        environmentKey: '_latest',
        hooks: {
          afterResource: () => {
            throw new Error('disk full (simulated)');
          },
        },
      });
    await expect(
      withOrigin({ actorKind: 'ACCOUNT', actorId: String(owner.id), source: 'WEB' }, failing),
    ).rejects.toThrow();

    const { data } = await asAccount(LIST, { p: api.projectToken });
    expect(data.publications).toMatchObject([
      {
        environmentKey: '_latest',
        source: 'editor',
        state: 'FAILED',
        message: expect.stringMatching(/disk full/),
        publishedBy: { kind: 'ACCOUNT', name: 'owner@example.com' },
        changeSource: 'WEB',
      },
      {
        environmentKey: '_production',
        source: '_latest',
        state: 'COMPLETE',
        numberOfKeys: 1,
        publishedBy: { kind: 'API_KEY', name: null },
        changeSource: 'API',
      },
      {
        environmentKey: '_latest',
        source: 'editor',
        state: 'COMPLETE',
        label: 'v1',
        publishedBy: { kind: 'ACCOUNT', name: 'owner@example.com', email: 'owner@example.com' },
        changeSource: 'GRAPHQL',
      },
    ]);
    expect(
      (await asAccount(LIST, { p: api.projectToken, env: '_production' })).data.publications.map(
        (p: any) => p.environmentKey,
      ),
    ).toEqual(['_production']);
    expect((await asAccount(LIST, { p: api.projectToken, limit: 1 })).data.publications).toHaveLength(1);
  });

  it('refuses an unknown environment (404) and a limit out of range (400)', async () => {
    expect((await asAccount(LIST, { p: api.projectToken, env: 'nope' })).errors?.[0]?.extensions?.code).toBe(
      'NOT_FOUND',
    );
    expect((await asAccount(LIST, { p: api.projectToken, limit: 0 })).errors?.[0]?.extensions?.code).toBe(
      'BAD_REQUEST',
    );
    expect((await asAccount(LIST, { p: api.projectToken, limit: 201 })).errors?.[0]?.extensions?.code).toBe(
      'BAD_REQUEST',
    );
  });
});
