// Git sync against a real Git server (git http-backend on loopback) and
// loopback GitHub / GitLab APIs that check the requests' shape: connect, pull
// (preview, then import), push with a pull request opened then updated, a
// push webhook (GitHub's signature, GitLab's token) that pulls a developer's
// new key, forged signatures refused, a concurrent push to the target branch
// (the service's branch is rebuilt, the target never forced), the token never
// in a URL, a message or the sync log.
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prisma } from '../../src/db.js';
import { authOf, takeLease, releaseLease } from '../../src/gitsync/connections.js';
import { runDueSchedules } from '../../src/gitsync/schedule.js';
import { pushProjectToGit } from '../../src/gitsync/push.js';
import { pullFromGit } from '../../src/gitsync/pull.js';
import { AutomationRunner } from '../../src/automations/runner.js';
import { multipart } from '../support/transfer.js';
import { sshdPresent, startSshServer } from '../support/ssh-server.js';
import { openOrUpdateChangeRequest } from '../../src/gitsync/forge.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import {
  startGitHubApi,
  startGitLabApi,
  startGitServer,
  type ForgeServer,
  type GitServer,
} from '../support/git-server.js';

const TOKEN = 'ghp_TestTokenThatMustNeverLeak1234567890';

let service: TestService;
let account: TestAccount;
let gitServer: GitServer;
let github: ForgeServer;

beforeAll(async () => {
  service = await startTestService({
    worker: false,
    env: { GIT_ALLOW_PRIVATE_HOSTS: 'true', GIT_TIMEOUT_MS: '30000' },
  });
  account = await service.account();
  gitServer = await startGitServer({ user: 'x-access-token', token: TOKEN });
  github = await startGitHubApi({
    repository: 'team/app',
    token: TOKEN,
    branchExists: (b) => gitServer.head('team/app.git', b) !== undefined,
  });
}, 60_000);

afterAll(async () => {
  await github?.close();
  await gitServer?.close();
  await service?.close();
});

const CONNECTION_FIELDS =
  'id remoteUrl authKind hasToken branch pathPattern format pullScope pushBranch forgeKind forgeApiUrl forgeRepository webhookUrl deployPublicKey';
const RUN_FIELDS = 'id kind trigger state commit message pullRequestUrl details';

async function gql(api: ProjectApi, query: string, variables: Record<string, unknown> = {}) {
  const res = await api.gql(query, variables);
  return res;
}

async function ok(api: ProjectApi, query: string, variables: Record<string, unknown> = {}) {
  const res = await gql(api, query, variables);
  expect(res.errors).toBeUndefined();
  return res.data;
}

const connect = (api: ProjectApi, input: Record<string, unknown>) =>
  ok(
    api,
    `mutation($input: GitConnectionInput!) { connectGitRepository(input: $input) { webhookSecret connection { ${CONNECTION_FIELDS} } } }`,
    { input },
  ).then((d) => d.connectGitRepository as { webhookSecret: string; connection: Record<string, any> });

const pull = (api: ProjectApi, preview = false) =>
  gql(
    api,
    `mutation($preview: Boolean) { pullFromGit(preview: $preview) { commit run { ${RUN_FIELDS} } files { path language namespace error result { keysCreated translationsInserted translationsUpdated } preview { keysToCreate { count keys { key namespace } } translationsToInsert } } } }`,
    { preview },
  );

const push = (api: ProjectApi) =>
  gql(
    api,
    `mutation { pushToGit { branch commit baseCommit pushed files pullRequest { number url opened } run { ${RUN_FIELDS} } } }`,
  );

const runs = (api: ProjectApi) =>
  ok(api, `{ gitSyncRuns { ${RUN_FIELDS} trigger } }`).then((d) => d.gitSyncRuns as any[]);

const texts = async (projectToken: string) => {
  const rows = await prisma().translation.findMany({
    where: { key: { project: { projectToken } } },
    select: { text: true, key: { select: { key: true, namespace: true } }, language: { select: { key: true } } },
  });
  return Object.fromEntries(rows.map((r) => [`${r.key.namespace}/${r.key.key}/${r.language.key}`, r.text]));
};

function signed(secret: string, payload: unknown) {
  const body = JSON.stringify(payload);
  return { body, signature: `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` };
}

