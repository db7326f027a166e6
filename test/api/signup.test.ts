// Accounts outside the operator's CLI: self-service sign-up only with
// ALLOW_SIGNUP=true, and the display name that names an account's changes
// (`accountName` in the activity log and in webhook payloads).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestService, type TestService } from '../support/service.js';

const SIGN_UP =
  'mutation($e: String!, $p: String!, $n: String) { signUp(email: $e, password: $p, name: $n) { email personalToken } }';

let closed: TestService;
let open: TestService;

beforeAll(async () => {
  // Two services on the file's one database share its server key.
  const SECRET_KEY = randomBytes(32).toString('base64');
  closed = await startTestService({ env: { SECRET_KEY } });
  open = await startTestService({ env: { SECRET_KEY, ALLOW_SIGNUP: 'true' } });
});

afterAll(async () => {
  await Promise.all([closed?.close(), open?.close()]);
});

async function gql(
  service: TestService,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...headers },
    payload: { query, variables },
  });
  return res.json() as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
}

describe('sign-up', () => {
  it('is refused unless the operator allows it, and creates no account', async () => {
    const res = await gql(closed, SIGN_UP, { e: 'someone@example.com', p: 'long enough password' });
    expect(res.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/ALLOW_SIGNUP/),
      extensions: { code: 'FORBIDDEN' },
    });
    expect(await closed.db.prisma.account.count({ where: { email: 'someone@example.com' } })).toBe(0);
  });

  it('with ALLOW_SIGNUP=true creates an account whose token works at once; e-mail taken and short passwords are refused', async () => {
    const res = await gql(open, SIGN_UP, { e: 'New.Person@Example.com', p: 'long enough password', n: 'New Person' });
    expect(res.data.signUp).toEqual({
      email: 'new.person@example.com',
      personalToken: expect.stringMatching(/^lms_pat_/),
    });
    const projects = await open.request({
      url: '/api/v2/projects',
      headers: { authorization: res.data.signUp.personalToken },
    });
    expect(projects.statusCode).toBe(200);
    const stored = await open.db.prisma.account.findUniqueOrThrow({ where: { email: 'new.person@example.com' } });
    expect(stored.name).toBe('New Person');
    expect(stored.passwordHash).not.toContain('long enough password');
    expect(
      (await gql(open, SIGN_UP, { e: 'new.person@example.com', p: 'another password' })).errors?.[0]?.extensions?.code,
    ).toBe('CONFLICT');
    expect((await gql(open, SIGN_UP, { e: 'short@example.com', p: 'short' })).errors?.[0]).toMatchObject({
      message: 'password must have at least 8 characters',
    });
  });
});

describe('accountName', () => {
  it("names the account that made a change by its display name, in the activity log and the webhook's payload", async () => {
    const { data } = await gql(open, SIGN_UP, {
      e: 'editor@example.com',
      p: 'long enough password',
      n: 'Erika Editor',
    });
    const token = data.signUp.personalToken as string;
    const created = await open.request({
      method: 'POST',
      url: '/api/v2/projects',
      headers: { authorization: token },
      payload: { name: 'named' },
    });
    const projectToken = created.json().data.projectToken as string;
    const auth = { authorization: token };
    await gql(
      open,
      'mutation($p: String) { createTranslationKey(projectToken: $p, input: {key: "hello"}) { key } }',
      { p: projectToken },
      auth,
    );
    await gql(
      open,
      'mutation($p: String) { updateTranslation(projectToken: $p, input: {key: "hello", language: "en", text: "Hello"}) { text } }',
      { p: projectToken },
      auth,
    );
    const log = await gql(
      open,
      'query($p: String) { activity(projectToken: $p) { entries { kind accountName actor { kind name email } } } }',
      { p: projectToken },
      auth,
    );
    const edit = log.data.activity.entries.find((e: { kind: string }) => e.kind === 'TRANSLATIONS');
    expect(edit).toEqual({
      kind: 'TRANSLATIONS',
      accountName: 'Erika Editor',
      actor: { kind: 'ACCOUNT', name: 'Erika Editor', email: 'editor@example.com' },
    });
  });
});
