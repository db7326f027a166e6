// Web console sessions: sign-in sets the cookies (HttpOnly session, readable
// CSRF token), GraphQL accepts the session as the account, mutations need the
// CSRF header, REST does not take sessions, sign-out and expiry end them, and
// failed sign-ins are limited per account and per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { prisma } from '../../src/db.js';
import { sha256 } from '../../src/auth/secrets.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';

let service: TestService;
let alice: TestAccount;

beforeAll(async () => {
  service = await startTestService({ env: { SIGN_IN_FAILURES_PER_ACCOUNT: '3', SIGN_IN_FAILURES_PER_ADDRESS: '6' } });
  alice = await service.account();
  await alice.project('Alice app');
});
afterAll(() => service.close());

const SIGN_IN =
  'mutation ($email: String!, $password: String!) { signIn(email: $email, password: $password) { email sessionExpiresAt } }';

const gql = (query: string, variables: object = {}, headers: Record<string, string> = {}, remoteAddress?: string) =>
  service.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...headers },
    payload: { query, variables },
    remoteAddress,
  });

function setCookies(res: LightMyRequestResponse): string[] {
  const value = res.headers['set-cookie'];
  return Array.isArray(value) ? value : value ? [value] : [];
}

interface Session {
  cookie: string;
  csrf: string;
  token: string;
  setCookie: string[];
}

async function signIn(
  email = alice.email,
  password = alice.password,
  headers: Record<string, string> = {},
  remoteAddress?: string,
): Promise<Session> {
  const res = await gql(SIGN_IN, { email, password }, headers, remoteAddress);
  expect(res.json().errors).toBeUndefined();
  const cookies = setCookies(res);
  const token = /lms_session=([^;]+)/.exec(cookies.join('\n'))![1]!;
  const csrf = /lms_csrf=([^;]+)/.exec(cookies.join('\n'))![1]!;
  return { cookie: `lms_session=${token}; lms_csrf=${csrf}`, csrf, token, setCookie: cookies };
}

describe('sign-in', () => {
  it('sets an HttpOnly SameSite session cookie and a readable CSRF cookie; the token is never in the body', async () => {
    const res = await gql(SIGN_IN, { email: alice.email.toUpperCase(), password: alice.password });
    expect(res.json().data.signIn.email).toBe(alice.email);
    const [session, csrf] = setCookies(res);
    expect(session).toMatch(/^lms_session=[\w-]{40,};/);
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; SameSite=Strict/);
    expect(session).toMatch(/; Path=\//);
    expect(session).toMatch(/; Max-Age=43\d{3}/);
    expect(session).not.toMatch(/Secure/);
    expect(csrf).toMatch(/^lms_csrf=[\w-]+;/);
    expect(csrf).not.toMatch(/HttpOnly/);
    const token = /lms_session=([^;]+)/.exec(session!)![1]!;
    expect(res.body).not.toContain(token);
    // Stored as a digest only.
    expect(await prisma().session.count({ where: { tokenHash: sha256(token) } })).toBe(1);
    expect(await prisma().session.count({ where: { tokenHash: token } })).toBe(0);
  });

  it('marks the cookies Secure behind HTTPS', async () => {
    const { setCookie } = await signIn(alice.email, alice.password, { 'x-forwarded-proto': 'https' });
    expect(setCookie).toHaveLength(2);
    for (const cookie of setCookie) expect(cookie).toMatch(/; Secure/);
  });

  it('is refused from a form post (multipart: what another site could send)', async () => {
    const boundary = 'x-boundary';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="operations"',
      '',
      JSON.stringify({ query: SIGN_IN, variables: { email: alice.email, password: alice.password } }),
      `--${boundary}`,
      'Content-Disposition: form-data; name="map"',
      '',
      '{}',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const res = await service.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(res.json().errors[0]).toMatchObject({
      message: expect.stringMatching(/JSON body/),
      extensions: { code: 'BAD_REQUEST' },
    });
    expect(setCookies(res)).toEqual([]);
  });

  it('refuses a wrong password and an unknown account alike, without cookies', async () => {
    for (const [email, password] of [
      [alice.email, 'wrong password'],
      ['nobody@example.com', 'whatever1'],
    ]) {
      const res = await gql(SIGN_IN, { email, password }, {}, '10.0.0.9');
      expect(res.json().errors[0]).toMatchObject({
        message: 'Wrong email or password',
        extensions: { code: 'FORBIDDEN' },
      });
      expect(setCookies(res)).toEqual([]);
    }
  });
});