async function until<T>(what: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a GitHub repository over HTTPS with a token', { timeout: 180_000 }, () => {
  let api: ProjectApi;
  let secret: string;
  let connectionId: number;
  const repo = 'team/app.git';

  beforeAll(async () => {
    api = await projectApi(service, account, 'Shop App');
    expect((await api.post('/api/v1/languages', { key: 'de', name: 'German' })).status).toBe(200);
    gitServer.createRepository(repo, {
      'README.md': '# app\n',
      'locales/en/common.json': JSON.stringify({ hello: 'Hello', cart: 'Cart' }, null, 2) + '\n',
      'locales/de/common.json': JSON.stringify({ hello: 'Hallo (stale)' }, null, 2) + '\n',
    });
  });

  it('connects: settings checked, the token sealed and never shown, the webhook secret shown once', async () => {
    for (const [input, message] of [
      [{ remoteUrl: `http://x-access-token:${TOKEN}@127.0.0.1/team/app.git` }, /must not contain credentials/],
      [{ remoteUrl: 'file:///etc/passwd' }, /https, http or ssh/],
      [{ remoteUrl: 'ext::sh -c touch% /tmp/pwned' }, /remoteUrl/],
      [
        {
          remoteUrl: `${gitServer.url}/${repo}`,
          token: TOKEN,
          pathPattern: '../{lang}.json',
          format: 'SINGLE_LANGUAGE_JSON',
        },
        /segments/,
      ],
      [
        {
          remoteUrl: `${gitServer.url}/${repo}`,
          token: TOKEN,
          pathPattern: 'locales/en.json',
          format: 'SINGLE_LANGUAGE_JSON',
        },
        /needs \{lang\}/,
      ],
      [
        {
          remoteUrl: `${gitServer.url}/${repo}`,
          token: TOKEN,
          pathPattern: 'l/{lang}.json',
          format: 'SINGLE_LANGUAGE_JSON',
          pushBranch: 'main',
        },
        /must differ/,
      ],
      [
        {
          remoteUrl: `${gitServer.url}/${repo}`,
          token: TOKEN,
          pathPattern: 'l/{lang}.json',
          format: 'SINGLE_LANGUAGE_JSON',
          branch: 'a..b',
        },
        /not a valid branch/,
      ],
      [
        { remoteUrl: `${gitServer.url}/${repo}`, pathPattern: 'l/{lang}.json', format: 'SINGLE_LANGUAGE_JSON' },
        /needs a token/,
      ],
      [
        {
          remoteUrl: `${gitServer.url}/${repo}`,
          token: TOKEN,
          pathPattern: 'l/{lang}.json',
          format: 'SINGLE_LANGUAGE_JSON',
          pushSchedule: 'every day',
        },
        /cron/,
      ],
    ] as const) {
      const res = await gql(
        api,
        'mutation($input: GitConnectionInput!) { connectGitRepository(input: $input) { webhookSecret } }',
        { input: { pathPattern: 'l/{lang}.json', format: 'SINGLE_LANGUAGE_JSON', ...input } },
      );
      expect(res.errors?.[0]?.extensions?.code, JSON.stringify(input)).toBe('BAD_REQUEST');
      expect(res.errors?.[0]?.message).toMatch(message);
      expect(res.errors?.[0]?.message).not.toContain(TOKEN);
    }
    const connected = await connect(api, {
      remoteUrl: `${gitServer.url}/${repo}`,
      authKind: 'TOKEN',
      token: TOKEN,
      branch: 'main',
      pathPattern: 'locales/{lang}/{ns}.json',
      format: 'SINGLE_LANGUAGE_JSON',
      forgeKind: 'GITHUB',
      forgeApiUrl: github.url,
    });
    secret = connected.webhookSecret;
    connectionId = connected.connection.id;
    expect(secret).toMatch(/^gitwh_[\w-]{30,}$/);
    expect(connected.connection).toMatchObject({
      authKind: 'TOKEN',
      hasToken: true,
      branch: 'main',
      pushBranch: 'l10n/shop-app',
      forgeKind: 'GITHUB',
      forgeRepository: 'team/app',
      pullScope: 'SOURCE',
      webhookUrl: `http://localhost:8080/api/git/hooks/${connectionId}`,
      deployPublicKey: null,
    });
    const row = await prisma().gitConnection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(JSON.stringify(row)).not.toContain(TOKEN);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(await ok(api, `{ gitConnection { ${CONNECTION_FIELDS} } }`))).not.toContain(TOKEN);
    const again = await gql(
      api,
      'mutation($input: GitConnectionInput!) { connectGitRepository(input: $input) { webhookSecret } }',
      {
        input: {
          remoteUrl: `${gitServer.url}/${repo}`,
          token: TOKEN,
          pathPattern: 'l/{lang}.json',
          format: 'SINGLE_LANGUAGE_JSON',
        },
      },
    );
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  });

  it('previews the pull (nothing written), then imports the source files through the normal import, as a GIT change', async () => {
    const preview = await pull(api, true);
    expect(preview.errors).toBeUndefined();
    const head = gitServer.head(repo, 'main');
    expect(preview.data.pullFromGit).toMatchObject({
      commit: head,
      run: { kind: 'PREVIEW', trigger: 'MANUAL', state: 'SUCCEEDED' },
      files: [
        {
          path: 'locales/en/common.json',
          language: 'en',
          namespace: 'common',
          error: null,
          result: null,
          preview: { keysToCreate: { count: 2 }, translationsToInsert: 2 },
        },
      ],
    });
    expect(await texts(api.projectToken)).toEqual({});

    const pulled = await pull(api);
    expect(pulled.errors).toBeUndefined();
    // SOURCE scope: only English; the stale German file is not read.
    expect(pulled.data.pullFromGit.files).toEqual([
      expect.objectContaining({
        path: 'locales/en/common.json',
        result: { keysCreated: 2, translationsInserted: 2, translationsUpdated: 0 },
      }),
    ]);
    expect(await texts(api.projectToken)).toEqual({ 'common/hello/en': 'Hello', 'common/cart/en': 'Cart' });
    const change = await prisma().activity.findFirstOrThrow({
      where: { project: { projectToken: api.projectToken }, kind: 'IMPORT' },
      orderBy: { id: 'desc' },
    });
    expect(change.source).toBe('GIT');
    expect((await prisma().gitConnection.findUniqueOrThrow({ where: { id: connectionId } })).lastPulledCommit).toBe(
      head,
    );
  });

  it('pushes the export on its own branch built on main and opens a pull request; main is never written', async () => {
    const mainBefore = gitServer.head(repo, 'main');
    expect(
      (await api.patch('/api/v2/translations', { key: 'hello', namespace: 'common', language: 'de', text: 'Hallo' }))
        .status,
    ).toBe(200);
    expect((await texts(api.projectToken))['common/hello/de']).toBe('Hallo');
    const pushed = await push(api);
    expect(pushed.errors).toBeUndefined();
    const result = pushed.data.pushToGit;
    expect(result).toMatchObject({
      branch: 'l10n/shop-app',
      baseCommit: mainBefore,
      pushed: true,
      pullRequest: { number: 1, opened: true, url: 'https://github.example/team/app/pull/1' },
      run: { kind: 'PUSH', state: 'SUCCEEDED', pullRequestUrl: 'https://github.example/team/app/pull/1' },
    });
    expect(result.files.sort()).toEqual(['locales/de/common.json', 'locales/en/common.json']);
    expect(gitServer.head(repo, 'main')).toBe(mainBefore);
    expect(gitServer.head(repo, 'l10n/shop-app')).toBe(result.commit);
    // The export as the download gives it: an untranslated cell is an empty text.
    expect(JSON.parse(gitServer.show(repo, 'l10n/shop-app', 'locales/de/common.json'))).toEqual({
      hello: 'Hallo',
      cart: '',
    });
    expect(JSON.parse(gitServer.show(repo, 'l10n/shop-app', 'locales/en/common.json'))).toEqual({
      hello: 'Hello',
      cart: 'Cart',
    });
    const [top, parent] = gitServer.log(repo, 'l10n/shop-app');
    expect(top).toMatch(/ Localization service Update translations from Shop App$/);
    expect(parent!.split(' ')[0]).toBe(mainBefore);
    expect(github.refused).toEqual([]);
    expect(github.pulls).toEqual([
      expect.objectContaining({
        number: 1,
        head: 'l10n/shop-app',
        base: 'main',
        title: 'Translations from Shop App',
        state: 'open',
      }),
    ]);
    const create = github.requests.find((r) => r.method === 'POST')!;
    expect(create.url).toBe('/repos/team/app/pulls');
    expect(create.body).toMatchObject({ head: 'l10n/shop-app', base: 'main', maintainer_can_modify: false });
  });

  it('a push webhook signed by GitHub pulls the new English key; a forged signature is refused and pulls nothing', async () => {
    const newHead = gitServer.commit(
      repo,
      { 'locales/en/common.json': JSON.stringify({ hello: 'Hello', cart: 'Cart', checkout: 'Check out' }) },
      'Add checkout',
    );
    const payload = { ref: 'refs/heads/main', after: newHead, repository: { full_name: 'team/app' } };
    const runsBefore = (await runs(api)).length;

    const forged = signed('not-the-secret', payload);
    for (const headers of <Record<string, string>[]>[
      { 'x-hub-signature-256': forged.signature, 'x-github-event': 'push' },
      { 'x-hub-signature-256': 'sha256=' + '0'.repeat(64), 'x-github-event': 'push' },
      { 'x-github-event': 'push' },
      { 'x-gitlab-token': 'gitwh_wrong', 'x-gitlab-event': 'Push Hook' },
    ]) {
      const res = await service.request({
        method: 'POST',
        url: `/api/git/hooks/${connectionId}`,
        headers: { 'content-type': 'application/json', ...headers },
        payload: forged.body,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().msg).toMatch(/X-Hub-Signature-256|X-Gitlab-Token/);
    }
    // A body altered after signing: the signature no longer matches.
    const genuine = signed(secret, payload);
    const altered = await service.request({
      method: 'POST',
      url: `/api/git/hooks/${connectionId}`,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': genuine.signature,
        'x-github-event': 'push',
      },
      payload: genuine.body.replace('main', 'evil'),
    });
    expect(altered.statusCode).toBe(403);
    expect(
      (
        await service.request({
          method: 'POST',
          url: '/api/git/hooks/999999',
          headers: { 'x-hub-signature-256': genuine.signature },
          payload: genuine.body,
        })
      ).statusCode,
    ).toBe(404);
    expect((await runs(api)).length).toBe(runsBefore);

    const ping = await service.request({
      method: 'POST',
      url: `/api/git/hooks/${connectionId}`,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signed(secret, { zen: 'hi' }).signature,
        'x-github-event': 'ping',
      },
      payload: JSON.stringify({ zen: 'hi' }),
    });
    expect([ping.statusCode, ping.json().msg]).toEqual([200, 'pong']);
    const other = signed(secret, { ref: 'refs/heads/feature' });
    const otherBranch = await service.request({
      method: 'POST',
      url: `/api/git/hooks/${connectionId}`,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': other.signature, 'x-github-event': 'push' },
      payload: other.body,
    });
    expect([otherBranch.statusCode, otherBranch.json().msg]).toEqual([
      200,
      expect.stringMatching(/^ignored: a push to refs\/heads\/feature/),
    ]);

    // Another sync holds the connection when the push arrives: the pull waits for it instead of being lost.
    expect(await takeLease(connectionId)).toBe(true);
    const res = await service.request({
      method: 'POST',
      url: `/api/git/hooks/${connectionId}`,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': genuine.signature,
        'x-github-event': 'push',
      },
      payload: genuine.body,
    });
    expect([res.statusCode, res.json().msg]).toEqual([202, 'pull of main started']);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await runs(api)).length).toBe(runsBefore);
    await releaseLease(connectionId);
    const [latest] = await until(
      () => runs(api),
      (list) => list.length === runsBefore + 1 && list[0].state !== 'RUNNING',
    );
    await until(
      () => prisma().gitConnection.findUniqueOrThrow({ where: { id: connectionId } }),
      (c) => c.leaseUntil === null,
    );
    expect(latest).toMatchObject({ kind: 'PULL', trigger: 'WEBHOOK', state: 'SUCCEEDED', commit: newHead });
    expect((await texts(api.projectToken))['common/checkout/en']).toBe('Check out');
    const change = await prisma().activity.findFirstOrThrow({
      where: { project: { projectToken: api.projectToken }, kind: 'IMPORT' },
      orderBy: { id: 'desc' },
    });
    expect([change.source, change.actorKind]).toEqual(['GIT', 'SYSTEM']);
  });

  it('the next push rebuilds its branch on the new main and updates the open pull request', async () => {
    const main = gitServer.head(repo, 'main');
    const result = (await push(api)).data.pushToGit;
    expect(result).toMatchObject({ baseCommit: main, pushed: true, pullRequest: { number: 1, opened: false } });
    expect(gitServer.log(repo, 'l10n/shop-app')[1]!.split(' ')[0]).toBe(main);
    expect(JSON.parse(gitServer.show(repo, 'l10n/shop-app', 'locales/en/common.json'))).toEqual({
      hello: 'Hello',
      cart: 'Cart',
      checkout: 'Check out',
    });
    expect(github.pulls).toHaveLength(1);
    const update = github.requests.filter((r) => r.method === 'PATCH');
    expect(update).toHaveLength(1);
    expect(update[0]!.url).toBe('/repos/team/app/pulls/1');
    expect(Object.keys(update[0]!.body).sort()).toEqual(['body', 'title']);
    // Nothing new: the branch is left as it is, the pull request updated.
    const again = (await push(api)).data.pushToGit;
    expect(again).toMatchObject({ pushed: false, commit: result.commit, pullRequest: { number: 1, opened: false } });
    expect(gitServer.head(repo, 'l10n/shop-app')).toBe(result.commit);
  });

  it('a developer pushing to main while the service pushes: main keeps their commit, nothing is forced onto it, the next push starts from it', async () => {
    await api.patch('/api/v2/translations', { key: 'cart', namespace: 'common', language: 'de', text: 'Warenkorb' });
    let developerHead: string | undefined;
    gitServer.beforeReceivePack = () => {
      gitServer.beforeReceivePack = undefined;
      // The same file the service changes, changed on main at the same moment.
      developerHead = gitServer.commit(
        repo,
        { 'locales/de/common.json': JSON.stringify({ hello: 'Hallo!' }) },
        'Developer edits German',
      );
    };
    const base = gitServer.head(repo, 'main');
    const result = (await push(api)).data.pushToGit;
    expect(developerHead).toBeDefined();
    expect(result).toMatchObject({ baseCommit: base, pushed: true });
    expect(gitServer.head(repo, 'main')).toBe(developerHead);
    expect(gitServer.log(repo, 'main').every((line) => !line.includes('Localization service'))).toBe(true);
    // Rebuilt from the developer's commit: their change is the base, the export on top, no conflict to resolve by hand.
    const next = (await push(api)).data.pushToGit;
    expect(next).toMatchObject({ baseCommit: developerHead, pushed: true, pullRequest: { number: 1, opened: false } });
    expect(gitServer.log(repo, 'l10n/shop-app')[1]!.split(' ')[0]).toBe(developerHead);
    expect(JSON.parse(gitServer.show(repo, 'l10n/shop-app', 'locales/de/common.json'))).toMatchObject({
      hello: 'Hallo',
      cart: 'Warenkorb',
    });
  });

  it('one sync at a time; pushProjectToGit is the function an automation calls; a schedule pushes', async () => {
    expect(await takeLease(connectionId)).toBe(true);
    const busy = await push(api);
    expect(busy.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    await releaseLease(connectionId);
    const project = await prisma().project.findUniqueOrThrow({ where: { projectToken: api.projectToken } });
    await api.patch('/api/v2/translations', {
      key: 'checkout',
      namespace: 'common',
      language: 'de',
      text: 'Zur Kasse',
    });
    const automated = await pushProjectToGit({ projectId: project.id, trigger: 'AUTOMATION', config: service.config });
    expect(automated).toMatchObject({ pushed: true, run: { trigger: 'AUTOMATION', state: 'SUCCEEDED' } });
    await ok(api, 'mutation { updateGitConnection(input: { pushSchedule: "* * * * * *" }) { pushSchedule } }');
    await api.patch('/api/v2/translations', {
      key: 'checkout',
      namespace: 'common',
      language: 'de',
      text: 'Zur Kasse gehen',
    });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await runDueSchedules(service.config)).toContain(project.id);
    expect((await runs(api))[0]).toMatchObject({ kind: 'PUSH', trigger: 'SCHEDULE', state: 'SUCCEEDED' });
    expect(JSON.parse(gitServer.show(repo, 'l10n/shop-app', 'locales/de/common.json')).checkout).toBe(
      'Zur Kasse gehen',
    );
    await ok(api, 'mutation { updateGitConnection(input: { pushSchedule: "" }) { pushSchedule } }');
  });

  it('an automation rule pushes after an import (PUSH_TO_GIT), as the AUTOMATION trigger', async () => {
    const rule = await ok(
      api,
      'mutation { createAutomationRule(input: { name: "Push after import", trigger: IMPORT_FINISHED, actions: [{ kind: PUSH_TO_GIT }] }) { id } }',
    );
    const runner = new AutomationRunner({
      owner: 'git-test-runner',
      pollMs: 20,
      leaseMs: 30_000,
      config: service.config,
    });
    runner.start();
    try {
      const file = multipart([
        { name: 'file', fileName: 'de.json', content: JSON.stringify({ pay_now: 'Jetzt bezahlen' }) },
      ]);
      const imported = await service.request({
        method: 'POST',
        url: '/api/v2/import?uploadFormat=single-language-json&languageKey=de&namespace=common',
        headers: { 'x-service-token': api.apiKey, ...file.headers },
        payload: file.payload,
      });
      expect(imported.statusCode).toBe(200);
      await expect
        .poll(async () => (await runs(api))[0], { timeout: 60_000, interval: 200 })
        .toMatchObject({ kind: 'PUSH', trigger: 'AUTOMATION', state: 'SUCCEEDED' });
      expect(JSON.parse(gitServer.show(repo, 'l10n/shop-app', 'locales/de/common.json')).pay_now).toBe(
        'Jetzt bezahlen',
      );
    } finally {
      await runner.stop();
      await ok(api, `mutation { deleteAutomationRule(id: ${rule.createAutomationRule.id}) }`);
    }
  });

  it('the token travelled only in the Authorization header: never in a URL, an answer or the sync log', async () => {
    expect(gitServer.requests.length).toBeGreaterThan(5);
    expect(gitServer.requests.every((r) => !r.url.includes(TOKEN) && !r.url.includes('x-access-token'))).toBe(true);
    expect(
      gitServer.requests.filter(
        (r) => r.headers.authorization === `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`,
      ).length,
    ).toBe(gitServer.requests.length);
    const log = await prisma().gitSyncRun.findMany();
    expect(JSON.stringify(log)).not.toContain(TOKEN);
  });
});

