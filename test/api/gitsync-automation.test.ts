// The whole loop of docs/git-sync.md's walkthrough, with the service's own
// workers running: a developer pushes a new English key to the repository
// (a real `git http-backend` on loopback), GitHub's signed push webhook pulls
// it, a rule auto-translates new English keys, a second rule pushes when the
// translation job finished, and the team gets a pull request whose files hold
// the translation (a loopback GitHub API checking the requests' shape). Then
// that push done twice, as a run taken over after its runner died between
// pushing and saving its log does it: harmless, with no idempotency key.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pseudoLocalize } from '../../src/mt/index.js';
import { startTestService, type TestService } from '../support/service.js';
import { projectApi, type ProjectApi } from '../support/project-api.js';
import { startGitHubApi, startGitServer, type ForgeServer, type GitServer } from '../support/git-server.js';
import { projectIdOf } from '../support/content.js';
import { ACTIONS, actionKey, type AfterContext } from '../../src/automations/actions.js';

const TOKEN = 'ghp_LoopTokenThatMustNeverLeak1234567890';
const REPO = 'team/loop.git';

let service: TestService;
let gitServer: GitServer;
let github: ForgeServer;
let api: ProjectApi;

async function ok(query: string, variables: Record<string, unknown> = {}) {
  const res = await api.gql(query, variables);
  expect(res.errors).toBeUndefined();
  return res.data;
}

async function until<T>(what: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  service = await startTestService({
    env: { GIT_ALLOW_PRIVATE_HOSTS: 'true', GIT_TIMEOUT_MS: '30000', JOB_POLL_MS: '100' },
  });
  gitServer = await startGitServer({ user: 'x-access-token', token: TOKEN });
  github = await startGitHubApi({
    repository: 'team/loop',
    token: TOKEN,
    branchExists: (b) => gitServer.head(REPO, b) !== undefined,
  });
  api = await projectApi(service, await service.account(), 'Loop App');
  expect((await api.post('/api/v1/languages', { key: 'de', name: 'German' })).status).toBe(200);
  gitServer.createRepository(REPO, { 'locales/en/common.json': JSON.stringify({ hello: 'Hello' }) });
}, 60_000);

afterAll(async () => {
  await github?.close();
  await gitServer?.close();
  await service?.close();
});

describe('repository → service → rules → pull request', { timeout: 180_000 }, () => {
  it('a new English key pushed to the repository comes back translated in a pull request', async () => {
    const { connectGitRepository: connected } = await ok(
      `mutation($input: GitConnectionInput!) { connectGitRepository(input: $input) { webhookSecret connection { id } } }`,
      {
        input: {
          remoteUrl: `${gitServer.url}/${REPO}`,
          authKind: 'TOKEN',
          token: TOKEN,
          branch: 'main',
          pathPattern: 'locales/{lang}/{ns}.json',
          format: 'SINGLE_LANGUAGE_JSON',
          forgeKind: 'GITHUB',
          forgeApiUrl: github.url,
        },
      },
    );
    await ok(
      'mutation { setAutoTranslationSettings(languageKey: "de", settings: { translationProvider: PSEUDO, targetLanguage: "de", sourceProjectLanguage: "en" }) { languageKey } }',
    );
    await ok(
      'mutation { createAutomationRule(input: { name: "Translate new English keys", trigger: KEY_CREATED, languages: ["en"], actions: [{ kind: AUTO_TRANSLATE }] }) { id } }',
    );
    await ok(
      'mutation { createAutomationRule(input: { name: "Push when translated", trigger: AUTO_TRANSLATION_FINISHED, actions: [{ kind: PUSH_TO_GIT }] }) { id } }',
    );

    // The developer's push, and GitHub's signed webhook for it.
    const head = gitServer.commit(
      REPO,
      { 'locales/en/common.json': JSON.stringify({ hello: 'Hello', checkout: 'Check out' }) },
      'Add checkout',
    );
    const body = JSON.stringify({ ref: 'refs/heads/main', after: head, repository: { full_name: 'team/loop' } });
    const signature = `sha256=${createHmac('sha256', connected.webhookSecret).update(body).digest('hex')}`;
    const hook = await service.request({
      method: 'POST',
      url: `/api/git/hooks/${connected.connection.id}`,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature, 'x-github-event': 'push' },
      payload: body,
    });
    expect(hook.statusCode).toBeLessThan(300);

    // Pulled (an import from GIT), translated by the first rule's job, pushed by the second rule: a pull request.
    const [pr] = await until(
      async () => github.pulls,
      (pulls) => pulls.length > 0,
    ).catch(async (error) => {
      const state = await api.gql(
        '{ automationRuns { trigger state error actions { kind ok summary } } gitSyncRuns { kind trigger state message } jobs { state message } }',
      );
      throw new Error(`${(error as Error).message}; ${JSON.stringify(state)}`);
    });
    expect(pr).toMatchObject({ base: 'main', head: expect.stringMatching(/^l10n\//), state: 'open' });
    const german = JSON.parse(gitServer.show(REPO, pr!.head, 'locales/de/common.json'));
    expect(german.checkout).toBe(pseudoLocalize('Check out'));
    expect(gitServer.head(REPO, 'main')).toBe(head);
    expect(github.refused).toEqual([]);

    const { gitSyncRuns } = await ok('{ gitSyncRuns { kind trigger state } }');
    expect(
      gitSyncRuns.map((r: { kind: string; trigger: string; state: string }) => `${r.kind} ${r.trigger} ${r.state}`),
    ).toEqual(expect.arrayContaining(['PULL WEBHOOK SUCCEEDED', 'PUSH AUTOMATION SUCCEEDED']));
    const { automationRules } = await ok('{ automationRules { name } }');
    expect(automationRules).toHaveLength(2);
  });

  it('PUSH_TO_GIT done again (a run taken over before its log was saved) pushes nothing new and reuses the pull request', async () => {
    // A translator's edit since: the push has something to propose.
    await ok(
      'mutation { updateTranslation(input: { key: "checkout", namespace: "common", language: "de", text: "Zur Kasse" }) { text } }',
    );
    const projectId = await projectIdOf(service.db, api.projectToken);
    const run = await service.db.prisma.automationRun.findFirstOrThrow({
      where: { projectId, rule: { name: 'Push when translated' } },
    });
    const context: AfterContext = {
      projectId,
      ruleId: run.ruleId,
      runId: run.id,
      activityId: null,
      matched: { keyIds: null, cells: [] },
      config: service.config,
      idempotencyKey: actionKey(run.id, 0),
    };
    const [pr] = github.pulls;
    const first = await ACTIONS.PUSH_TO_GIT.after!(context, { kind: 'PUSH_TO_GIT', languages: [] });
    expect(first).toMatchObject({
      ok: true,
      summary: expect.stringMatching(/^Pushed \d+ files to l10n\/.*; pull request /),
    });
    const branch = pr!.head;
    const pushed = gitServer.head(REPO, branch);
    expect(JSON.parse(gitServer.show(REPO, branch, 'locales/de/common.json')).checkout).toBe('Zur Kasse');

    const again = await ACTIONS.PUSH_TO_GIT.after!(context, { kind: 'PUSH_TO_GIT', languages: [] });
    expect(again.summary).toBe(`Nothing new to push; pull request ${first.summary.split('; pull request ')[1]}`);
    // The branch as the first push left it, the one pull request updated, not a second one opened.
    expect(gitServer.head(REPO, branch)).toBe(pushed);
    expect(github.pulls).toHaveLength(1);
    expect(github.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/pulls'))).toHaveLength(1);
    expect(github.refused).toEqual([]);
  });
});