describe('a session on GraphQL', () => {
  it('is the account: viewer and projects', async () => {
    const { cookie } = await signIn();
    const res = await gql('{ viewer { email sessionExpiresAt } projects { name } }', {}, { cookie });
    const data = res.json().data;
    expect(data.viewer.email).toBe(alice.email);
    expect(new Date(data.viewer.sessionExpiresAt).getTime()).toBeGreaterThan(Date.now() + 11 * 3600_000);
    expect(data.projects.map((p: { name: string }) => p.name)).toEqual(['Alice app']);
  });

  it('needs the CSRF header for a mutation', async () => {
    const { cookie, csrf } = await signIn();
    const create = 'mutation { createProject(name: "From the console") { name } }';
    const refused = await gql(create, {}, { cookie });
    expect(refused.json().errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(refused.json().errors[0].message).toMatch(/X-CSRF-Token/);
    const wrong = await gql(create, {}, { cookie, 'x-csrf-token': `${csrf}x` });
    expect(wrong.json().errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await prisma().project.count({ where: { name: 'From the console' } })).toBe(0);
    const done = await gql(create, {}, { cookie, 'x-csrf-token': csrf });
    expect(done.json()).toEqual({ data: { createProject: { name: 'From the console' } } });
  });

  it('does not open the REST API', async () => {
    const { cookie, csrf } = await signIn();
    const res = await service.request({ url: '/api/v2/projects', headers: { cookie, 'x-csrf-token': csrf } });
    expect(res.statusCode).toBe(403);
  });

  it('never answers credentialed cross-origin reads', async () => {
    const { cookie } = await signIn();
    const res = await gql('{ viewer { email } }', {}, { cookie, origin: 'https://evil.example' });
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

describe('end of a session', () => {
  it('sign-out removes the session and clears the cookies', async () => {
    const { cookie, csrf, token } = await signIn();
    const res = await gql('mutation { signOut }', {}, { cookie, 'x-csrf-token': csrf });
    expect(res.json()).toEqual({ data: { signOut: true } });
    const cleared = setCookies(res);
    expect(cleared.some((c) => /^lms_session=;/.test(c) && /Max-Age=0/.test(c))).toBe(true);
    expect(await prisma().session.count({ where: { tokenHash: sha256(token) } })).toBe(0);
    const after = await gql('{ viewer { email } projects { name } }', {}, { cookie });
    expect(after.json().errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(after.json().errors[0].message).toMatch(/sign in again/);
  });

  it('sign-out without the CSRF header is refused (the session stays)', async () => {
    const { cookie, token } = await signIn();
    const res = await gql('mutation { signOut }', {}, { cookie });
    expect(res.json().errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await prisma().session.count({ where: { tokenHash: sha256(token) } })).toBe(1);
  });

  it('an expired session is refused', async () => {
    const { cookie, token } = await signIn();
    await prisma().session.update({
      where: { tokenHash: sha256(token) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await gql('{ projects { name } }', {}, { cookie });
    expect(res.json().errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
  });
});

describe('rate limit of failed sign-ins', () => {
  it('per account: after 3 failures even the right password waits', async () => {
    const bob = await service.account();
    for (let i = 0; i < 3; i++) {
      const res = await gql(SIGN_IN, { email: bob.email, password: 'wrong' }, {}, `10.1.0.${i}`);
      expect(res.json().errors[0].extensions.code).toBe('FORBIDDEN');
    }
    const res = await gql(SIGN_IN, { email: bob.email, password: bob.password }, {}, '10.1.0.99');
    expect(res.json().errors[0]).toMatchObject({ extensions: { code: 'TOO_MANY_REQUESTS' } });
    expect(res.json().errors[0].extensions.retryAfter).toBeGreaterThan(0);
    expect(setCookies(res)).toEqual([]);
    // Other accounts are not affected.
    await signIn(alice.email, alice.password, {}, '10.1.0.99');
  });

  it('per address: failures on many accounts from one address', async () => {
    for (let i = 0; i < 6; i++) {
      const res = await gql(SIGN_IN, { email: `spray${i}@example.com`, password: 'wrong' }, {}, '10.2.0.1');
      expect(res.json().errors[0].extensions.code).toBe('FORBIDDEN');
    }
    const res = await gql(SIGN_IN, { email: alice.email, password: alice.password }, {}, '10.2.0.1');
    expect(res.json().errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
    await signIn(alice.email, alice.password, {}, '10.2.0.2');
  });

  it('counts parallel guesses before checking them: no more than the limit get a verdict', async () => {
    const dave = await service.account();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        gql(SIGN_IN, { email: dave.email, password: `guess ${i}` }, {}, `10.4.0.${i}`),
      ),
    );
    const codes = answers.map((r) => r.json().errors[0].extensions.code).sort();
    expect(codes).toEqual([...Array(3).fill('FORBIDDEN'), ...Array(5).fill('TOO_MANY_REQUESTS')]);
  });

  it('takes back the attempt of a successful sign-in; keeps the counters in the database, by digest', async () => {
    // More successful sign-ins from one address than it may fail: none is refused.
    for (let i = 0; i < 8; i++) await signIn(alice.email, alice.password, {}, '10.3.0.1');
    const res = await gql(SIGN_IN, { email: 'carol@example.com', password: 'wrong' }, {}, '10.3.0.1');
    expect(res.json().errors[0].extensions.code).toBe('FORBIDDEN');
    // No Redis here: the database counts (so a restart keeps them), under digests, never the e-mail or the address.
    const rows = await prisma().signInFailure.findMany();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => /^[\w-]{43}$/.test(r.key))).toBe(true);
    expect(rows.some((r) => r.count === 1 && r.resetAt.getTime() > Date.now() + 14 * 60_000)).toBe(true);
  });
});