describe('failures and refusals', { timeout: 180_000 }, () => {
  it('a wrong token: git refuses, the message names the failure and never the token', async () => {
    const api = await projectApi(service, account, 'Wrong token');
    gitServer.createRepository('team/other.git', { 'i18n/en.json': '{"a":"A"}' });
    const wrong = 'ghp_WrongTokenAlsoSecret0987654321';
    await connect(api, {
      remoteUrl: `${gitServer.url}/team/other.git`,
      token: wrong,
      pathPattern: 'i18n/{lang}.json',
      format: 'SINGLE_LANGUAGE_JSON',
    });
    const res = await pull(api);
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(res.errors?.[0]?.message).toMatch(/git clone failed/);
    expect(JSON.stringify(res)).not.toContain(wrong);
    const [run] = await runs(api);
    expect(run).toMatchObject({ kind: 'PULL', state: 'FAILED' });
    expect(JSON.stringify(run)).not.toContain(wrong);
  });

  it('without GIT_ALLOW_PRIVATE_HOSTS a loopback remote and a loopback forge API are refused before any connection', async () => {
    const api = await projectApi(service, account, 'Strict');
    gitServer.createRepository('team/strict.git', { 'i18n/en.json': '{"a":"A"}' });
    const { connection } = await connect(api, {
      remoteUrl: `${gitServer.url}/team/strict.git`,
      token: TOKEN,
      pathPattern: 'i18n/{lang}.json',
      format: 'SINGLE_LANGUAGE_JSON',
      forgeKind: 'GITHUB',
      forgeApiUrl: github.url,
      forgeRepository: 'team/strict',
    });
    const before = gitServer.requests.length;
    const projectId = (await prisma().project.findUniqueOrThrow({ where: { projectToken: api.projectToken } })).id;
    // The operator's setting as a service without GIT_ALLOW_PRIVATE_HOSTS has it.
    const strict = { ...service.config, git: { ...service.config.git, allowPrivateHosts: false } };
    for (const attempt of [
      () => pullFromGit({ projectId, trigger: 'MANUAL', config: strict }),
      () => pushProjectToGit({ projectId, trigger: 'MANUAL', config: strict }),
    ]) {
      const error = await attempt().then(
        () => undefined,
        (e: any) => e,
      );
      expect(error?.extensions?.code).toBe('BAD_REQUEST');
      expect(error?.message).toMatch(/127\.0\.0\.1 resolves to 127\.0\.0\.1.*GIT_ALLOW_PRIVATE_HOSTS/);
    }
    expect(gitServer.requests.length).toBe(before);
    expect((await runs(api)).map((r) => r.state)).toEqual(['FAILED', 'FAILED']);
    // The forge API alone (the remote allowed): refused the same way before any request.
    const error = await openOrUpdateChangeRequest(
      {
        kind: 'GITHUB',
        apiUrl: github.url,
        repository: 'team/strict',
        token: TOKEN,
        allowPrivate: false,
        timeoutMs: 5000,
      },
      { head: 'l10n/x', base: 'main', title: 't', body: 'b' },
    ).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/GIT_ALLOW_PRIVATE_HOSTS/);
    expect(github.requests.filter((r) => r.url.includes('strict'))).toEqual([]);
    void connection;
  });

  it('a translator cannot manage or run the sync (GIT_SYNC)', async () => {
    const owner = await service.account();
    const project = await owner.project('Roles');
    const translator = await service.account();
    const projectId = (await prisma().project.findUniqueOrThrow({ where: { projectToken: project.projectToken } })).id;
    await prisma().projectMember.create({
      data: { projectId, accountId: translator.id, role: 'TRANSLATOR', languageIds: [], canReview: true },
    });
    for (const query of [
      `mutation { pushToGit(projectToken: "${project.projectToken}") { branch } }`,
      `mutation { pullFromGit(projectToken: "${project.projectToken}") { commit } }`,
      `{ gitConnection(projectToken: "${project.projectToken}") { id } }`,
    ]) {
      const res = await service.request({
        method: 'POST',
        url: '/graphql',
        headers: { authorization: translator.token, 'content-type': 'application/json' },
        payload: { query },
      });
      expect(res.json().errors?.[0]).toMatchObject({
        extensions: { code: 'FORBIDDEN' },
        message: 'The TRANSLATOR role does not allow GIT_SYNC in this project',
      });
    }
  });
});

