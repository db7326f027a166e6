// In-context tokens (docs/in-context.md): made by a member with SETTINGS, they
// read their project and write texts of their languages (screenshots with
// capture), nothing else; never another project; refused once expired or
// revoked, from an origin the project does not allow, or without an Origin;
// GraphQL only. CORS answers them only for allowed origins and never with
// credentials; a session-cookie request is never made readable cross-origin.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import sharp from 'sharp';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { uploadGraphQL } from '../support/screenshots.js';

const APP = 'http://app.example:5173';
const EVIL = 'http://evil.example';

let service: TestService;
let owner: TestAccount;
let api: ProjectApi;
let other: ProjectApi;
let token: string;

const asOwner = async (query: string, variables: Record<string, unknown> = {}) => {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: owner.token, 'content-type': 'application/json' },
    payload: { query, variables },
  });
  return res.json();
};

function withToken(
  query: string,
  variables: Record<string, unknown> = {},
  options: { token?: string; origin?: string | null } = {},
) {
  const headers: Record<string, string> = {
    'x-incontext-token': options.token ?? token,
    'content-type': 'application/json',
  };
  if (options.origin !== null) headers.origin = options.origin ?? APP;
  return service.request({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
}
const gqlToken = async (
  query: string,
  variables: Record<string, unknown> = {},
  options: { token?: string; origin?: string | null } = {},
) => (await withToken(query, variables, options)).json();

const CREATE = `mutation ($projectToken: String, $input: NewInContextTokenInput) {
  createInContextToken(projectToken: $projectToken, input: $input) { token inContextToken { id prefix languages capture createdBy expiresAt active } } }`;
const UPDATE = `mutation ($input: UpdateTranslationInput!) { updateTranslation(input: $input) { text language } }`;
const KEY = `query ($key: String!, $projectToken: String) { translationKey(key: $key, projectToken: $projectToken) { key description translations { language text } } }`;

async function makeToken(input: Record<string, unknown>): Promise<string> {
  const answer = await asOwner(CREATE, { projectToken: api.projectToken, input });
  expect(answer.errors).toBeUndefined();
  return answer.data.createInContextToken.token;
}

const codeOf = (answer: { errors?: { extensions?: { code?: string } }[] }) => answer.errors?.[0]?.extensions?.code;

beforeAll(async () => {
  service = await startTestService({ listen: true });
  owner = await service.account();
  api = await projectApi(service, owner, 'In-context');
  other = await projectApi(service, await service.account(), 'Other project');
  expect(
    (
      await api.post('/api/v1/translations', {
        content: [
          { key: 'title', language: 'en', text: 'Statistics', description: 'The page title' },
          { key: 'title', language: 'de', text: 'Statistik' },
          { key: 'title', language: 'fr', text: 'Statistiques' },
        ],
      })
    ).status,
  ).toBe(200);
  expect(
    (await other.post('/api/v1/translations', { content: [{ key: 'title', language: 'en', text: 'Elsewhere' }] }))
      .status,
  ).toBe(200);
  const origins = await asOwner(
    'mutation ($p: String, $o: [String!]!) { setInContextOrigins(projectToken: $p, origins: $o) }',
    { p: api.projectToken, o: [`${APP}/`] },
  );
  expect(origins.data.setInContextOrigins).toEqual([APP]);
  token = await makeToken({ name: 'staging app', languages: ['de'], capture: true, lifetimeHours: 2 });
});

afterAll(async () => {
  await service?.close();
});

describe('making tokens', () => {
  it('shows the token once, stores only its digest, lists it without its value', async () => {
    expect(token).toMatch(/^ict_[\w-]{40,}$/);
    const stored = await service.db.prisma.inContextToken.findMany();
    expect(JSON.stringify(stored)).not.toContain(token);
    const list = await asOwner(
      'query ($p: String) { inContextTokens(projectToken: $p) { name prefix languages capture createdBy active expiresAt } }',
      { p: api.projectToken },
    );
    expect(list.data.inContextTokens).toEqual([
      expect.objectContaining({
        name: 'staging app',
        prefix: token.slice(0, 10),
        languages: ['de'],
        capture: true,
        createdBy: owner.email,
        active: true,
      }),
    ]);
    const expiresAt = new Date(list.data.inContextTokens[0].expiresAt).getTime();
    expect(Math.abs(expiresAt - (Date.now() + 2 * 3_600_000))).toBeLessThan(120_000);
  });

  it('refuses bad input with 4xx-class errors: unknown languages, lifetimes beyond a month, origins with paths', async () => {
    expect(codeOf(await asOwner(CREATE, { projectToken: api.projectToken, input: { languages: ['xx'] } }))).toBe(
      'BAD_REQUEST',
    );
    expect(codeOf(await asOwner(CREATE, { projectToken: api.projectToken, input: { lifetimeHours: 24 * 365 } }))).toBe(
      'BAD_REQUEST',
    );
    expect(
      codeOf(
        await asOwner(
          'mutation ($p: String) { setInContextOrigins(projectToken: $p, origins: ["http://a.example/path"]) }',
          { p: api.projectToken },
        ),
      ),
    ).toBe('BAD_REQUEST');
    expect(
      codeOf(
        await asOwner(
          'mutation ($p: String) { setInContextOrigins(projectToken: $p, origins: ["javascript:alert(1)"]) }',
          { p: api.projectToken },
        ),
      ),
    ).toBe('BAD_REQUEST');
  });
});

describe('what a token may do', () => {
  it('reads its project: keys, texts in every language, the description', async () => {
    const answer = await gqlToken(KEY, { key: 'title' });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.translationKey.description).toBe('The page title');
    expect(answer.data.translationKey.translations).toEqual(
      expect.arrayContaining([
        { language: 'de', text: 'Statistik' },
        { language: 'en', text: 'Statistics' },
      ]),
    );
  });

  it('writes its language through the write gate, recorded as the account that made it', async () => {
    const answer = await gqlToken(UPDATE, { input: { key: 'title', language: 'de', text: 'Statistiken' } });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.updateTranslation).toEqual({ text: 'Statistiken', language: 'de' });
    const history = await asOwner(
      'query ($p: String) { translationHistory(projectToken: $p, key: "title", language: "de") { newText actor { kind id } } }',
      { p: api.projectToken },
    );
    expect(history.errors).toBeUndefined();
    expect(history.data.translationHistory[0]).toMatchObject({
      newText: 'Statistiken',
      actor: { kind: 'ACCOUNT', id: String(owner.id) },
    });
  });

  it('cannot write another language, set a review status, change keys or settings, or make tokens', async () => {
    expect(codeOf(await gqlToken(UPDATE, { input: { key: 'title', language: 'fr', text: 'Non' } }))).toBe('FORBIDDEN');
    expect(
      codeOf(
        await gqlToken(UPDATE, {
          input: { key: 'title', language: 'de', text: 'Statistik', reviewStatus: 'REVIEWED' },
        }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      codeOf(
        await gqlToken(
          'mutation { updateTranslations(input: { translations: [{ key: "title", language: "fr", text: "Non" }] }) { __typename } }',
        ),
      ),
    ).toMatch(/FORBIDDEN|BAD_USER_INPUT|GRAPHQL_VALIDATION_FAILED/);
    expect(codeOf(await gqlToken('mutation { createTranslationKey(input: { key: "new" }) { key } }'))).toMatch(
      /FORBIDDEN|GRAPHQL_VALIDATION_FAILED/,
    );
    expect(codeOf(await gqlToken('mutation { deleteTranslationKey(key: "title") }'))).toMatch(
      /FORBIDDEN|GRAPHQL_VALIDATION_FAILED/,
    );
    expect(codeOf(await gqlToken('mutation { renameProject(name: "Pwned") { name } }'))).toMatch(
      /FORBIDDEN|GRAPHQL_VALIDATION_FAILED/,
    );
    expect(codeOf(await gqlToken(`mutation { setInContextOrigins(origins: ["${EVIL}"]) }`))).toBe('FORBIDDEN');
    expect(codeOf(await gqlToken('mutation { createInContextToken { token } }'))).toBe('FORBIDDEN');
    expect(codeOf(await gqlToken('query { providerApiKeys { __typename } }'))).toMatch(
      /FORBIDDEN|GRAPHQL_VALIDATION_FAILED/,
    );
    // It reads texts only: not the project's API key, members, activity, jobs or environments.
    for (const query of [
      'query { project { apiKey } }',
      'query { members { __typename } }',
      'query { activity { total } }',
      'query { jobs { jobId } }',
      'query { environments { key } }',
      'query { customers { key } }',
    ]) {
      expect(codeOf(await gqlToken(query))).toMatch(/FORBIDDEN|GRAPHQL_VALIDATION_FAILED/);
    }
    // Nothing changed.
    const row = await service.db.prisma.project.findFirstOrThrow({ where: { projectToken: api.projectToken } });
    expect(row.name).toBe('In-context');
    expect(
      (await service.db.prisma.translation.findFirst({ where: { projectId: row.id, language: { key: 'fr' } } }))?.text,
    ).toBe('Statistiques');
  });

  it('never reaches another project', async () => {
    const answer = await gqlToken(KEY, { key: 'title', projectToken: other.projectToken });
    expect(codeOf(answer)).toBe('NOT_FOUND');
    expect(JSON.stringify(answer)).not.toContain('Elsewhere');
    expect(
      codeOf(
        await gqlToken(
          'mutation ($p: String) { updateTranslation(projectToken: $p, input: { key: "title", language: "en", text: "x" }) { text } }',
          { p: other.projectToken },
        ),
      ),
    ).toBe('NOT_FOUND');
  });

  it('is refused by the REST routes (GraphQL only)', async () => {
    const res = await service.request({ url: '/api/v2/project', headers: { 'x-incontext-token': token, origin: APP } });
    expect(res.statusCode).toBe(403);
  });

  it('uploads a screenshot and marks a key only when made with capture', async () => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const uploaded = await uploadGraphQL(service, { 'x-incontext-token': token, origin: APP }, png, 'view.png');
    expect(uploaded.errors).toBeUndefined();
    const linked = await gqlToken(
      'mutation ($s: Int!) { linkScreenshotKey(screenshotId: $s, key: "title", rectangle: { x: 1, y: 2, width: 30, height: 10 }) { id } }',
      { s: uploaded.data.uploadScreenshot.id },
    );
    expect(linked.errors).toBeUndefined();
    expect(
      codeOf(
        await gqlToken('mutation ($s: Int!) { deleteScreenshot(id: $s) }', { s: uploaded.data.uploadScreenshot.id }),
      ),
    ).toBe('FORBIDDEN');
    const noCapture = await makeToken({ languages: ['de'] });
    const refused = await uploadGraphQL(service, { 'x-incontext-token': noCapture, origin: APP }, png, 'view.png');
    expect(codeOf(refused)).toBe('FORBIDDEN');
  });
});

describe('origins, expiry, revocation', () => {
  it('is refused from an origin the project does not allow, and without an Origin', async () => {
    const evil = await gqlToken(KEY, { key: 'title' }, { origin: EVIL });
    expect(codeOf(evil)).toBe('FORBIDDEN');
    expect(evil.errors[0].message).toContain('allowed origins');
    expect(codeOf(await gqlToken(KEY, { key: 'title' }, { origin: null }))).toBe('FORBIDDEN');
    // An origin allowed by another project does not open this one.
    await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': other.apiKey, 'content-type': 'application/json' },
      payload: { query: `mutation { setInContextOrigins(origins: ["${EVIL}"]) }` },
    });
    expect(codeOf(await gqlToken(KEY, { key: 'title' }, { origin: EVIL }))).toBe('FORBIDDEN');
  });

  it('answers CORS for an allowed origin only, never with credentials', async () => {
    const preflight = (origin: string) =>
      service.request({
        method: 'OPTIONS',
        url: '/graphql',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, x-incontext-token',
        },
      });
    const allowed = await preflight(APP);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(APP);
    expect(String(allowed.headers['access-control-allow-headers'])).toContain('x-incontext-token');
    expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();
    const refused = await preflight('http://unknown.example');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    const post = await withToken(KEY, { key: 'title' }, { origin: 'http://unknown.example' });
    expect(post.headers['access-control-allow-origin']).toBeUndefined();
    const ok = await withToken(KEY, { key: 'title' });
    expect(ok.headers['access-control-allow-origin']).toBe(APP);
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('never makes a session-cookie request readable with credentials from another origin', async () => {
    const signIn = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: { query: `mutation { signIn(email: "${owner.email}", password: "${owner.password}") { email } }` },
    });
    const cookies = ([] as string[]).concat(signIn.headers['set-cookie'] ?? []);
    const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
    expect(cookie).toContain('lms_session=');
    for (const origin of [APP, EVIL]) {
      const res = await service.request({
        method: 'POST',
        url: '/graphql',
        headers: { cookie, origin, 'content-type': 'application/json' },
        payload: { query: '{ projects { name } }' },
      });
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      const preflight = await service.request({
        method: 'OPTIONS',
        url: '/graphql',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, x-csrf-token',
        },
      });
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it("on a WebSocket, the upgrade request's Origin counts: connectionParams cannot claim another", async () => {
    const subscribe = (origin: string) =>
      new Promise<{ ok: boolean; message?: string }>((resolve) => {
        const client = createClient({
          url: `${service.url.replace('http', 'ws')}/graphql`,
          webSocketImpl: class extends WebSocket {
            constructor(url: string, protocols: string[]) {
              super(url, protocols, { origin });
            }
          },
          connectionParams: { 'X-InContext-Token': token, origin: APP },
          lazy: false,
          retryAttempts: 0,
        });
        const done = (result: { ok: boolean; message?: string }) => {
          void client.dispose();
          resolve(result);
        };
        client.subscribe(
          { query: 'subscription { translationChanges { key newText } }' },
          {
            next: (value) => done(value.errors ? { ok: false, message: value.errors[0]!.message } : { ok: true }),
            error: (error) =>
              done({
                ok: false,
                message: Array.isArray(error) ? error[0]?.message : String((error as Error)?.message ?? error),
              }),
            complete: () => {},
          },
        );
        // A live subscription stays open: it has been accepted once a change arrives.
        setTimeout(
          () => void gqlToken(UPDATE, { input: { key: 'title', language: 'de', text: `Statistik ${origin}` } }),
          300,
        );
      });
    expect(await subscribe(APP)).toEqual({ ok: true });
    const evil = await subscribe(EVIL);
    expect(evil.ok).toBe(false);
    expect(evil.message).toContain('allowed origins');
  });

  it('is refused once expired, and from the next request on once revoked', async () => {
    const short = await makeToken({ lifetimeHours: 1 / 3600 });
    expect(codeOf(await gqlToken(KEY, { key: 'title' }, { token: short }))).toBeUndefined();
    await sleep(1_100);
    const expired = await gqlToken(KEY, { key: 'title' }, { token: short });
    expect(codeOf(expired)).toBe('FORBIDDEN');
    expect(expired.errors[0].message).toContain('expired');

    const revocable = await makeToken({});
    expect(codeOf(await gqlToken(KEY, { key: 'title' }, { token: revocable }))).toBeUndefined();
    const id = (await service.db.prisma.inContextToken.findFirstOrThrow({ orderBy: { id: 'desc' } })).id;
    const revoked = await asOwner(
      'mutation ($p: String, $id: Int!) { revokeInContextToken(projectToken: $p, id: $id) { active revokedAt } }',
      { p: api.projectToken, id },
    );
    expect(revoked.data.revokeInContextToken.active).toBe(false);
    const after = await gqlToken(KEY, { key: 'title' }, { token: revocable });
    expect(codeOf(after)).toBe('FORBIDDEN');
    expect(after.errors[0].message).toContain('revoked');
    // Another project's member cannot revoke this project's tokens.
    const foreign = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': other.apiKey, 'content-type': 'application/json' },
      payload: { query: `mutation { revokeInContextToken(id: ${id - 1}) { id } }` },
    });
    expect(codeOf(foreign.json())).toBe('NOT_FOUND');
  });
});

