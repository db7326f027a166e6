// Teams: roles enforced through the one access check on GraphQL, REST and
// subscriptions; a translator's languages and review permission; invitations
// (single use, expiry), role links (reset, disable), last-owner rules, and
// invitation e-mails delivered to a real SMTP server on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import { WebSocket } from 'ws';
import { SMTPServer } from 'smtp-server';
import {
  API_KEY_PERMISSIONS,
  PERMISSIONS,
  ROLES,
  ROLE_PERMISSIONS,
  allows,
  type Permission,
  type Role,
} from '../../src/teams/permissions.js';
import { prisma } from '../../src/db.js';
import { envelope, startTestService, type TestAccount, type TestService } from '../support/service.js';

let service: TestService;
let owner: TestAccount;
let project: { projectToken: string; apiKey: string };

type Gql = { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };

const gql = async (token: string | null, query: string, variables: Record<string, unknown> = {}): Promise<Gql> => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = token;
  const res = await service.request({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return res.json();
};
/** Data of an operation that must succeed. */
const ok = async (token: string | null, query: string, variables: Record<string, unknown> = {}) => {
  const result = await gql(token, query, variables);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data;
};
const code = (result: Gql) => result.errors?.[0]?.extensions?.code;
const tokenOf = (link: string) => decodeURIComponent(link.split('/').pop()!);

const INVITE = `mutation($p: String!, $email: String!, $role: MemberRole!, $languages: [String!], $canReview: Boolean) {
  inviteMember(projectToken: $p, email: $email, role: $role, languages: $languages, canReview: $canReview) { link emailSent invitation { id email role languages canReview expiresAt } }
}`;
const ACCEPT = `mutation($token: String!, $email: String, $password: String, $name: String) {
  acceptInvitation(token: $token, email: $email, password: $password, name: $name) { projectToken role email personalToken }
}`;
const MEMBERS = 'query($p: String!) { members(projectToken: $p) { email name role languages canReview } }';

/** Invites an existing account by e-mail and accepts as that account. */
async function join(account: TestAccount, role: Role, grant: { languages?: string[]; canReview?: boolean } = {}) {
  const invited = await ok(owner.token, INVITE, { p: project.projectToken, email: account.email, role, ...grant });
  await ok(account.token, ACCEPT, { token: tokenOf(invited.inviteMember.link) });
}

/** Everything a refused operation must leave unchanged. */
async function snapshot() {
  const p = service.db.prisma;
  const projectId = (await p.project.findUniqueOrThrow({ where: { projectToken: project.projectToken } })).id;
  const [keys, languages, customers, environments, translations, members, invitations, settings, publications] =
    await Promise.all([
      p.translationKey.findMany({ where: { projectId }, select: { key: true }, orderBy: { key: 'asc' } }),
      p.language.findMany({ where: { projectId }, select: { key: true }, orderBy: { key: 'asc' } }),
      p.customer.count({ where: { projectId } }),
      p.environment.count({ where: { projectId } }),
      p.translation.findMany({
        where: { projectId },
        select: { keyId: true, languageId: true, text: true, reviewStatus: true },
        orderBy: [{ keyId: 'asc' }, { languageId: 'asc' }],
      }),
      p.projectMember.findMany({
        where: { projectId },
        select: { accountId: true, role: true },
        orderBy: { accountId: 'asc' },
      }),
      p.invitation.count({ where: { projectId } }),
      p.project.findUniqueOrThrow({ where: { id: projectId }, select: { settings: true } }),
      p.publication.count({ where: { projectId } }),
    ]);
  return { keys, languages, customers, environments, translations, members, invitations, settings, publications };
}

const members: Record<Role, TestAccount> = {} as never;
let reviewer: TestAccount;

beforeAll(async () => {
  service = await startTestService({ listen: true });
  owner = await service.account();
  project = await owner.project('Team project');
  const key = { 'x-service-token': project.apiKey };
  for (const language of ['de', 'fr'])
    await service.request({ method: 'POST', url: '/api/v1/languages', headers: key, payload: { key: language } });
  await service.request({
    method: 'POST',
    url: '/api/v1/translations',
    headers: key,
    payload: { content: [{ key: 'hello', language: 'en', text: 'Hello' }] },
  });
  members.OWNER = owner;
  for (const role of ['ADMIN', 'TRANSLATOR', 'VIEWER'] as const) {
    members[role] = await service.account();
    await join(members[role], role, role === 'TRANSLATOR' ? { languages: ['de'] } : {});
  }
  reviewer = await service.account();
  await join(reviewer, 'TRANSLATOR', { languages: ['de'], canReview: true });
});
afterAll(() => service.close());

describe('members', () => {
  it('lists every member with role, languages and review permission', async () => {
    const list = (await ok(members.VIEWER.token, MEMBERS, { p: project.projectToken })).members;
    expect(list.map((m: any) => [m.email, m.role, m.languages, m.canReview])).toEqual([
      [owner.email, 'OWNER', [], true],
      [members.ADMIN.email, 'ADMIN', [], true],
      ...[
        [members.TRANSLATOR.email, false],
        [reviewer.email, true],
      ]
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
        .map(([email, review]) => [email, 'TRANSLATOR', ['de'], review]),
      [members.VIEWER.email, 'VIEWER', [], false],
    ]);
  });

  it('GET /api/v2/projects lists the project for members, with number_of_members sorting and the API key only for administrators', async () => {
    await members.TRANSLATOR.project('Solo project');
    const res = await service.request({
      url: '/api/v2/projects?sort=number_of_members',
      headers: { authorization: members.TRANSLATOR.token },
    });
    expect(res.statusCode).toBe(200);
    const list = envelope(res).data;
    expect(list.map((p: any) => p.name)).toEqual(['Team project', 'Solo project']);
    expect(list[0].apiKey).toBeNull();
    expect(list[1].apiKey).toMatch(/^lms_key_/);
    const alphabetical = envelope(
      await service.request({ url: '/api/v2/projects', headers: { authorization: members.TRANSLATOR.token } }),
    ).data;
    expect(alphabetical.map((p: any) => p.name)).toEqual(['Solo project', 'Team project']);
    const forAdmin = envelope(
      await service.request({ url: '/api/v2/projects', headers: { authorization: members.ADMIN.token } }),
    ).data;
    expect(forAdmin[0].apiKey).toBe(project.apiKey);
    const mine = await ok(
      members.TRANSLATOR.token,
      'query($p: String) { project(projectToken: $p) { myRole myLanguages numberOfMembers } }',
      { p: project.projectToken },
    );
    expect(mine.project).toEqual({ myRole: 'TRANSLATOR', myLanguages: ['de'], numberOfMembers: 5 });
  });

  it("Project.myPermissions tells each credential what it may do: its role's permissions, REVIEW only with canReview", async () => {
    const permissions = async (token: string) =>
      (
        await ok(token, 'query($p: String) { project(projectToken: $p) { myPermissions } }', {
          p: project.projectToken,
        })
      ).project.myPermissions;
    expect(await permissions(owner.token)).toEqual([...PERMISSIONS]);
    expect(await permissions(members.ADMIN.token)).toEqual(
      PERMISSIONS.filter((p) => p !== 'TRANSFER_OWNERSHIP' && p !== 'DELETE_PROJECT'),
    );
    expect(await permissions(members.TRANSLATOR.token)).toEqual(['READ_TEXTS', 'READ', 'EXPORT', 'TRANSLATE']);
    expect(await permissions(reviewer.token)).toEqual(['READ_TEXTS', 'READ', 'EXPORT', 'TRANSLATE', 'REVIEW']);
    expect(await permissions(members.VIEWER.token)).toEqual(['READ_TEXTS', 'READ', 'EXPORT']);
    const byKey = await service.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'x-service-token': project.apiKey, 'content-type': 'application/json' },
      payload: { query: '{ project { myPermissions } }' },
    });
    expect(byKey.json().data.project.myPermissions).toEqual([...API_KEY_PERMISSIONS]);
    // A member's account id is the actor id of its entries in the activity log.
    const listed = (
      await ok(members.VIEWER.token, 'query($p: String!) { members(projectToken: $p) { accountId email } }', {
        p: project.projectToken,
      })
    ).members;
    const row = await prisma().account.findUniqueOrThrow({
      where: { email: members.VIEWER.email },
      select: { id: true },
    });
    expect(listed.find((m: { email: string }) => m.email === members.VIEWER.email).accountId).toBe(String(row.id));
  });

  it('Project.onboarding (the first-run checklist) reads the steps from the project, for those who may change its settings', async () => {
    const onboarding = async (token: string, p = project.projectToken) =>
      (
        await ok(
          token,
          'query($p: String) { project(projectToken: $p) { onboarding { languagesAdded textsImported teamInvited published appConnected } } }',
          { p },
        )
      ).project.onboarding;
    // Languages added and a key written with the project API key (beforeAll), members joined; nothing published.
    const state = {
      languagesAdded: true,
      textsImported: true,
      teamInvited: true,
      published: false,
      appConnected: true,
    };
    expect(await onboarding(owner.token)).toEqual(state);
    expect(await onboarding(members.ADMIN.token)).toEqual(state);
    expect(await onboarding(members.TRANSLATOR.token)).toBeNull();
    expect(await onboarding(members.VIEWER.token)).toBeNull();
    // A new project: nothing done yet.
    const fresh = await owner.project('Fresh project');
    expect(await onboarding(owner.token, fresh.projectToken)).toEqual({
      languagesAdded: false,
      textsImported: false,
      teamInvited: false,
      published: false,
      appConnected: false,
    });
  });

  it('REST: lists members for any member, invites only with the MEMBERS permission (403 in the envelope otherwise)', async () => {
    const url = `/api/v2/projects/${project.projectToken}/members`;
    const listed = await service.request({ url, headers: { authorization: members.VIEWER.token } });
    expect(listed.statusCode).toBe(200);
    expect(envelope(listed).data).toHaveLength(5);
    const invite = (token: string) =>
      service.request({
        method: 'POST',
        url: `/api/v2/projects/${project.projectToken}/invitations`,
        headers: { authorization: token },
        payload: { email: 'rest-invitee@example.com', role: 'viewer' },
      });
    for (const role of ['TRANSLATOR', 'VIEWER'] as const) {
      const before = await snapshot();
      const res = await invite(members[role].token);
      expect(res.statusCode, role).toBe(403);
      expect(envelope(res).msg).toMatch(/does not allow MEMBERS/);
      expect(await snapshot()).toEqual(before);
    }
    const res = await invite(members.ADMIN.token);
    expect(res.statusCode).toBe(200);
    expect(envelope(res).data).toMatchObject({ email: 'rest-invitee@example.com', role: 'VIEWER', emailSent: false });
    // The console's page (it routes by the hash).
    expect(envelope(res).data.link).toMatch(/^http:\/\/localhost:8080\/#\/invitations\/lms_inv_/);
    const stranger = await service.account();
    expect((await service.request({ url, headers: { authorization: stranger.token } })).statusCode).toBe(404);
    const bad = await service.request({
      method: 'POST',
      url: `/api/v2/projects/${project.projectToken}/invitations`,
      headers: { authorization: owner.token },
      payload: { email: 'x@example.com', role: 'boss' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the permission matrix, through GraphQL', () => {
  // One representative operation per class; each run gets a fresh name so allowed runs really write.
  let n = 0;
  const OPERATIONS: [string, Permission, () => [string, Record<string, unknown>]][] = [
    [
      'read texts',
      'READ_TEXTS',
      () => ['query($p: String) { translations(projectToken: $p) { key language text } }', {}],
    ],
    [
      'read the rest of the project',
      'READ',
      () => ['query($p: String) { environments(projectToken: $p) { key } }', {}],
    ],
    [
      'export',
      'EXPORT',
      () => [
        'mutation($p: String) { exportTranslations(projectToken: $p, downloadFormat: MULTI_LANGUAGE_JSON) { files { url } } }',
        {},
      ],
    ],
    [
      'edit text in an allowed language',
      'TRANSLATE',
      () => [
        'mutation($p: String, $t: String) { updateTranslation(projectToken: $p, input: {key: "hello", language: "de", text: $t}) { text } }',
        { t: `Hallo ${++n}` },
      ],
    ],
    [
      'review',
      'REVIEW',
      () => [
        'mutation($p: String) { updateTranslation(projectToken: $p, input: {key: "hello", language: "de", reviewStatus: REVIEWED}) { reviewStatus } }',
        {},
      ],
    ],
    [
      'keys',
      'KEYS',
      () => [
        'mutation($p: String, $k: String!) { createTranslationKey(projectToken: $p, input: {key: $k}) { key } }',
        { k: `key-${++n}` },
      ],
    ],
    [
      'languages',
      'LANGUAGES',
      () => [
        'mutation($p: String, $k: String!) { createLanguage(projectToken: $p, input: {key: $k}) { key } }',
        { k: `l${++n}` },
      ],
    ],
    [
      'customers',
      'CUSTOMERS',
      () => [
        'mutation($p: String, $k: String!) { createCustomer(projectToken: $p, input: {key: $k}) { key } }',
        { k: `c${++n}` },
      ],
    ],
    [
      'import',
      'IMPORT',
      () => [
        'mutation($p: String, $k: String!) { importTranslations(projectToken: $p, content: [{key: $k, language: "en", text: "x"}]) { uniqueKeysProcessed } }',
        { k: `imported-${++n}` },
      ],
    ],
    [
      'environments',
      'ENVIRONMENTS',
      () => [
        'mutation($p: String, $k: String!) { createEnvironment(projectToken: $p, key: $k, name: "Staging") { key } }',
        { k: `staging-${++n}` },
      ],
    ],
    [
      'publish',
      'PUBLISH',
      () => ['mutation($p: String) { publishEnvironment(projectToken: $p, key: "_latest") { version } }', {}],
    ],
    [
      'settings',
      'SETTINGS',
      () => [
        'mutation($p: String, $k: String) { setProviderApiKey(projectToken: $p, provider: MT_PROVIDER_A, apiKey: $k) }',
        { k: `secret-${++n}` },
      ],
    ],
    [
      'members',
      'MEMBERS',
      () => [
        'mutation($p: String!, $e: String!) { inviteMember(projectToken: $p, email: $e, role: VIEWER) { emailSent } }',
        { e: `invitee-${++n}@example.com` },
      ],
    ],
  ];

  for (const role of ROLES) {
    for (const [name, permission, operation] of OPERATIONS) {
      const allowed = ROLE_PERMISSIONS[role].includes(permission) && (permission !== 'REVIEW' || role !== 'TRANSLATOR');
      it(`${role} ${allowed ? 'may' : 'may not'}: ${name}`, async () => {
        const [query, variables] = operation();
        // A review must change something to show it happened: start from NOT_REVIEWED.
        if (permission === 'REVIEW')
          await service.db.prisma.translation.updateMany({
            where: { key: { key: 'hello', project: { projectToken: project.projectToken } }, language: { key: 'de' } },
            data: { reviewStatus: 'NOT_REVIEWED' },
          });
        const before = await snapshot();
        const result = await gql(members[role].token, query, { p: project.projectToken, ...variables });
        if (allowed) {
          expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
          if (permission !== 'READ_TEXTS' && permission !== 'READ' && permission !== 'EXPORT')
            expect(await snapshot()).not.toEqual(before);
        } else {
          expect(code(result), JSON.stringify(result)).toBe('FORBIDDEN');
          expect(await snapshot()).toEqual(before);
        }
      });
    }
  }

  it('jobs: starting or cancelling needs JOBS', async () => {
    for (const role of ROLES) {
      const result = await gql(
        members[role].token,
        'mutation($p: String) { cancelJob(projectToken: $p, jobId: "no-such-job") { state } }',
        { p: project.projectToken },
      );
      // Allowed through the access check, the job is then not found.
      expect(code(result), role).toBe(ROLE_PERMISSIONS[role].includes('JOBS') ? 'NOT_FOUND' : 'FORBIDDEN');
    }
  });

  it('a translator writes only its languages; the bulk write is refused whole when one element is outside', async () => {
    const t = members.TRANSLATOR.token;
    const before = await snapshot();
    const one = await gql(
      t,
      'mutation($p: String) { updateTranslation(projectToken: $p, input: {key: "hello", language: "fr", text: "Bonjour"}) { text } }',
      { p: project.projectToken },
    );
    expect(code(one)).toBe('FORBIDDEN');
    expect(one.errors![0]!.message).toMatch(/only de; not fr/);
    const bulk = await gql(
      t,
      'mutation($p: String) { updateTranslations(projectToken: $p, content: [{key: "hello", language: "de", text: "Hallo!"}, {key: "hello", language: "fr", text: "Salut"}]) { numberOfUpdates } }',
      { p: project.projectToken },
    );
    expect(code(bulk)).toBe('FORBIDDEN');
    const createKeys = await gql(
      t,
      'mutation($p: String) { updateTranslations(projectToken: $p, content: [{key: "new-key", language: "de", text: "Neu"}], options: [CREATE_KEY_IF_NOT_FOUND]) { numberOfInserts } }',
      { p: project.projectToken },
    );
    expect(code(createKeys)).toBe('FORBIDDEN');
    expect(await snapshot()).toEqual(before);
    const allowed = await ok(
      t,
      'mutation($p: String) { updateTranslations(projectToken: $p, content: [{key: "hello", language: "de", text: "Hallo!"}]) { numberOfUpdates numberOfInserts } }',
      { p: project.projectToken },
    );
    expect(allowed.updateTranslations.numberOfUpdates + allowed.updateTranslations.numberOfInserts).toBe(1);
  });

  it('a translator with the review permission reviews in its languages only', async () => {
    const review = (language: string) =>
      gql(
        reviewer.token,
        'mutation($p: String, $l: String!) { updateTranslation(projectToken: $p, input: {key: "hello", language: $l, reviewStatus: REVIEWED}) { reviewStatus } }',
        { p: project.projectToken, l: language },
      );
    expect((await review('de')).data.updateTranslation.reviewStatus).toBe('REVIEWED');
    expect(code(await review('en'))).toBe('FORBIDDEN');
  });

  it('only the owner deletes the project; a project API key keeps full content access but no member management', async () => {
    for (const role of ['ADMIN', 'TRANSLATOR', 'VIEWER'] as const) {
      expect(
        code(
          await gql(members[role].token, 'mutation($p: String!) { deleteProject(projectToken: $p) }', {
            p: project.projectToken,
          }),
        ),
        role,
      ).toBe('FORBIDDEN');
    }
    const apiKey = (query: string, variables: object = {}) =>
      service
        .request({
          method: 'POST',
          url: '/graphql',
          headers: { 'x-service-token': project.apiKey, 'content-type': 'application/json' },
          payload: { query, variables },
        })
        .then((r) => r.json());
    expect((await apiKey('mutation { createTranslationKey(input: {key: "by-api-key"}) { key } }')).data).toEqual({
      createTranslationKey: { key: 'by-api-key' },
    });
    expect(
      code(
        await apiKey(
          'mutation($p: String!) { inviteMember(projectToken: $p, email: "k@example.com", role: VIEWER) { emailSent } }',
          { p: project.projectToken },
        ),
      ),
    ).toBe('FORBIDDEN');
    expect((await apiKey('{ project { apiKey myRole } }')).data.project).toEqual({
      apiKey: project.apiKey,
      myRole: null,
    });
    const doomed = await owner.project('Doomed');
    const { id: doomedId } = await service.db.prisma.project.findUniqueOrThrow({
      where: { projectToken: doomed.projectToken },
    });
    const write = await service.request({
      method: 'POST',
      url: '/api/v1/translations',
      headers: { 'x-service-token': doomed.apiKey, 'content-type': 'application/json' },
      payload: { content: [{ key: 'secret', language: 'en', text: 'Gone with the project' }] },
    });
    expect(write.statusCode).toBe(200);
    expect(await service.db.prisma.cellChangeBatch.count({ where: { projectId: doomedId } })).toBe(1);
    expect(
      await ok(owner.token, 'mutation($p: String!) { deleteProject(projectToken: $p) }', { p: doomed.projectToken }),
    ).toEqual({ deleteProject: true });
    expect(await service.db.prisma.project.findUnique({ where: { projectToken: doomed.projectToken } })).toBeNull();
    // Its history goes with it: no text of a deleted project stays behind.
    expect(await service.db.prisma.cellChangeBatch.count({ where: { projectId: doomedId } })).toBe(0);
  });

  it('the matrix table matches allows() for every role and permission', () => {
    for (const role of ROLES) {
      expect(allows({ role, languageIds: [], canReview: true }, 'READ')).toBe(true);
      expect(allows({ role, languageIds: [], canReview: false }, 'DELETE_PROJECT')).toBe(role === 'OWNER');
    }
  });
});

describe('subscriptions respect roles', () => {
  const subscribe = (token: string) => {
    const client = createClient({
      url: service.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: token },
      lazy: true,
    });
    const events: any[] = [];
    const done = new Promise<any>((resolve) => {
      client.subscribe(
        {
          query: 'subscription($p: String) { publicationProgress(projectToken: $p) { environmentKey state } }',
          variables: { p: project.projectToken },
        },
        {
          next: (value) => {
            events.push(value);
            if (value.errors) resolve(value);
          },
          error: resolve,
          complete: () => resolve(undefined),
        },
      );
    });
    return { client, events, done };
  };

  it('a viewer follows publications; an account that is not a member is refused', async () => {
    const viewer = subscribe(members.VIEWER.token);
    const stranger = subscribe((await service.account()).token);
    const refused = await stranger.done;
    expect(JSON.stringify(refused)).toMatch(/not found/i);
    await new Promise((r) => setTimeout(r, 300));
    await ok(owner.token, 'mutation($p: String) { publishEnvironment(projectToken: $p, key: "_latest") { version } }', {
      p: project.projectToken,
    });
    for (let i = 0; i < 50 && viewer.events.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(viewer.events[0]?.data?.publicationProgress?.environmentKey).toBe('_latest');
    expect(viewer.events.some((e) => e.errors)).toBe(false);
    await viewer.client.dispose();
    await stranger.client.dispose();
  });
});

describe('invitations', () => {
  it('a new account accepts an e-mail invitation once, setting its password; the link is single use', async () => {
    const email = `new-${Date.now()}@example.com`;
    const invited = (
      await ok(owner.token, INVITE, {
        p: project.projectToken,
        email,
        role: 'TRANSLATOR',
        languages: ['fr'],
        canReview: true,
      })
    ).inviteMember;
    expect(invited.emailSent).toBe(false);
    expect(new Date(invited.invitation.expiresAt).getTime() - Date.now()).toBeGreaterThan(7 * 24 * 3600e3 - 60e3);
    const token = tokenOf(invited.link);
    const preview = await ok(
      null,
      'query($t: String!) { invitation(token: $t) { projectName role email accountExists } }',
      { t: token },
    );
    expect(preview.invitation).toEqual({
      projectName: 'Team project',
      role: 'TRANSLATOR',
      email,
      accountExists: false,
    });
    expect(code(await gql(null, ACCEPT, { token, password: 'short' }))).toBe('BAD_REQUEST');
    const accepted = (await ok(null, ACCEPT, { token, password: 'a long password', name: 'Nora' })).acceptInvitation;
    expect(accepted).toMatchObject({ projectToken: project.projectToken, role: 'TRANSLATOR', email });
    // The new account works with its token and sees its grant.
    const list = (await ok(accepted.personalToken, MEMBERS, { p: project.projectToken })).members;
    expect(list.find((m: any) => m.email === email)).toEqual({
      email,
      name: 'Nora',
      role: 'TRANSLATOR',
      languages: ['fr'],
      canReview: true,
    });
    // …and signs in with the password it set.
    const basic = `Basic ${Buffer.from(`${email}:a long password`).toString('base64')}`;
    expect(
      (await ok(basic, 'query($p: String) { project(projectToken: $p) { myRole } }', { p: project.projectToken }))
        .project.myRole,
    ).toBe('TRANSLATOR');
    const again = await gql(null, ACCEPT, { token, password: 'another password' });
    expect(code(again)).toBe('NOT_FOUND');
    expect(again.errors![0]!.message).toMatch(/already been used/);
  });

  it('an existing account signs in to accept; another account cannot use the link', async () => {
    const existing = await service.account();
    const token = tokenOf(
      (await ok(members.ADMIN.token, INVITE, { p: project.projectToken, email: existing.email, role: 'VIEWER' }))
        .inviteMember.link,
    );
    expect(
      (await ok(null, 'query($t: String!) { invitation(token: $t) { accountExists } }', { t: token })).invitation
        .accountExists,
    ).toBe(true);
    const anonymous = await gql(null, ACCEPT, { token, password: 'whatever password' });
    expect(code(anonymous)).toBe('FORBIDDEN');
    expect(anonymous.errors![0]!.message).toMatch(/sign in/);
    expect(code(await gql((await service.account()).token, ACCEPT, { token }))).toBe('FORBIDDEN');
    expect((await ok(existing.basic, ACCEPT, { token })).acceptInvitation).toMatchObject({
      role: 'VIEWER',
      personalToken: null,
    });
  });

  it('an expired invitation is refused and not listed as pending', async () => {
    const email = `late-${Date.now()}@example.com`;
    const invited = (await ok(owner.token, INVITE, { p: project.projectToken, email, role: 'VIEWER' })).inviteMember;
    const pending = async () =>
      (
        await ok(owner.token, 'query($p: String!) { invitations(projectToken: $p) { email } }', {
          p: project.projectToken,
        })
      ).invitations.map((i: any) => i.email);
    expect(await pending()).toContain(email);
    await service.db.prisma.invitation.update({
      where: { id: invited.invitation.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await gql(null, ACCEPT, { token: tokenOf(invited.link), password: 'a long password' });
    expect(code(res)).toBe('NOT_FOUND');
    expect(res.errors![0]!.message).toMatch(/expired/);
    expect(await pending()).not.toContain(email);
    expect(await service.db.prisma.account.findUnique({ where: { email } })).toBeNull();
  });

  it('role links: reusable, a reset invalidates the old link, disabling stops the link', async () => {
    const reset = async () =>
      (
        await ok(
          owner.token,
          'mutation($p: String!) { resetRoleLink(projectToken: $p, role: TRANSLATOR, languages: ["fr"]) { role enabled languages link } }',
          { p: project.projectToken },
        )
      ).resetRoleLink;
    const first = await reset();
    expect(first).toMatchObject({ role: 'TRANSLATOR', enabled: true, languages: ['fr'] });
    const [a, b, c] = [await service.account(), await service.account(), await service.account()];
    expect((await ok(a.token, ACCEPT, { token: tokenOf(first.link) })).acceptInvitation.role).toBe('TRANSLATOR');
    const newcomer = `link-${Date.now()}@example.com`;
    expect(
      (await ok(null, ACCEPT, { token: tokenOf(first.link), email: newcomer, password: 'a long password' }))
        .acceptInvitation.email,
    ).toBe(newcomer);
    expect(code(await gql(a.token, ACCEPT, { token: tokenOf(first.link) }))).toBe('CONFLICT');
    const second = await reset();
    expect(code(await gql(b.token, ACCEPT, { token: tokenOf(first.link) }))).toBe('NOT_FOUND');
    expect((await ok(b.token, ACCEPT, { token: tokenOf(second.link) })).acceptInvitation.role).toBe('TRANSLATOR');
    expect(
      await ok(owner.token, 'mutation($p: String!) { disableRoleLink(projectToken: $p, role: TRANSLATOR) }', {
        p: project.projectToken,
      }),
    ).toEqual({ disableRoleLink: true });
    const disabled = await gql(c.token, ACCEPT, { token: tokenOf(second.link) });
    expect(disabled.errors![0]!.message).toMatch(/disabled/);
    const links = (
      await ok(owner.token, 'query($p: String!) { roleLinks(projectToken: $p) { role enabled languages link } }', {
        p: project.projectToken,
      })
    ).roleLinks;
    expect(links).toEqual([
      { role: 'ADMIN', enabled: false, languages: [], link: null },
      { role: 'TRANSLATOR', enabled: false, languages: ['fr'], link: null },
      { role: 'VIEWER', enabled: false, languages: [], link: null },
    ]);
    expect(
      code(
        await gql(
          members.TRANSLATOR.token,
          'mutation($p: String!) { resetRoleLink(projectToken: $p, role: VIEWER) { link } }',
          { p: project.projectToken },
        ),
      ),
    ).toBe('FORBIDDEN');
    // Only the digest is stored.
    const stored = await service.db.prisma.invitation.findMany({ where: { kind: 'LINK' } });
    expect(stored.map((s) => s.tokenHash)).not.toContain(tokenOf(second.link));
  });

  it('invites only invitable roles and addresses that are not members yet', async () => {
    expect(
      code(await gql(owner.token, INVITE, { p: project.projectToken, email: 'boss@example.com', role: 'OWNER' })),
    ).toBe('BAD_REQUEST');
    expect(
      code(await gql(owner.token, INVITE, { p: project.projectToken, email: members.ADMIN.email, role: 'VIEWER' })),
    ).toBe('CONFLICT');
    expect(
      code(
        await gql(owner.token, INVITE, {
          p: project.projectToken,
          email: 'x@example.com',
          role: 'VIEWER',
          languages: ['de'],
        }),
      ),
    ).toBe('BAD_REQUEST');
    expect(
      code(
        await gql(owner.token, INVITE, {
          p: project.projectToken,
          email: 'x@example.com',
          role: 'TRANSLATOR',
          languages: ['xx'],
        }),
      ),
    ).toBe('BAD_REQUEST');
  });
});

describe('roles and ownership', () => {
  it('changing a role takes effect on the next request', async () => {
    const t = await service.account();
    await join(t, 'TRANSLATOR');
    const write = () =>
      gql(
        t.token,
        'mutation($p: String) { updateTranslation(projectToken: $p, input: {key: "hello", language: "fr", text: "Salut"}) { text } }',
        { p: project.projectToken },
      );
    expect((await write()).errors).toBeUndefined();
    await ok(
      members.ADMIN.token,
      'mutation($p: String!, $e: String!) { updateMember(projectToken: $p, email: $e, role: VIEWER) }',
      { p: project.projectToken, e: t.email },
    );
    expect(code(await write())).toBe('FORBIDDEN');
    const rest = await service.request({
      method: 'PATCH',
      url: `/api/v2/projects/${project.projectToken}/members/${encodeURIComponent(t.email)}`,
      headers: { authorization: members.ADMIN.token },
      payload: { role: 'translator', languages: ['de'] },
    });
    expect(rest.statusCode).toBe(200);
    expect(code(await write())).toBe('FORBIDDEN');
    const removed = await service.request({
      method: 'DELETE',
      url: `/api/v2/projects/${project.projectToken}/members/${encodeURIComponent(t.email)}`,
      headers: { authorization: members.ADMIN.token },
    });
    expect(removed.statusCode).toBe(200);
    expect(code(await write())).toBe('NOT_FOUND');
  });

  it('the last owner can neither leave nor be removed; ownership is transferred, after which the former owner may leave', async () => {
    const p = project.projectToken;
    const before = await snapshot();
    const leave = await gql(owner.token, 'mutation($p: String!) { leaveProject(projectToken: $p) }', { p });
    expect(code(leave)).toBe('CONFLICT');
    expect(leave.errors![0]!.message).toMatch(/last owner/);
    expect(
      code(
        await gql(
          members.ADMIN.token,
          'mutation($p: String!, $e: String!) { removeMember(projectToken: $p, email: $e) }',
          { p, e: owner.email },
        ),
      ),
    ).toBe('CONFLICT');
    expect(
      code(
        await gql(
          members.ADMIN.token,
          'mutation($p: String!, $e: String!) { updateMember(projectToken: $p, email: $e, role: VIEWER) }',
          { p, e: owner.email },
        ),
      ),
    ).toBe('CONFLICT');
    expect(
      code(
        await gql(
          members.ADMIN.token,
          'mutation($p: String!, $e: String!) { transferOwnership(projectToken: $p, email: $e) }',
          { p, e: members.ADMIN.email },
        ),
      ),
    ).toBe('FORBIDDEN');
    const restRemove = await service.request({
      method: 'DELETE',
      url: `/api/v2/projects/${p}/members/${encodeURIComponent(owner.email)}`,
      headers: { authorization: members.ADMIN.token },
    });
    expect(restRemove.statusCode).toBe(409);
    expect(await snapshot()).toEqual(before);

    await ok(owner.token, 'mutation($p: String!, $e: String!) { transferOwnership(projectToken: $p, email: $e) }', {
      p,
      e: members.ADMIN.email,
    });
    const roles = (await ok(owner.token, MEMBERS, { p })).members;
    expect(roles.filter((m: any) => m.role === 'OWNER').map((m: any) => m.email)).toEqual([members.ADMIN.email]);
    expect(roles.find((m: any) => m.email === owner.email).role).toBe('ADMIN');
    expect(
      code(await gql(members.ADMIN.token, 'mutation($p: String!) { leaveProject(projectToken: $p) }', { p })),
    ).toBe('CONFLICT');
    expect(await ok(owner.token, 'mutation($p: String!) { leaveProject(projectToken: $p) }', { p })).toEqual({
      leaveProject: true,
    });
    expect(code(await gql(owner.token, 'query($p: String) { project(projectToken: $p) { name } }', { p }))).toBe(
      'NOT_FOUND',
    );
  });
});

describe('invitation e-mails over SMTP', () => {
  let mailService: TestService;
  let smtp: SMTPServer;
  const received: { to: string[]; body: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            body: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as { port: number }).port;
    mailService = await startTestService({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Team <team@example.com>' },
    });
  });
  let smtpOpen = true;
  const closeSmtp = () =>
    smtpOpen
      ? new Promise<void>((resolve) => {
          smtpOpen = false;
          smtp.close(() => resolve());
        })
      : Promise.resolve();
  afterAll(async () => {
    await mailService?.close();
    await closeSmtp();
  });

  it('sends the single-use link by e-mail instead of returning it, and the e-mailed link works', async () => {
    const boss = await mailService.account();
    const { projectToken } = await boss.project('Mailed project');
    const res = await mailService.request({
      method: 'POST',
      url: `/api/v2/projects/${projectToken}/invitations`,
      headers: { authorization: boss.token },
      payload: { email: 'Friend@Example.com', role: 'translator' },
    });
    expect(res.statusCode).toBe(200);
    expect(envelope(res).data).toMatchObject({ email: 'friend@example.com', emailSent: true, link: null });
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['friend@example.com']);
    expect(received[0]!.body).toMatch(/^From: Team <team@example\.com>/m);
    expect(received[0]!.body).toMatch(/Subject: Invitation to Mailed project/);
    const link = /http:\/\/localhost:8080\/#\/invitations\/(\S+)/.exec(received[0]!.body.replace(/=\r?\n/g, ''))![1]!;
    const accept = await mailService.request({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: { query: ACCEPT, variables: { token: decodeURIComponent(link), password: 'a long password' } },
    });
    expect(accept.json().data.acceptInvitation).toMatchObject({ email: 'friend@example.com', role: 'TRANSLATOR' });
  });

  it('withdraws the invitation when the SMTP server cannot be reached', async () => {
    await closeSmtp();
    const boss = await mailService.account();
    const { projectToken } = await boss.project('Unmailed project');
    const res = await mailService.request({
      method: 'POST',
      url: `/api/v2/projects/${projectToken}/invitations`,
      headers: { authorization: boss.token },
      payload: { email: 'nobody@example.com', role: 'viewer' },
    });
    expect(res.statusCode).toBe(500);
    expect(envelope(res).msg).toMatch(/could not be sent/);
    expect(await mailService.db.prisma.invitation.count({ where: { email: 'nobody@example.com' } })).toBe(0);
  });
});