describe('GitLab: merge request and push webhook token', { timeout: 180_000 }, () => {
  it('opens then updates a merge request through the merge-request API; the X-Gitlab-Token webhook pulls', async () => {
    const GL_TOKEN = 'glpat-SecretGitLabToken123456';
    const glServer = await startGitServer({ user: 'oauth2', token: GL_TOKEN });
    const gitlab = await startGitLabApi({
      project: 'group/web',
      token: GL_TOKEN,
      branchExists: (b) => glServer.head('group/web.git', b) !== undefined,
    });
    try {
      const api = await projectApi(service, account, 'Web');
      glServer.createRepository('group/web.git', { 'i18n/en.json': JSON.stringify({ title: 'Title' }) });
      const { connection, webhookSecret } = await connect(api, {
        remoteUrl: `${glServer.url}/group/web.git`,
        token: GL_TOKEN,
        pathPattern: 'i18n/{lang}.json',
        format: 'SINGLE_LANGUAGE_JSON',
        forgeKind: 'GITLAB',
        forgeApiUrl: `${gitlab.url}/api/v4`,
        pushBranch: 'l10n/web',
      });
      expect(connection).toMatchObject({ forgeKind: 'GITLAB', forgeRepository: 'group/web', pushBranch: 'l10n/web' });
      expect((await pull(api)).data.pullFromGit.files[0].result.keysCreated).toBe(1);
      // The export writes English as the service formats JSON: a first merge request, merged by the team.
      const first = (await push(api)).data.pushToGit;
      expect(first).toMatchObject({ pushed: true, pullRequest: { number: 1, opened: true } });
      glServer.merge('group/web.git', 'l10n/web');
      gitlab.pulls[0]!.state = 'merged';
      // main now holds the export: nothing to propose.
      expect((await push(api)).data.pushToGit).toMatchObject({
        pushed: false,
        commit: null,
        pullRequest: null,
        run: { state: 'SKIPPED' },
      });
      expect((await api.post('/api/v1/languages', { key: 'fr', name: 'French' })).status).toBe(200);
      await api.patch('/api/v2/translations', { key: 'title', language: 'fr', text: 'Titre' });
      const opened = (await push(api)).data.pushToGit;
      expect(opened).toMatchObject({
        pushed: true,
        pullRequest: { number: 2, opened: true, url: 'https://gitlab.example/group/web/-/merge_requests/2' },
      });
      expect(JSON.parse(glServer.show('group/web.git', 'l10n/web', 'i18n/fr.json'))).toEqual({ title: 'Titre' });
      await api.patch('/api/v2/translations', { key: 'title', language: 'fr', text: 'Le titre' });
      const updated = (await push(api)).data.pushToGit;
      expect(updated).toMatchObject({ pushed: true, pullRequest: { number: 2, opened: false } });
      expect(gitlab.refused).toEqual([]);
      expect(gitlab.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
        'GET /api/v4/projects/group%2Fweb/merge_requests',
        'POST /api/v4/projects/group%2Fweb/merge_requests',
        'GET /api/v4/projects/group%2Fweb/merge_requests',
        'POST /api/v4/projects/group%2Fweb/merge_requests',
        'GET /api/v4/projects/group%2Fweb/merge_requests',
        'PUT /api/v4/projects/group%2Fweb/merge_requests/2',
      ]);
      expect(gitlab.requests[1]!.body).toMatchObject({
        source_branch: 'l10n/web',
        target_branch: 'main',
        remove_source_branch: true,
      });

      glServer.commit(
        'group/web.git',
        { 'i18n/en.json': JSON.stringify({ title: 'Title', subtitle: 'Subtitle' }) },
        'Add subtitle',
      );
      const body = JSON.stringify({ object_kind: 'push', ref: 'refs/heads/main' });
      const refused = await service.request({
        method: 'POST',
        url: `/api/git/hooks/${connection.id}`,
        headers: {
          'content-type': 'application/json',
          'x-gitlab-token': `${webhookSecret}x`,
          'x-gitlab-event': 'Push Hook',
        },
        payload: body,
      });
      expect(refused.statusCode).toBe(403);
      const accepted = await service.request({
        method: 'POST',
        url: `/api/git/hooks/${connection.id}`,
        headers: { 'content-type': 'application/json', 'x-gitlab-token': webhookSecret, 'x-gitlab-event': 'Push Hook' },
        payload: body,
      });
      expect(accepted.statusCode).toBe(202);
      await until(
        () => texts(api.projectToken),
        (t) => t['/subtitle/en'] === 'Subtitle',
      );
    } finally {
      await gitlab.close();
      await glServer.close();
    }
  });
});