describe('the plugin for a script tag', () => {
  it('is served at a stable URL with an ETag, revalidated after five minutes', async () => {
    const res = await service.request({ url: '/in-context/i18next-incontext.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body.slice(0, 60)).toMatch(/^("use strict";)?var I18nextInContext=/);
    const again = await service.request({
      url: '/in-context/i18next-incontext.js',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    // Only the core: the editor is imported from /in-context/editor.js when there is a token.
    expect(res.body).toContain('/in-context/editor.js');
    expect(res.body).not.toContain('lms-incontext-overlay');
  });
});

describe('the editor module', () => {
  it('is served at a stable URL as JavaScript, with an ETag and CORS for any origin', async () => {
    const origin = 'https://app.example.org';
    const res = await service.request({ url: '/in-context/editor.js', headers: { origin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Another origin's page imports it (a CORS request, without credentials).
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // An ES module exporting the editor the core starts: the overlay, capture and checks inside.
    expect(res.body).toMatch(/export\s*\{[^}]*\bstartEditor\b/);
    expect(res.body).toContain('lms-incontext-overlay');
    expect(res.body).toContain('linkScreenshotKey');
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    const again = await service.request({ url: '/in-context/editor.js', headers: { origin, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['access-control-allow-origin']).toBe('*');
    const stale = await service.request({
      url: '/in-context/editor.js',
      headers: { 'if-none-match': '"not-this-one"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers.etag).toBe(etag);
  });
});
