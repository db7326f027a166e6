// Account settings over GraphQL: personal tokens (issued once with an expiry,
// listed with their last use, revoked: refused by REST at once; an expired one
// refused; only a session or basic credentials issue them; only the account's
// own), the password change (the current one required and counted, the rule,
// other sessions signed out), and the list of console sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { prisma } from '../../src/db.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';

let service: TestService;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  service = await startTestService({ env: { SIGN_IN_FAILURES_PER_ACCOUNT: '3' } });
  alice = await service.account();
  bob = await service.account();
});
afterAll(() => service.close());

const gql = async (headers: Record<string, string>, query: string, variables: object = {}) =>
  (
    await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ query, variables }),
    })
  ).json();
const code = (body: { errors?: { extensions?: { code?: string } }[] }) => body.errors?.[0]?.extensions?.code;
const projects = (token: string) =>
  service.request({ method: 'GET', url: '/api/v2/projects', headers: { authorization: token } });

async function signIn(
  account: TestAccount,
  password = account.password,
  userAgent = 'TestBrowser/1.0',
): Promise<Record<string, string>> {
  const res: LightMyRequestResponse = await service.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    payload: {
      query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { email } }',
      variables: { e: account.email, p: password },
    },
  });
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!);
  const csrf = cookies.find((c) => c.startsWith('lms_csrf='))?.slice('lms_csrf='.length);
  if (!csrf) throw new Error(`signIn: ${res.body}`);
  return { cookie: cookies.join('; '), 'x-csrf-token': csrf };
}

const CREATE =
  'mutation($n: String!, $e: DateTime) { createPersonalToken(name: $n, expiresAt: $e) { token personalToken { id name prefix expiresAt lastUsedAt } } }';
const LIST = '{ personalTokens { id name lastUsedAt expiresAt expired } }';