describe('SSH deploy key', { timeout: 180_000 }, () => {
  it('generates an Ed25519 key: the public half shown, the private half sealed and readable by OpenSSH', async () => {
    const api = await projectApi(service, account, 'Ssh');
    const { connection } = await connect(api, {
      remoteUrl: 'git@git.example.com:team/app.git',
      pathPattern: 'locales/{lang}.json',
      format: 'SINGLE_LANGUAGE_JSON',
    });
    expect(connection).toMatchObject({ authKind: 'SSH', hasToken: false, forgeKind: 'NONE' });
    expect(connection.deployPublicKey).toMatch(
      /^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5[A-Za-z0-9+/=]+ localization-service-\d+$/,
    );
    const row = await prisma().gitConnection.findUniqueOrThrow({ where: { id: connection.id } });
    expect(row.deployKeySealed).not.toContain('PRIVATE KEY');
    const dir = mkdtempSync(join(tmpdir(), 'deploy-key-'));
    try {
      writeFileSync(join(dir, 'key'), authOf(row).privateKey!, { mode: 0o600 });
      const derived = execFileSync('ssh-keygen', ['-y', '-f', join(dir, 'key')], { encoding: 'utf8' }).trim();
      expect(derived.split(' ').slice(0, 2)).toEqual(connection.deployPublicKey.split(' ').slice(0, 2));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const regenerated = await ok(
      api,
      'mutation { updateGitConnection(input: { regenerateDeployKey: true }) { deployPublicKey } }',
    );
    expect(regenerated.updateGitConnection.deployPublicKey).not.toBe(connection.deployPublicKey);
    const mismatch = await gql(
      api,
      'mutation { updateGitConnection(input: { authKind: TOKEN, token: "abcd1234" }) { id } }',
    );
    expect(mismatch.errors?.[0]?.message).toMatch(/ssh remote needs authKind SSH/);
  });

  it.skipIf(!sshdPresent)(
    'pulls and pushes over SSH with the deploy key against a real sshd; the host key learned first is held to',
    async () => {
      const ssh = await startSshServer();
      try {
        const name = 'team/ssh.git';
        gitServer.createRepository(name, { 'locales/en.json': JSON.stringify({ hello: 'Hello over SSH' }) });
        const api = await projectApi(service, account, 'Ssh live');
        expect((await api.post('/api/v1/languages', { key: 'de', name: 'German' })).status).toBe(200);
        const { connection } = await connect(api, {
          remoteUrl: `ssh://${ssh.user}@127.0.0.1:${ssh.port}${join(gitServer.root, name)}`,
          pathPattern: 'locales/{lang}.json',
          format: 'SINGLE_LANGUAGE_JSON',
        });
        expect(connection.authKind).toBe('SSH');
        // Before the team adds the deploy key to the repository, the server refuses it.
        const refused = await pull(api);
        expect(refused.errors?.[0]?.message).toMatch(/Permission denied|publickey/i);
        ssh.authorize(connection.deployPublicKey);
        const pulled = await pull(api);
        expect(pulled.errors).toBeUndefined();
        expect((await texts(api.projectToken))['/hello/en']).toBe('Hello over SSH');
        await api.patch('/api/v2/translations', { key: 'hello', language: 'de', text: 'Hallo über SSH' });
        const pushed = await push(api);
        expect(pushed.errors).toBeUndefined();
        expect(pushed.data.pushToGit.pushed).toBe(true);
        expect(JSON.parse(gitServer.show(name, connection.pushBranch, 'locales/de.json')).hello).toBe('Hallo über SSH');
        // The host key was learned on the first connection and is what the server shows.
        const row = await prisma().gitConnection.findUniqueOrThrow({ where: { id: connection.id } });
        expect(row.sshKnownHosts).toContain(ssh.hostKey.split(' ').slice(1).join(' '));
      } finally {
        await ssh.close();
      }
    },
  );
});