describe('personal tokens', () => {
  it('a session issues a token shown once and stored as a digest; it works through REST; its use is listed; revoked, REST refuses it at once', async () => {
    const session = await signIn(alice);
    const created = await gql(session, CREATE, { n: 'CI' });
    const { token, personalToken } = created.data.createPersonalToken;
    expect(token).toMatch(/^lms_pat_/);
    expect(personalToken).toMatchObject({ name: 'CI', prefix: token.slice(0, 12), expiresAt: null, lastUsedAt: null });
    expect(await prisma().personalToken.count({ where: { tokenHash: token } })).toBe(0);
    expect((await projects(token)).statusCode).toBe(200);
    const listed = (await gql(session, LIST)).data.personalTokens.find(
      (t: { id: number }) => t.id === personalToken.id,
    );
    expect(listed.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(await gql(session, LIST))).not.toContain(token);
    expect(
      (await gql(session, 'mutation($id: Int!) { revokePersonalToken(id: $id) }', { id: personalToken.id })).data
        .revokePersonalToken,
    ).toBe(true);
    expect((await projects(token)).statusCode).toBe(403);
    expect((await gql(session, LIST)).data.personalTokens.map((t: { id: number }) => t.id)).not.toContain(
      personalToken.id,
    );
  });

  it('an expired token is refused; an expiry in the past or an empty name is refused at creation', async () => {
    const session = await signIn(alice);
    const soon = new Date(Date.now() + 1500).toISOString();
    const { token, personalToken } = (await gql(session, CREATE, { n: 'short', e: soon })).data.createPersonalToken;
    expect(personalToken.expiresAt).toBe(soon);
    expect((await projects(token)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(soon) - Date.now() + 50));
    const refused = await projects(token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toMatch(/expired/);
    expect(
      (await gql(session, LIST)).data.personalTokens.find((t: { id: number }) => t.id === personalToken.id).expired,
    ).toBe(true);
    expect(code(await gql(session, CREATE, { n: 'past', e: new Date(Date.now() - 1000).toISOString() }))).toBe(
      'BAD_REQUEST',
    );
    expect(code(await gql(session, CREATE, { n: ' ' }))).toBe('BAD_REQUEST');
  });

  it('a personal token cannot issue tokens (basic credentials can); an account sees and revokes only its own', async () => {
    expect(code(await gql({ authorization: alice.token }, CREATE, { n: 'by token' }))).toBe('FORBIDDEN');
    const byBasic = await gql({ authorization: alice.basic }, CREATE, { n: 'by password' });
    const id = byBasic.data.createPersonalToken.personalToken.id as number;
    const bobs = (await gql({ authorization: bob.token }, LIST)).data.personalTokens.map((t: { id: number }) => t.id);
    expect(bobs).not.toContain(id);
    expect(
      code(await gql({ authorization: bob.token }, 'mutation($id: Int!) { revokePersonalToken(id: $id) }', { id })),
    ).toBe('NOT_FOUND');
    expect(await prisma().personalToken.count({ where: { id } })).toBe(1);
    // No credential, or a project API key: no account.
    expect(code(await gql({}, LIST))).toBe('FORBIDDEN');
    expect(code(await gql({}, CREATE, { n: 'anonymous' }))).toBe('FORBIDDEN');
  });
});

describe('changing the password', () => {
  const CHANGE = 'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }';

  it('refuses a wrong current password (counted like a failed sign-in) and a short new one', async () => {
    const carol = await service.account();
    const session = await signIn(carol);
    const wrong = await gql(session, CHANGE, { c: 'not my password', n: 'a new password' });
    expect(code(wrong)).toBe('BAD_REQUEST');
    expect(wrong.errors[0].message).toBe('currentPassword is wrong');
    expect(code(await gql(session, CHANGE, { c: carol.password, n: 'short' }))).toBe('BAD_REQUEST');
    // The right current password (with a short new one) cleared the account's
    // failures, as a successful sign-in does; three more wrong ones…
    for (const c of ['wrong again', 'and again', 'a third time'])
      expect(code(await gql(session, CHANGE, { c, n: 'a new password' }))).toBe('BAD_REQUEST');
    // …reach SIGN_IN_FAILURES_PER_ACCOUNT: now even the right one waits.
    expect(code(await gql(session, CHANGE, { c: carol.password, n: 'a new password' }))).toBe('TOO_MANY_REQUESTS');
  });

  it('changes it: the old password no longer signs in, the new one does; other sessions end, this one stays', async () => {
    const dave = await service.account();
    const other = await signIn(dave, dave.password, 'OtherBrowser/2.0');
    const mine = await signIn(dave);
    expect((await gql(mine, CHANGE, { c: dave.password, n: 'brand new secret' })).data.changePassword).toBe(1);
    expect((await gql(other, '{ viewer { email } }')).data.viewer).toBeNull();
    expect((await gql(mine, '{ viewer { email } }')).data.viewer.email).toBe(dave.email);
    await expect(signIn(dave)).rejects.toThrow();
    await signIn(dave, 'brand new secret');
    // Basic credentials follow the password; personal tokens stay.
    expect(
      (await service.request({ method: 'GET', url: '/api/v1/projects', headers: { authorization: dave.basic } }))
        .statusCode,
    ).toBe(403);
    expect((await projects(dave.token)).statusCode).toBe(200);
  });
});

describe('console sessions', () => {
  it('lists the live sessions with the current one marked; signs out one, then the others', async () => {
    const erin = await service.account();
    const a = await signIn(erin, erin.password, 'Browser A');
    const b = await signIn(erin, erin.password, 'Browser B');
    const c = await signIn(erin, erin.password, 'Browser C');
    const list = (await gql(a, '{ sessions { id userAgent current createdAt lastUsedAt expiresAt } }')).data.sessions;
    expect(list).toHaveLength(3);
    expect(list.filter((s: { current: boolean }) => s.current).map((s: { userAgent: string }) => s.userAgent)).toEqual([
      'Browser A',
    ]);
    const bId = list.find((s: { userAgent: string }) => s.userAgent === 'Browser B').id;
    // Another account cannot end it.
    expect(
      code(await gql({ authorization: bob.token }, 'mutation($id: Int!) { signOutSession(id: $id) }', { id: bId })),
    ).toBe('NOT_FOUND');
    expect((await gql(a, 'mutation($id: Int!) { signOutSession(id: $id) }', { id: bId })).data.signOutSession).toBe(
      true,
    );
    expect(code(await gql(b, '{ sessions { id } }'))).toBe('FORBIDDEN');
    expect((await gql(a, 'mutation { signOutOtherSessions }')).data.signOutOtherSessions).toBe(1);
    expect(code(await gql(c, '{ sessions { id } }'))).toBe('FORBIDDEN');
    expect((await gql(a, '{ sessions { userAgent current } }')).data.sessions).toEqual([
      { userAgent: 'Browser A', current: true },
    ]);
  });

  it('records the last use of a session at most once a minute', async () => {
    const frank = await service.account();
    const session = await signIn(frank);
    const row = () =>
      prisma().session.findFirstOrThrow({ where: { accountId: frank.id }, select: { id: true, lastUsedAt: true } });
    const { id } = await row();
    const recent = new Date(Date.now() - 30_000);
    await prisma().session.update({ where: { id }, data: { lastUsedAt: recent } });
    await gql(session, '{ viewer { email } }');
    expect((await row()).lastUsedAt).toEqual(recent);
    await prisma().session.update({ where: { id }, data: { lastUsedAt: new Date(Date.now() - 90_000) } });
    await gql(session, '{ viewer { email } }');
    expect(Date.now() - (await row()).lastUsedAt.getTime()).toBeLessThan(10_000);
  });
});
