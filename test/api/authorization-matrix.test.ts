// The authorization matrix: every operation of the service × every kind of
// credential that must not reach the victim's project, each answered as the
// contract says today, with no data of the victim in the answer and no change
// in the database.
//
// Operations are enumerated, not listed: every REST route from the route
// declarations (rest-compat ALL_ROUTES) and every GraphQL query field,
// mutation and subscription from the schema. Each needs sample arguments in
// REST_SAMPLES / GRAPHQL_SAMPLES below; an operation added without them fails
// the first test, so nothing new goes unchecked.
//
// Credentials are rows (CREDENTIALS): a name, the headers it sends, and the
// outcome expected for each operation. The last row, the owner, must be
// allowed everywhere: it proves the sample arguments are right, so that a
// refusal above it is the credential's and not a bad sample's. The team
// roles (viewer, a translator of German without review, admin) are rows whose
// outcome is derived from the permission table (src/teams/permissions.ts):
// allowed where the role grants the operation's permission, 403 and no
// change where it does not.
//
// One world serves every row: an allowed run that changes what the next row
// needs (deletes, creates, membership changes) puts it back (`restore`).
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import {
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLOutputType,
} from 'graphql';
import { ALL_ROUTES } from '../../rest-compat/index.js';
import type { RestRoute } from '../../rest-compat/route.js';
import { schema } from '../../src/schema/index.js';
import { createPersonalToken } from '../../src/accounts/accounts.js';
import { sha256 } from '../../src/auth/secrets.js';
import { forgetCredentials } from '../../src/auth/credential-cache.js';
import {
  IN_CONTEXT_PERMISSIONS,
  OPERATION_PERMISSIONS,
  allows,
  type Permission,
  type ProjectOperation,
} from '../../src/teams/permissions.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { multipart, queryString } from '../support/transfer.js';
import { bombPng } from '../support/screenshots.js';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm.js';
import { startGitServer, type GitServer } from '../support/git-server.js';
import { connectRepository } from '../../src/gitsync/connections.js';

type Outcome =
  /** 200, the operation did its work (REST envelope msg OK; GraphQL without errors). */
  | 'allowed'
  /** 403 / FORBIDDEN, no data. */
  | 'forbidden'
  /** 404 / NOT_FOUND, no data. */
  | 'not-found'
  /**
   * The credential acts on its own project or account, as it may (another
   * project's key on a route that names no project): any answer but a 5xx,
   * none of the victim's data in it, the victim's project and account unchanged.
   */
  | 'own';

interface Operation {
  id: string;
  kind: 'rest' | 'query' | 'mutation' | 'subscription';
  /** The auth scheme of a REST route. */
  auth?: RestRoute['auth'];
  /** GraphQL: the field takes projectToken (the victim's is passed). */
  projectScoped: boolean;
  /** Reachable without any credential (static data). */
  isPublic: boolean;
  /** GraphQL fields without projectToken: whom they serve (see GraphQLSample.caller). */
  caller?: GraphQLSample['caller'];
  /** REST: a path parameter or argument names something only the victim's project has. */
  namesVictimResource: boolean;
  /** The GraphQL root field the operation executes (a REST route: the one of its document). */
  field?: string;
  /** REST: the path names the project (/api/v2/projects/:projectToken/…). */
  namesProject?: boolean;
  /** Languages the operation writes (see Sample.languages). */
  languages?: string[];
  /** The owner acts through a web console session (signOut). */
  session?: boolean;
  /** The permission the sample needs (GraphQLSample.needs), else the field's. */
  needs?: Permission;
  /** A project field only a person may call (see GraphQLSample.accountOnly). */
  accountOnly?: boolean;
  /** Puts back what an allowed run changed (Sample.restore). */
  restore(): Promise<void>;
  /** What the run needs, set up before the row is fingerprinted (GraphQLSample.prepare). */
  prepare?(): Promise<boolean>;
  run(headers: Record<string, string>): Promise<Answer>;
}

interface Answer {
  status: number;
  /** GraphQL error code (extensions.code) when there is an error. */
  code?: string;
  /** The answer's data: REST envelope data / root fields, GraphQL data (null fields removed). */
  data: unknown;
  body: string;
}

interface World {
  victim: TestAccount;
  project: { projectToken: string; apiKey: string; id: number };
  jobId: string;
  attacker: TestAccount;
  attackerProject: { projectToken: string; apiKey: string };
  revokedToken: string;
  deletedProjectKey: string;
  /** Strings only the victim's data holds. */
  secrets: string[];
  /** Members of the victim's project: one row each (a translator limited to German, without review). */
  members: Record<MemberRole, TestAccount>;
  /** A second owner, so that the owner may leave; `target` is changed (role, ownership), `doomed` removed. */
  coOwner: TestAccount;
  target: TestAccount;
  doomed: TestAccount;
  /** The victim's web console session (cookie and CSRF headers). */
  session: Record<string, string>;
  webhookId: number;
  /** A webhook deleteWebhook removes (restored with a new id). */
  doomedWebhookId: number;
  /** A pending invitation cancelInvitation cancels (restored with a new id). */
  invitationId: number;
  /** A change of the victim's French text, and its cell change; a cell change of its German text. */
  activityId: string;
  cellChangeId: string;
  germanCellChangeId: string;
  /** A role link to the attacker's project: the link is the credential of acceptInvitation. */
  roleLinkToken: string;
  /** The id of German, the translator's language. */
  germanId: number;
  /** An in-context token of the victim's project for German, without capture; one revokeInContextToken revokes (again: it stays revoked). */
  inContextToken: string;
  doomedInContextTokenId: number;
  /** Another project of the victim with the same members (deleted by DELETE /api/v2/projects/:projectToken, then made again). */
  doomedProject: string;
  /** A personal token and a console session of the victim that revoking / signing out ends (restored with new ids). */
  doomedTokenId: number;
  doomedSessionId: number;
  /** A shared memory of the victim the victim's project shares into and reads; one deleteSharedMemory removes (restored with a new id). */
  memoryId: number;
  doomedMemoryId: number;
  /** A screenshot of the victim's project (its name holds the secret) with a key marked on it; one deleteScreenshot removes, one link unlinking removes (restored with new ids). */
  screenshotId: number;
  linkId: number;
  doomedScreenshotId: number;
  doomedLinkId: number;
  /** A term of the victim project's glossary; one deleteGlossaryTerm removes (restored with a new id); a shared glossary of the victim linked to the project, and one deleteSharedGlossary removes. */
  glossaryTermId: number;
  doomedTermId: number;
  /** A disabled automation rule of the victim (its name holds the secret), one deleteAutomationRule removes (restored with a new id), and a run that wrote the French change. */
  automationRuleId: number;
  doomedAutomationRuleId: number;
  automationRunId: string;
  glossaryId: number;
  doomedGlossaryId: number;
}

interface Credential {
  name: string;
  headers(op: Operation, w: World): Record<string, string>;
  expect(op: Operation): Outcome;
  /** What of the victim's must not be in its answers (default: world.secrets). */
  secrets?(w: World): string[];
}

const SECRET = `victim-secret-${randomBytes(6).toString('hex')}`;

// --- Sample arguments, per operation --------------------------------------------
//
// REST: the path parameters, query and body of a request that the owner may
// make. `victimResource`: the request names something of the victim's project
// (a customer key, a language), so another project's key gets 404.

interface RestSample {
  params?: Record<string, string>;
  query?: Record<string, string | string[]>;
  body?: unknown;
  /** A multipart upload (the file field). */
  file?: { name: string; content: string | Buffer };
  victimResource?: boolean;
  /** Run after every other operation (it removes what others use). */
  last?: boolean;
  /** Run at the very end (deleting the project). */
  final?: boolean;
  /**
   * Puts back what an allowed run changed, so that the next row (a team role,
   * then the owner) and the next operations find the same world.
   */
  restore?: (w: World) => Promise<void>;
  /** Languages a TRANSLATE or REVIEW operation writes (a translator may write only its own). */
  languages?: string[];
}

const json = (value: unknown) => JSON.stringify(value);

const REST_SAMPLES: Record<string, (w: World) => RestSample> = {
  'GET /api/v2/projects': () => ({}),
  'POST /api/v2/projects': () => ({ body: { name: 'matrix v2' } }),
  'GET /api/v1/projects': () => ({}),
  'POST /api/v1/projects': () => ({ body: { name: 'matrix v1' } }),
  'GET /api/v2/project': () => ({}),
  'PATCH /api/v2/projects/:projectToken': (w) => ({
    params: { projectToken: w.project.projectToken },
    body: { name: 'Victim project' },
  }),
  // Another project of the victim, with the same members: deleting it leaves the world as it was.
  'DELETE /api/v2/projects/:projectToken': (w) => ({
    params: { projectToken: w.doomedProject },
    restore: createDoomedProject,
  }),
  'POST /api/v2/projects/:projectToken/api-key/rotate': (w) => ({
    params: { projectToken: w.project.projectToken },
    restore: restoreApiKey,
  }),
  'POST /api/v1/jobs/auto-translate': () => ({
    body: {
      translationProvider: 'PSEUDO',
      sourceProjectLanguage: 'en',
      targetProjectLanguage: 'de',
      targetLanguage: 'de',
    },
    victimResource: true,
  }),
  'POST /api/v2/jobs/auto-translate': () => ({
    body: {
      translationProvider: 'PSEUDO',
      sourceProjectLanguage: 'en',
      targets: [{ targetProjectLanguage: 'de', targetLanguage: 'de' }],
    },
    victimResource: true,
  }),
  'GET /api/v1/jobs': () => ({}),
  'GET /api/v2/jobs': () => ({}),
  'GET /api/v1/jobs/:jobId': (w) => ({ params: { jobId: w.jobId }, victimResource: true }),
  'GET /api/v2/environments': () => ({}),
  'POST /api/v2/environments': () => ({ body: { key: 'rest-env', name: 'REST env' } }),
  'GET /api/v2/environments/:environmentKey': () => ({
    params: { environmentKey: 'victim-env' },
    victimResource: true,
  }),
  'POST /api/v2/environments/:environmentKey/publish': () => ({ params: { environmentKey: '_latest' }, body: {} }),
  'POST /api/v2/import': () => ({
    query: { uploadFormat: 'single-language-json', languageKey: 'en' },
    file: { name: 'en.json', content: json({ 'rest.import': 'Imported' }) },
  }),
  'GET /api/v4/export': () => ({ query: { downloadFormat: 'multi-language-json' } }),
  'GET /api/v3/export': () => ({ query: { downloadFormat: 'multi-language-json' } }),
  'POST /api/v1/languages': () => ({ body: { key: 'pt', name: 'Portuguese' } }),
  'GET /api/v1/languages': () => ({}),
  'PATCH /api/v1/languages/:languageKey': () => ({
    params: { languageKey: 'fr' },
    body: { name: 'Français' },
    victimResource: true,
  }),
  'DELETE /api/v1/languages/:languageKey': () => ({ params: { languageKey: 'it' }, victimResource: true }),
  'POST /api/v1/customers': () => ({ body: { key: 'rest-customer', description: 'REST' } }),
  'GET /api/v1/customers': () => ({}),
  'GET /api/v1/customers/:customerKey': () => ({ params: { customerKey: 'victim-customer' }, victimResource: true }),
  'PATCH /api/v1/customers/:customerKey': () => ({
    params: { customerKey: 'victim-customer' },
    body: { description: 'Changed' },
    victimResource: true,
  }),
  'DELETE /api/v1/customers/:customerKey': () => ({ params: { customerKey: 'doomed-customer' }, victimResource: true }),
  'GET /api/v1/translation-keys': () => ({}),
  'POST /api/v1/translation-keys': () => ({ body: { key: 'rest.created' } }),
  'PATCH /api/v1/translation-keys': () => ({
    query: { key: 'victim.key' },
    body: { description: 'Changed' },
    victimResource: true,
  }),
  'DELETE /api/v1/translation-keys': () => ({ query: { key: 'doomed.one' }, victimResource: true }),
  'DELETE /api/v1/translation-keys/bulk': () => ({ body: { translationKeys: [{ key: 'doomed.two' }] } }),
  'GET /api/v2/translations': () => ({}),
  'PATCH /api/v2/translations': () => ({
    body: { key: 'victim.key', language: 'de', text: 'Geändert' },
    victimResource: true,
  }),
  'POST /api/v1/translations': () => ({ body: { content: [{ key: 'rest.added', language: 'en', text: 'Added' }] } }),
  'PATCH /api/v1/translations': () => ({ body: { content: [{ key: 'victim.key', language: 'en', text: 'Updated' }] } }),
  'DELETE /api/v1/translations/purge': () => ({ last: true }),
  'POST /cli/v2/upload': () => ({
    query: { uploadFormat: 'single-language-json', languageKey: 'en' },
    file: { name: 'en.json', content: json({ 'cli.upload': 'Uploaded' }) },
  }),
  'POST /cli/v2/upload-preview': () => ({
    query: { uploadFormat: 'single-language-json', languageKey: 'en' },
    file: { name: 'en.json', content: json({ 'cli.preview': 'Previewed' }) },
  }),
  'GET /cli/v2/download': () => ({ query: { downloadFormat: 'multi-language-json' } }),
  'POST /cli/v1/stacktrace': () => ({ body: { message: 'matrix' } }),
  'GET /api/v2/projects/:projectToken/members': (w) => ({ params: { projectToken: w.project.projectToken } }),
  'POST /api/v2/projects/:projectToken/invitations': (w) => ({
    params: { projectToken: w.project.projectToken },
    body: { email: 'rest-invitee@example.com', role: 'viewer' },
    restore: dropInvitations('rest-invitee@example.com'),
  }),
  'PATCH /api/v2/projects/:projectToken/members/:email': (w) => ({
    params: { projectToken: w.project.projectToken, email: w.target.email },
    body: { role: 'viewer' },
    restore: restoreMembers,
  }),
  'DELETE /api/v2/projects/:projectToken/members/:email': (w) => ({
    params: { projectToken: w.project.projectToken, email: w.doomed.email },
    restore: restoreMembers,
  }),
  'GET /api/v2/activity': () => ({}),
  'GET /api/v2/activity/:activityId/cells': (w) => ({ params: { activityId: w.activityId }, victimResource: true }),
  'POST /api/v2/activity/:activityId/revert': (w) => ({
    params: { activityId: w.activityId },
    victimResource: true,
    restore: rewriteFrench,
  }),
  'GET /api/v2/translations/history': () => ({ query: { key: 'victim.key', language: 'de' }, victimResource: true }),
  'POST /api/v2/translations/history/:cellChangeId/revert': (w) => ({
    params: { cellChangeId: w.cellChangeId },
    victimResource: true,
    languages: ['fr'],
    restore: rewriteFrench,
  }),
  'GET /api/v2/webhooks': () => ({}),
  'POST /api/v2/webhooks': () => ({ body: { url: 'https://hooks.example.com/rest', triggers: ['change'] } }),
  'GET /api/v2/webhooks/:webhookId': (w) => ({ params: { webhookId: String(w.webhookId) }, victimResource: true }),
  'PATCH /api/v2/webhooks/:webhookId': (w) => ({
    params: { webhookId: String(w.webhookId) },
    body: { enabled: true },
    victimResource: true,
  }),
  'DELETE /api/v2/webhooks/:webhookId': (w) => ({
    params: { webhookId: String(w.doomedWebhookId) },
    victimResource: true,
    restore: recreateDoomedWebhook,
  }),
  'POST /api/v2/webhooks/:webhookId/test': (w) => ({
    params: { webhookId: String(w.webhookId) },
    victimResource: true,
  }),
  'GET /api/v2/webhooks/:webhookId/deliveries': (w) => ({
    params: { webhookId: String(w.webhookId) },
    victimResource: true,
  }),
  'GET /api/v2/translation-memory/suggestions': () => ({
    query: { targetLanguage: 'de', key: 'victim.key' },
    victimResource: true,
  }),
  // Screenshots (rest-compat/routes/screenshots.ts, an extension of the contract)
  'POST /api/v2/screenshots': () => ({ file: { name: 'rest.png', content: PNG } }),
  'GET /api/v2/screenshots': () => ({}),
  'GET /api/v2/screenshots/:screenshotId': (w) => ({
    params: { screenshotId: String(w.screenshotId) },
    victimResource: true,
  }),
  'DELETE /api/v2/screenshots/:screenshotId': (w) => ({
    params: { screenshotId: String(w.doomedScreenshotId) },
    victimResource: true,
    restore: createDoomedScreenshot,
  }),
  'POST /api/v2/screenshots/:screenshotId/links': (w) => ({
    params: { screenshotId: String(w.screenshotId) },
    body: { key: 'victim.key', ...RECTANGLE },
    victimResource: true,
  }),
  'PATCH /api/v2/screenshots/:screenshotId/links/:linkId': (w) => ({
    params: { screenshotId: String(w.screenshotId), linkId: String(w.linkId) },
    body: { x: 2, y: 2, width: 8, height: 8 },
    victimResource: true,
  }),
  'DELETE /api/v2/screenshots/:screenshotId/links/:linkId': (w) => ({
    params: { screenshotId: String(w.screenshotId), linkId: String(w.doomedLinkId) },
    victimResource: true,
    restore: createDoomedLink,
  }),
  'GET /api/v2/glossary/terms': () => ({}),
  'GET /api/v2/quality-checks': () => ({}),
  'GET /api/v2/glossary/matches': () => ({ query: { text: 'the victim term', targetLanguage: 'de' } }),
  'POST /api/v2/glossary/import': () => ({ file: { name: 'glossary.csv', content: 'term,de\nmatrix,Matrix\n' } }),
  'GET /api/v2/glossary/export': () => ({ query: { format: 'CSV' } }),
};

// GraphQL: the arguments besides projectToken (added for every field that
// takes one). A File argument is sent as a multipart upload.
interface GraphQLSample {
  args?: Record<string, unknown>;
  victimResource?: boolean;
  last?: boolean;
  final?: boolean;
  restore?: (w: World) => Promise<void>;
  /** Sets up what the run needs before every row (true when it changed something). */
  prepare?: (w: World) => Promise<boolean>;
  languages?: string[];
  /** The owner's run uses the web console session (signOut needs one). */
  session?: boolean;
  /** The permission the sample's input needs when it is not the field's own (INPUT_DEPENDENT in src/teams/permissions.ts). */
  needs?: Permission;
  /** A project field that needs a person's credential: an API key is refused before the project is looked up (403, not 404). */
  accountOnly?: boolean;
  /** Static data every caller may read. */
  isPublic?: boolean;
  /**
   * Who a field without projectToken is for (required for such fields): an
   * account (acts on its own), a project key (acts within its project), or
   * either (each gets its own).
   */
  caller?: 'account' | 'project-key' | 'any';
}
/** A real, small PNG (32 × 32 grey) for the screenshot uploads. */
const PNG = bombPng(32);
const SCREENSHOT_UPLOAD = { upload: true, name: 'matrix.png', content: PNG };
const RECTANGLE = { x: 1, y: 1, width: 8, height: 8 };
const TMX =
  '<tmx version="1.4"><header srclang="en" segtype="sentence" datatype="plaintext" o-tmf="x" adminlang="en" creationtool="x" creationtoolversion="1"/><body><tu><tuv xml:lang="en"><seg>Matrix</seg></tuv><tuv xml:lang="de"><seg>Matrix de</seg></tuv></tu></body></tmx>';
const UPLOAD: { upload: true; name: string; content: string | Buffer } = {
  upload: true,
  name: 'en.json',
  content: json({ 'gql.import': 'Imported' }),
};

const GRAPHQL_SAMPLES: Record<string, (w: World) => GraphQLSample> = {
  'Query.customer': () => ({ args: { key: 'victim-customer' } }),
  'Query.customers': () => ({}),
  'Query.environment': () => ({ args: { key: 'victim-env' } }),
  'Query.environmentStatus': () => ({ args: { key: 'victim-env' } }),
  'Query.environments': () => ({}),
  'Query.fileFormats': () => ({ isPublic: true }),
  'Query.job': (w) => ({ args: { jobId: w.jobId } }),
  'Query.jobs': () => ({}),
  'Query.providerApiKeys': () => ({}),
  'Query.autoTranslationSettings': () => ({}),
  'Query.publications': () => ({}),
  'Query.languages': () => ({}),
  'Query.project': () => ({}),
  'Query.projects': () => ({ caller: 'any' }),
  'Query.translationCount': () => ({}),
  'Query.translationKey': () => ({ args: { key: 'victim.key' } }),
  'Query.translationKeyPage': () => ({}),
  'Query.translationKeys': () => ({ args: { first: 10 } }),
  'Query.translations': () => ({}),
  'Mutation.autoTranslate': () => ({
    args: {
      input: {
        translationProvider: 'PSEUDO',
        sourceProjectLanguage: 'en',
        targets: [{ targetProjectLanguage: 'de', targetLanguage: 'de' }],
      },
    },
  }),
  'Mutation.cancelJob': (w) => ({ args: { jobId: w.jobId }, last: true }),
  'Mutation.createCustomer': () => ({
    args: { input: { key: 'gql-customer' } },
    restore: () => asKey('DELETE', '/api/v1/customers/gql-customer'),
  }),
  'Mutation.createEnvironment': () => ({
    args: { key: 'gql-env', name: 'GraphQL env' },
    restore: (w) =>
      service.db.prisma.environment
        .deleteMany({ where: { projectId: w.project.id, key: 'gql-env' } })
        .then(() => undefined),
  }),
  'Mutation.createLanguage': () => ({
    args: { input: { key: 'nl', name: 'Dutch' } },
    restore: () => asKey('DELETE', '/api/v1/languages/nl'),
  }),
  'Mutation.createProject': () => ({ args: { name: 'matrix gql' }, caller: 'account' }),
  'Mutation.createTranslationKey': () => ({
    args: { input: { key: 'gql.created' } },
    restore: () => asKey('DELETE', '/api/v1/translation-keys?key=gql.created'),
  }),
  'Mutation.deleteCustomer': () => ({
    args: { key: 'doomed-customer-2' },
    restore: () => asKey('POST', '/api/v1/customers', { key: 'doomed-customer-2', description: `${SECRET} customer` }),
  }),
  'Mutation.deleteLanguage': () => ({
    args: { key: 'es' },
    restore: () => asKey('POST', '/api/v1/languages', { key: 'es', name: 'Spanish' }),
  }),
  'Mutation.deleteTranslationKey': () => ({
    args: { key: 'doomed.three' },
    restore: () =>
      asKey('POST', '/api/v1/translations', {
        content: [{ key: 'doomed.three', language: 'en', text: `${SECRET} doomed.three` }],
      }),
  }),
  'Mutation.deleteTranslationKeys': () => ({
    args: { translationKeys: [{ key: 'doomed.four' }] },
    restore: () =>
      asKey('POST', '/api/v1/translations', {
        content: [{ key: 'doomed.four', language: 'en', text: `${SECRET} doomed.four` }],
      }),
  }),
  'Mutation.exportTranslations': () => ({ args: { downloadFormat: 'MULTI_LANGUAGE_JSON' } }),
  'Mutation.importFile': () => ({ args: { file: UPLOAD, uploadFormat: 'SINGLE_LANGUAGE_JSON', languageKey: 'en' } }),
  'Mutation.importTranslations': () => ({ args: { content: [{ key: 'gql.added', language: 'en', text: 'Added' }] } }),
  'Mutation.previewImport': () => ({ args: { file: UPLOAD, uploadFormat: 'SINGLE_LANGUAGE_JSON', languageKey: 'en' } }),
  'Mutation.publishEnvironment': () => ({ args: { key: '_latest' } }),
  'Mutation.purgeTranslations': () => ({ last: true }),
  'Mutation.reportClientError': () => ({ args: { message: 'matrix' }, caller: 'project-key' }),
  'Mutation.setEnvironmentOrder': () => ({ args: { keys: ['_latest', '_production', 'victim-env', 'rest-env'] } }),
  'Mutation.setProviderApiKey': () => ({ args: { provider: 'MT_PROVIDER_A', apiKey: 'matrix-provider-key' } }),
  'Mutation.setAutoTranslationSettings': () => ({
    args: { languageKey: 'fr', settings: { translationProvider: 'PSEUDO' } },
  }),
  'Mutation.resetAutoTranslationSettings': () => ({ args: { languageKey: 'fr' } }),
  'Mutation.updateCustomer': () => ({ args: { key: 'victim-customer', input: { description: 'Changed by GraphQL' } } }),
  'Mutation.updateEnvironment': () => ({ args: { key: 'victim-env', name: 'Renamed' } }),
  'Mutation.updateLanguage': () => ({ args: { key: 'fr', input: { name: 'French' } } }),
  // In the translator's language, but with a review status: REVIEW too (INPUT_DEPENDENT), which the translator lacks.
  'Mutation.updateTranslation': () => ({
    args: { input: { key: 'victim.key', language: 'de', text: 'Neu', reviewStatus: 'REVIEWED' } },
    languages: ['de'],
    needs: 'REVIEW',
  }),
  'Mutation.updateTranslationKey': () => ({
    args: { key: 'victim.key', input: { description: 'Changed by GraphQL' } },
  }),
  // English: outside the translator's language.
  'Mutation.updateTranslations': () => ({
    args: { content: [{ key: 'victim.key', language: 'en', text: 'Updated by GraphQL' }] },
    languages: ['en'],
  }),
  'Subscription.jobProgress': (w) => ({ args: { jobId: w.jobId } }),
  'Subscription.projectJobEvents': () => ({}),
  'Subscription.publicationProgress': () => ({}),
  // Teams (src/schema/team.ts)
  'Query.members': () => ({}),
  'Query.invitations': () => ({}),
  'Query.roleLinks': () => ({}),
  // An invitation's preview answers whoever holds the link; so does accepting it (the account joins, or a new one is made).
  'Query.invitation': (w) => ({ args: { token: w.roleLinkToken }, isPublic: true }),
  'Mutation.acceptInvitation': (w) => ({ args: { token: w.roleLinkToken }, isPublic: true }),
  'Mutation.inviteMember': () => ({
    args: { email: 'gql-invitee@example.com', role: 'VIEWER' },
    restore: dropInvitations('gql-invitee@example.com'),
  }),
  'Mutation.cancelInvitation': (w) => ({ args: { id: w.invitationId }, restore: recreateInvitation }),
  'Mutation.resetRoleLink': () => ({ args: { role: 'TRANSLATOR', languages: ['de'] } }),
  'Mutation.disableRoleLink': () => ({ args: { role: 'VIEWER' }, restore: resetViewerLink }),
  'Mutation.updateMember': (w) => ({ args: { email: w.target.email, role: 'VIEWER' }, restore: restoreMembers }),
  'Mutation.removeMember': (w) => ({ args: { email: w.doomed.email }, restore: restoreMembers }),
  'Mutation.leaveProject': () => ({ accountOnly: true, restore: restoreMembers }),
  'Mutation.transferOwnership': (w) => ({ args: { email: w.target.email }, restore: restoreMembers }),
  'Mutation.deleteProject': () => ({ final: true }),
  // History and webhooks (src/schema/activity.ts, webhook.ts)
  'Query.activity': () => ({}),
  'Query.activityEntry': (w) => ({ args: { id: w.activityId } }),
  'Query.translationHistory': () => ({ args: { key: 'victim.key', language: 'de' } }),
  'Query.historyRetentionDays': () => ({}),
  'Mutation.setHistoryRetention': () => ({ args: { days: 400 } }),
  'Mutation.revertChange': (w) => ({ args: { activityId: w.activityId }, restore: rewriteFrench }),
  // A German cell: the translator may revert it.
  'Mutation.revertTranslation': (w) => ({
    args: { cellChangeId: w.germanCellChangeId },
    languages: ['de'],
    restore: rewriteGerman,
  }),
  'Subscription.translationChanges': () => ({}),
  'Subscription.projectActivity': () => ({}),
  'Query.webhooks': () => ({}),
  'Query.webhook': (w) => ({ args: { id: w.webhookId } }),
  'Query.webhookDeliveries': (w) => ({ args: { id: w.webhookId } }),
  'Mutation.createWebhook': () => ({ args: { input: { url: 'https://hooks.example.com/gql', triggers: ['CHANGE'] } } }),
  'Mutation.updateWebhook': (w) => ({ args: { id: w.webhookId, input: { enabled: true } } }),
  'Mutation.deleteWebhook': (w) => ({ args: { id: w.doomedWebhookId }, restore: recreateDoomedWebhook }),
  'Mutation.testWebhook': (w) => ({ args: { id: w.webhookId } }),
  // The web console (src/schema/console.ts) and accounts (src/schema/signup.ts)
  'Query.editorRows': () => ({ args: { limit: 10 } }),
  'Query.memorySuggestions': () => ({ args: { sourceText: 'victim key', targetLanguage: 'de' } }),
  // Language models (src/schema/llm.ts), against the model server on loopback started below.
  'Query.translationContext': () => ({}),
  'Query.llmProviderSettings': () => ({ args: { provider: 'LLM_OPENAI' } }),
  'Mutation.setTranslationContext': () => ({ args: { description: 'Matrix description' } }),
  'Mutation.setLlmProviderSettings': () => ({
    args: { provider: 'LLM_ANTHROPIC', settings: { model: 'matrix-model' } },
  }),
  // A translator gets proposals only in the languages it may write.
  'Mutation.suggestTranslation': () => ({
    args: { key: 'victim.key', languageKey: 'de', provider: 'LLM_OPENAI' },
    languages: ['de'],
  }),
  'Mutation.rewriteTranslation': () => ({
    args: { key: 'victim.key', languageKey: 'fr', text: 'Matrix', mode: 'REPHRASE', provider: 'LLM_OPENAI' },
    languages: ['fr'],
  }),
  'Query.sharedMemories': () => ({ caller: 'account' }),
  'Mutation.createSharedMemory': () => ({ args: { name: 'matrix memory' }, caller: 'account' }),
  'Mutation.renameSharedMemory': (w) => ({ args: { id: w.memoryId, name: 'Matrix memory' }, caller: 'account' }),
  'Mutation.deleteSharedMemory': (w) => ({
    args: { id: w.doomedMemoryId },
    caller: 'account',
    restore: createDoomedMemory,
  }),
  // The memory belongs to the victim, the project's owner: an administrator has MEMORY in the project but may not
  // change another account's memory (403), so the sample needs what only the owner has here.
  'Mutation.importTranslationMemory': () => ({ args: { file: { upload: true, name: 'memory.tmx', content: TMX } } }),
  'Mutation.exportTranslationMemory': () => ({}),
  'Mutation.setProjectMemoryLink': (w) => ({
    args: { memoryId: w.memoryId, shares: true, reads: true },
    accountOnly: true,
    needs: 'TRANSFER_OWNERSHIP',
  }),
  // Glossary (src/schema/glossary.ts)
  'Query.glossaries': () => ({}),
  'Query.glossaryTerms': () => ({}),
  'Query.glossaryTermHistory': (w) => ({ args: { termId: w.glossaryTermId } }),
  'Query.qualityFindings': () => ({}),
  'Query.qualityChecks': () => ({}),
  'Mutation.setQualityChecks': () => ({ args: { checks: [] } }),
  'Mutation.dismissQualityFinding': () => ({
    args: { check: 'placeholders-missing', key: 'victim.key', languageCode: 'de', reason: 'matrix' },
    languages: ['de'],
    prepare: (w) => setFinding(w, false),
  }),
  'Mutation.restoreQualityFinding': () => ({
    args: { check: 'placeholders-missing', key: 'victim.key', languageCode: 'de' },
    languages: ['de'],
    prepare: (w) => setFinding(w, true),
  }),
  'Mutation.setEnvironmentQualityGate': () => ({ args: { key: 'victim-env', requireNoErrors: false } }),
  'Query.glossaryMatches': () => ({ args: { text: 'the victim term', targetLanguage: 'de' } }),
  'Query.sharedGlossaries': () => ({ caller: 'account' }),
  'Mutation.importGlossary': () => ({
    args: { file: { upload: true, name: 'glossary.csv', content: 'term,de\nmatrix,Matrix\n' } },
  }),
  'Mutation.exportGlossary': () => ({ args: { format: 'TBX' } }),
  'Mutation.createGlossaryTerm': () => ({
    args: { input: { term: 'matrix term' } },
    restore: (w) =>
      service.db.prisma.glossaryTerm
        .deleteMany({ where: { term: 'matrix term', glossary: { projectId: w.project.id } } })
        .then(() => undefined),
  }),
  'Mutation.updateGlossaryTerm': (w) => ({
    args: { id: w.glossaryTermId, input: { term: 'victim term', description: 'changed' } },
  }),
  'Mutation.deleteGlossaryTerm': (w) => ({ args: { id: w.doomedTermId }, restore: createDoomedTerm }),
  'Mutation.createSharedGlossary': () => ({
    args: { name: 'matrix glossary', sourceLanguage: 'en' },
    caller: 'account',
  }),
  'Mutation.deleteSharedGlossary': (w) => ({
    args: { id: w.doomedGlossaryId },
    caller: 'account',
    restore: createDoomedGlossary,
  }),
  // Like setProjectMemoryLink: the shared glossary is the victim's (the owner's), an administrator may not link it.
  'Mutation.setProjectGlossaryLink': (w) => ({
    args: { glossaryId: w.glossaryId, linked: true },
    accountOnly: true,
    needs: 'TRANSFER_OWNERSHIP',
  }),
  // Automations (src/schema/automation.ts): the rules are disabled, so no operation of the matrix runs one.
  'Query.automationRules': () => ({}),
  'Query.automationRule': (w) => ({ args: { id: w.automationRuleId } }),
  'Query.automationRuns': () => ({}),
  'Mutation.createAutomationRule': () => ({
    args: {
      input: { name: 'matrix rule', trigger: 'IMPORT_FINISHED', enabled: false, actions: [{ kind: 'PUBLISH' }] },
    },
    restore: (w) =>
      service.db.prisma.automationRule
        .deleteMany({ where: { name: 'matrix rule', projectId: w.project.id } })
        .then(() => undefined),
  }),
  'Mutation.updateAutomationRule': (w) => ({ args: { id: w.automationRuleId, input: { name: `${SECRET} rule` } } }),
  'Mutation.setAutomationRuleEnabled': (w) => ({ args: { id: w.automationRuleId, enabled: false } }),
  'Mutation.deleteAutomationRule': (w) => ({
    args: { id: w.doomedAutomationRuleId },
    restore: createDoomedAutomationRule,
  }),
  'Mutation.revertAutomationRun': (w) => ({
    args: { id: w.automationRunId },
    restore: async (w) => {
      await rewriteFrench();
      await service.db.prisma.automationRun.update({
        where: { id: BigInt(w.automationRunId) },
        data: { revertedBy: null },
      });
    },
  }),
  // Git sync (src/schema/gitsync.ts), against the git http-backend on loopback started below.
  'Query.gitConnection': () => ({ prepare: ensureGitConnection }),
  'Query.gitSyncRuns': () => ({ prepare: ensureGitConnection }),
  'Mutation.connectGitRepository': () => ({
    args: {
      input: { remoteUrl: gitRemote, token: GIT_TOKEN, pathPattern: 'git/{lang}.json', format: 'SINGLE_LANGUAGE_JSON' },
    },
    prepare: dropGitConnection,
    restore: async (w) => void (await dropGitConnection(w)),
  }),
  'Mutation.updateGitConnection': () => ({
    args: { input: { branch: 'main', pathPattern: 'git/{lang}.json' } },
    prepare: ensureGitConnection,
  }),
  'Mutation.rotateGitWebhookSecret': () => ({ prepare: ensureGitConnection }),
  'Mutation.disconnectGitRepository': () => ({ prepare: ensureGitConnection }),
  'Mutation.pullFromGit': () => ({ args: { preview: true }, prepare: ensureGitConnection }),
  'Mutation.pushToGit': () => ({ prepare: ensureGitConnection }),
  // The account of the credential, null for anyone else.
  'Query.viewer': () => ({ isPublic: true }),
  // Anyone may sign in with an account's password (the attacker's here: the answer holds its e-mail).
  'Mutation.signIn': (w) => ({ args: { email: w.attacker.email, password: PASSWORD }, isPublic: true }),
  'Mutation.signOut': () => ({ caller: 'account', session: true }),
  // ALLOW_SIGNUP=true below: anyone may make an account.
  'Mutation.signUp': () => ({
    args: { email: `signup-${randomBytes(4).toString('hex')}@example.com`, password: PASSWORD },
    isPublic: true,
  }),
  'Mutation.setDisplayName': () => ({ args: { name: 'Matrix' }, caller: 'account' }),
  // Project settings (src/schema/project.ts, language.ts)
  'Mutation.renameProject': () => ({ args: { name: 'Victim project' } }),
  'Mutation.rotateProjectApiKey': () => ({ restore: restoreApiKey }),
  'Mutation.setLanguageOrder': () => ({ args: { keys: ['en', 'de'] } }),
  // Account settings (src/schema/account.ts): each acts on the credential's own account.
  'Query.personalTokens': () => ({ caller: 'account' }),
  'Query.sessions': () => ({ caller: 'account' }),
  // A personal token may not issue tokens: the owner issues one from its console session.
  'Mutation.createPersonalToken': () => ({ args: { name: 'matrix' }, caller: 'account', session: true }),
  'Mutation.revokePersonalToken': (w) => ({
    args: { id: w.doomedTokenId },
    caller: 'account',
    restore: createDoomedToken,
  }),
  // The same password again: the rule holds, and later rows keep their basic credentials; other sessions end.
  'Mutation.changePassword': () => ({
    args: { currentPassword: PASSWORD, newPassword: PASSWORD },
    caller: 'account',
    restore: renewSession,
  }),
  'Mutation.signOutOtherSessions': () => ({ caller: 'account', restore: renewSession }),
  'Mutation.signOutSession': (w) => ({
    args: { id: w.doomedSessionId },
    caller: 'account',
    restore: createDoomedSession,
  }),
  // Screenshots (src/schema/screenshot.ts)
  'Query.screenshots': () => ({ args: { first: 10 } }),
  'Query.screenshot': (w) => ({ args: { id: w.screenshotId } }),
  'Mutation.uploadScreenshot': () => ({ args: { file: SCREENSHOT_UPLOAD } }),
  'Mutation.deleteScreenshot': (w) => ({ args: { id: w.doomedScreenshotId }, restore: createDoomedScreenshot }),
  'Mutation.linkScreenshotKey': (w) => ({
    args: { screenshotId: w.screenshotId, key: 'victim.key', rectangle: RECTANGLE },
  }),
  'Mutation.updateScreenshotLink': (w) => ({ args: { linkId: w.linkId, rectangle: { ...RECTANGLE, x: 3 } } }),
  'Mutation.unlinkScreenshotKey': (w) => ({ args: { linkId: w.doomedLinkId }, restore: createDoomedLink }),
  // In-context editing (src/schema/in-context.ts)
  'Query.inContextSession': () => ({ caller: 'any' }),
  'Query.inContextTokens': () => ({}),
  'Query.inContextOrigins': () => ({}),
  'Mutation.createInContextToken': () => ({ args: { input: { name: 'matrix', languages: ['de'] } } }),
  'Mutation.revokeInContextToken': (w) => ({ args: { id: w.doomedInContextTokenId } }),
  // The same origins again: the in-context row's token keeps working after an allowed run.
  'Mutation.setInContextOrigins': () => ({ args: { origins: [MATRIX_ORIGIN] } }),
};

/** The origin the victim's project allows for its in-context tokens. */
const MATRIX_ORIGIN = 'http://app.matrix.example';

/** The password of every test account (test/support/service.ts). */
const PASSWORD = 'correct horse battery';

// --- Credentials (rows) -----------------------------------------------------------

const accountScheme = (op: Operation) => op.kind === 'rest' && op.auth !== 'apiKey';

/** What a credential that must not reach the victim gets: the public operations answer anyone. */
const denied =
  (outcome: (op: Operation) => Outcome) =>
  (op: Operation): Outcome =>
    op.isPublic ? 'own' : outcome(op);

type MemberRole = 'VIEWER' | 'TRANSLATOR' | 'ADMIN';
/** The translator's languages (it may not review). */
const TRANSLATOR_LANGUAGES = ['de'];

/**
 * What a member of the victim's project gets, by the permission table
 * (src/teams/permissions.ts): a project operation is allowed when the role
 * grants its permission (a translator: in its languages only), refused with
 * 403 otherwise. REST routes of the API key refuse a member's token as the
 * wrong scheme; account-level operations act on the member's own account.
 */
function memberOutcome(role: MemberRole, op: Operation): Outcome {
  if (op.isPublic) return 'own';
  if (op.kind === 'rest') {
    if (op.auth === 'apiKey') return 'forbidden';
    if (!op.namesProject) return 'own';
  } else if (!op.projectScoped) {
    return op.caller === 'project-key' ? 'not-found' : 'own';
  }
  const permission = op.needs ?? (OPERATION_PERMISSIONS[op.field as ProjectOperation] as Permission | undefined);
  if (!permission) throw new Error(`${op.id}: ${op.field} has no permission in OPERATION_PERMISSIONS`);
  // languageIds is not empty for the translator: `allows` leaves languages to the caller, as the access check does.
  if (!allows({ role, languageIds: role === 'TRANSLATOR' ? [0] : [], canReview: false }, permission))
    return 'forbidden';
  if (role === 'TRANSLATOR' && (permission === 'TRANSLATE' || permission === 'REVIEW')) {
    if (!op.languages)
      throw new Error(`${op.id}: a ${permission} operation must say which languages its sample writes`);
    if (op.languages.some((l) => !TRANSLATOR_LANGUAGES.includes(l))) return 'forbidden';
  }
  return 'allowed';
}

const memberRow = (role: MemberRole): Credential => ({
  name: `a member of the project (${role})`,
  headers: (op, w) => ({
    authorization: op.kind === 'rest' && op.auth === 'basic' ? w.members[role].basic : w.members[role].token,
  }),
  expect: (op) => memberOutcome(role, op),
  // A member reads the project (its texts, the members' e-mails: the projects list holds them);
  // the API key only with SETTINGS.
  secrets: (w) => (allows({ role, languageIds: [], canReview: false }, 'SETTINGS') ? [] : [w.project.apiKey]),
});

/**
 * The victim's in-context token (German, no capture) from the allowed origin:
 * GraphQL only; in its project what IN_CONTEXT_PERMISSIONS grant (texts of
 * German), 403 for everything else; account and API-key fields refused.
 */
const inContextRow: Credential = {
  name: "the project's in-context token (German, no capture)",
  headers: (_op, w) => ({ 'x-incontext-token': w.inContextToken, origin: MATRIX_ORIGIN }),
  expect: denied((op) => {
    if (op.kind === 'rest') return 'forbidden';
    // A project-key field acts on the credential's project: the token's own, by its permissions like any project field.
    if (!op.projectScoped && op.caller !== 'project-key') return op.caller === 'any' ? 'own' : 'forbidden';
    if (op.accountOnly) return 'forbidden';
    const permission = op.needs ?? (OPERATION_PERMISSIONS[op.field as ProjectOperation] as Permission | undefined);
    if (!permission || !IN_CONTEXT_PERMISSIONS.includes(permission)) return 'forbidden';
    if (permission === 'TRANSLATE' && op.languages?.some((l) => l !== 'de')) return 'forbidden';
    return 'allowed';
  }),
  // It reads the project, never its API key.
  secrets: (w) => [w.project.apiKey],
};

// Rows run in order, the owner last (the team roles before it).
const CREDENTIALS: Credential[] = [
  {
    name: 'no credential',
    headers: () => ({}),
    expect: denied(() => 'forbidden'),
  },
  {
    name: 'a wrong credential of the right scheme',
    headers: (op, w): Record<string, string> =>
      op.kind === 'rest' && op.auth === 'apiKey'
        ? { 'x-service-token': `lms_key_${randomBytes(16).toString('hex')}` }
        : op.kind === 'rest' && op.auth === 'basic'
          ? { authorization: `Basic ${Buffer.from(`${w.victim.email}:not-the-password`).toString('base64')}` }
          : { authorization: `lms_pat_${randomBytes(16).toString('hex')}` },
    expect: denied(() => 'forbidden'),
  },
  {
    name: "the victim's valid credential of the wrong scheme",
    // REST: the other scheme's credential; GraphQL: the API key sent as a token.
    headers: (op, w): Record<string, string> =>
      op.kind === 'rest' && op.auth === 'apiKey'
        ? { authorization: w.victim.token }
        : op.kind === 'rest'
          ? { 'x-service-token': w.project.apiKey }
          : { authorization: w.project.apiKey },
    expect: denied(() => 'forbidden'),
  },
  {
    name: "another project's API key",
    headers: (_op, w) => ({ 'x-service-token': w.attackerProject.apiKey }),
    expect: denied((op) => {
      if (op.kind === 'rest') return accountScheme(op) ? 'forbidden' : op.namesVictimResource ? 'not-found' : 'own';
      if (op.projectScoped) return op.accountOnly ? 'forbidden' : 'not-found';
      return op.caller === 'account' ? 'forbidden' : 'own';
    }),
  },
  {
    name: "another account's personal token",
    headers: (_op, w) => ({ authorization: w.attacker.token }),
    expect: denied((op) => {
      if (op.kind === 'rest') return op.auth === 'personalToken' ? 'own' : 'forbidden';
      // A project-key field asked with an account credential has no project to act in.
      return op.projectScoped || op.caller === 'project-key' ? 'not-found' : 'own';
    }),
  },
  {
    name: 'a revoked personal token',
    headers: (_op, w) => ({ authorization: w.revokedToken }),
    expect: denied(() => 'forbidden'),
  },
  {
    name: "a deleted project's API key",
    headers: (_op, w) => ({ 'x-service-token': w.deletedProjectKey }),
    expect: denied(() => 'forbidden'),
  },
  inContextRow,
  memberRow('VIEWER'),
  memberRow('TRANSLATOR'),
  memberRow('ADMIN'),
  {
    name: 'the owner (the samples are right)',
    headers: (op, w): Record<string, string> => {
      if (op.session) return w.session;
      const usesKey = op.kind === 'rest' ? op.auth === 'apiKey' : op.caller === 'project-key';
      if (usesKey) return { 'x-service-token': w.project.apiKey };
      return { authorization: op.kind === 'rest' && op.auth === 'basic' ? w.victim.basic : w.victim.token };
    },
    expect: () => 'allowed',
  },
];

// --- The world ----------------------------------------------------------------------

let service: TestService;
let world: World;

async function ok(res: { statusCode: number; body: string }, what: string) {
  if (res.statusCode !== 200) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return JSON.parse(res.body);
}

/** The data of a GraphQL operation that must succeed. */
async function gql(
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<any> {
  const res = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify({ query, variables }),
  });
  const body = JSON.parse(res.body);
  if (body.errors) throw new Error(`${query}: ${res.body}`);
  return body.data;
}

/** A request with the victim's API key that must succeed (restoring what an operation changed). */
async function asKey(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<any> {
  return ok(
    await service.request({ method, url, headers: { 'x-service-token': world.project.apiKey }, payload }),
    `${method} ${url}`,
  );
}

// --- Restoring what an allowed run changed -----------------------------------------

/** Every membership of the victim's project as set up (after a member left, was removed, changed, or the ownership moved). */
async function restoreMembers(w: World): Promise<void> {
  const memberships: [TestAccount, 'OWNER' | MemberRole, number[]][] = [
    [w.victim, 'OWNER', []],
    [w.coOwner, 'OWNER', []],
    [w.members.ADMIN, 'ADMIN', []],
    [w.members.TRANSLATOR, 'TRANSLATOR', [w.germanId]],
    [w.members.VIEWER, 'VIEWER', []],
    [w.target, 'TRANSLATOR', []],
    [w.doomed, 'VIEWER', []],
  ];
  for (const [account, role, languageIds] of memberships) {
    await service.db.prisma.projectMember.upsert({
      where: { projectId_accountId: { projectId: w.project.id, accountId: account.id } },
      create: { projectId: w.project.id, accountId: account.id, role, languageIds, canReview: false },
      update: { role, languageIds, canReview: false },
    });
  }
}

const dropInvitations = (email: string) => async (w: World) => {
  await service.db.prisma.invitation.deleteMany({ where: { projectId: w.project.id, email } });
};

async function recreateInvitation(w: World): Promise<void> {
  const data = await gql(
    { authorization: w.victim.token },
    'mutation($p: String!) { inviteMember(projectToken: $p, email: "pending@example.com", role: VIEWER) { invitation { id } } }',
    { p: w.project.projectToken },
  );
  w.invitationId = Number(data.inviteMember.invitation.id);
}

async function resetViewerLink(w: World): Promise<void> {
  await gql(
    { authorization: w.victim.token },
    'mutation($p: String!) { resetRoleLink(projectToken: $p, role: VIEWER) { link } }',
    { p: w.project.projectToken },
  );
}

/** Writes the victim's French text again (the change reverts undo). */
async function rewriteFrench(): Promise<void> {
  await asKey('PATCH', '/api/v2/translations', { key: 'victim.key', language: 'fr', text: `${SECRET} fr` });
}
async function rewriteGerman(): Promise<void> {
  await asKey('PATCH', '/api/v2/translations', { key: 'victim.key', language: 'de', text: `${SECRET} de changed` });
}

/** Puts the victim's original API key back after a rotation (the cache was told by the rotation). */
async function restoreApiKey(w: World): Promise<void> {
  await service.db.prisma.project.update({
    where: { id: w.project.id },
    data: { apiKey: w.project.apiKey, apiKeyHash: sha256(w.project.apiKey) },
  });
  await forgetCredentials();
}

async function createDoomedProject(w: World): Promise<void> {
  const doomed = await w.victim.project('Doomed project');
  const { id } = await service.db.prisma.project.findUniqueOrThrow({
    where: { projectToken: doomed.projectToken },
    select: { id: true },
  });
  for (const role of ['ADMIN', 'TRANSLATOR', 'VIEWER'] as const) {
    await service.db.prisma.projectMember.create({
      data: {
        projectId: id,
        accountId: w.members[role].id,
        role,
        languageIds: role === 'TRANSLATOR' ? [w.germanId] : [],
      },
    });
  }
  w.doomedProject = doomed.projectToken;
}

async function createDoomedToken(w: World): Promise<void> {
  const token = await createPersonalToken(w.victim.id, 'doomed');
  w.doomedTokenId = (
    await service.db.prisma.personalToken.findUniqueOrThrow({
      where: { tokenHash: sha256(token) },
      select: { id: true },
    })
  ).id;
}

async function createDoomedMemory(w: World): Promise<void> {
  const memory = await service.db.prisma.translationMemory.create({
    data: { name: 'doomed memory', ownerId: w.victim.id },
  });
  await service.db.prisma.translationMemoryLink.create({
    data: { memoryId: memory.id, projectId: w.project.id, shares: true, reads: true },
  });
  w.doomedMemoryId = memory.id;
}

async function createDoomedTerm(w: World): Promise<void> {
  const glossary = await service.db.prisma.glossary.upsert({
    where: { projectId: w.project.id },
    create: { name: 'victim', sourceLanguage: 'en', projectId: w.project.id },
    update: {},
  });
  w.doomedTermId = (
    await service.db.prisma.glossaryTerm.create({ data: { glossaryId: glossary.id, term: 'doomed term' } })
  ).id;
}

async function createDoomedAutomationRule(w: World): Promise<void> {
  w.doomedAutomationRuleId = (
    await service.db.prisma.automationRule.create({
      data: {
        projectId: w.project.id,
        name: 'doomed rule',
        trigger: 'IMPORT_FINISHED',
        enabled: false,
        actions: [{ kind: 'PUBLISH', languages: [], environment: '_latest' }],
      },
    })
  ).id;
}

async function createDoomedGlossary(w: World): Promise<void> {
  w.doomedGlossaryId = (
    await service.db.prisma.glossary.create({
      data: {
        name: 'doomed glossary',
        sourceLanguage: 'en',
        ownerId: w.victim.id,
        links: { create: { projectId: w.project.id } },
      },
    })
  ).id;
}

async function createDoomedSession(w: World): Promise<void> {
  const row = await service.db.prisma.session.create({
    data: {
      accountId: w.victim.id,
      tokenHash: sha256(randomBytes(16).toString('hex')),
      csrfToken: 'doomed',
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  w.doomedSessionId = row.id;
}

/** A new console session of the victim (after its sessions were signed out). */
async function renewSession(w: World): Promise<void> {
  const signIn = await service.request({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { email } }',
      variables: { e: w.victim.email, p: PASSWORD },
    }),
  });
  const cookies = ([] as string[]).concat(signIn.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!);
  const csrf = cookies.find((c) => c.startsWith('lms_csrf='))?.slice('lms_csrf='.length);
  if (!csrf) throw new Error(`signIn: ${signIn.body}`);
  w.session = { cookie: cookies.join('; '), 'x-csrf-token': csrf };
  // The doomed session went with the others.
  if (!(await service.db.prisma.session.count({ where: { id: w.doomedSessionId } }))) await createDoomedSession(w);
}

async function uploadVictimScreenshot(name: string): Promise<number> {
  const body = multipart([{ name: 'file', fileName: name, content: PNG }]);
  const res = await service.request({
    method: 'POST',
    url: '/api/v2/screenshots',
    headers: { 'x-service-token': world.project.apiKey, ...body.headers },
    payload: body.payload,
  });
  return Number((await ok(res, 'screenshot')).data.id);
}

async function createDoomedScreenshot(w: World): Promise<void> {
  w.doomedScreenshotId = await uploadVictimScreenshot(`${SECRET} doomed.png`);
}

async function createDoomedLink(w: World): Promise<void> {
  const created = await asKey('POST', `/api/v2/screenshots/${w.screenshotId}/links`, {
    key: 'victim.key',
    ...RECTANGLE,
  });
  w.doomedLinkId = Number(created.data.id);
}

async function recreateDoomedWebhook(w: World): Promise<void> {
  const created = await asKey('POST', '/api/v2/webhooks', {
    url: 'https://hooks.example.com/doomed',
    triggers: ['change'],
  });
  w.doomedWebhookId = Number(created.data.id);
}

const GIT_TOKEN = 'matrix-git-token';
let gitServer: GitServer;
let gitRemote = '';

async function ensureGitConnection(w: World): Promise<boolean> {
  if (await service.db.prisma.gitConnection.findUnique({ where: { projectId: w.project.id } })) return false;
  await connectRepository(w.project.id, {
    remoteUrl: gitRemote,
    token: GIT_TOKEN,
    pathPattern: 'git/{lang}.json',
    format: 'single-language-json',
    forgeKind: 'NONE',
  });
  return true;
}

/** A finding on victim.key in German, dismissed or not, as the findings updater would have stored it (it is off here: FINDINGS_THREADS=0). */
async function setFinding(w: World, dismissed: boolean): Promise<boolean> {
  const cell = await service.db.prisma.translation.findFirstOrThrow({
    where: { projectId: w.project.id, key: { key: 'victim.key' }, language: { key: 'de' } },
    select: { keyId: true, languageId: true, text: true },
  });
  const id = { keyId: cell.keyId, languageId: cell.languageId, customerId: 0, check: 'placeholders-missing' };
  const finding = await service.db.prisma.finding.findUnique({
    where: { keyId_languageId_customerId_check_n: { ...id, n: 0 } },
  });
  const dismissal = await service.db.prisma.findingDismissal.findUnique({
    where: { keyId_languageId_customerId_check: id },
  });
  if (finding && finding.dismissed === dismissed && !!dismissal === dismissed) return false;
  await service.db.prisma.findingDismissal.deleteMany({ where: id });
  await service.db.prisma.finding.deleteMany({ where: id });
  await service.db.prisma.finding.create({
    data: { ...id, n: 0, projectId: w.project.id, severity: 'error', message: 'matrix finding', dismissed },
  });
  if (dismissed)
    await service.db.prisma.findingDismissal.create({
      data: {
        ...id,
        projectId: w.project.id,
        textHash: createHash('md5').update(cell.text).digest('hex'),
        reason: 'matrix',
      },
    });
  return true;
}

async function dropGitConnection(w: World): Promise<boolean> {
  return (await service.db.prisma.gitConnection.deleteMany({ where: { projectId: w.project.id } })).count > 0;
}

let model: FakeLlm;
beforeAll(async () => {
  gitServer = await startGitServer({ user: 'git', token: GIT_TOKEN });
  gitRemote = gitServer.createRepository('victim/app.git', {
    'git/en.json': JSON.stringify({ 'git.key': 'From Git' }),
  });
  model = await startFakeLlm();
  Object.assign(process.env, { LLM_OPENAI_URL: model.url, LLM_ALLOW_PRIVATE: 'true' });
  service = await startTestService({
    listen: true,
    worker: false,
    env: {
      RATE_LIMIT_PER_MINUTE: '0',
      PUBLISH_RATE_LIMIT: '1000',
      ALLOW_SIGNUP: 'true',
      GIT_ALLOW_PRIVATE_HOSTS: 'true',
      FINDINGS_THREADS: '0',
    },
  });
  const victim = await service.account();
  const attacker = await service.account();
  const project = await victim.project('Victim project');
  const attackerProject = await attacker.project('Attacker project');
  const key = { 'x-service-token': project.apiKey, 'content-type': 'application/json' };
  for (const [code, name] of [
    ['de', 'German'],
    ['fr', 'French'],
    ['it', 'Italian'],
    ['es', 'Spanish'],
  ]) {
    await ok(
      await service.request({ method: 'POST', url: '/api/v1/languages', headers: key, payload: { key: code, name } }),
      'language',
    );
  }
  for (const customer of ['victim-customer', 'doomed-customer', 'doomed-customer-2']) {
    await ok(
      await service.request({
        method: 'POST',
        url: '/api/v1/customers',
        headers: key,
        payload: { key: customer, description: `${SECRET} customer` },
      }),
      'customer',
    );
  }
  const content = ['victim.key', 'doomed.one', 'doomed.two', 'doomed.three', 'doomed.four'].flatMap((k) => [
    { key: k, language: 'en', text: `${SECRET} ${k}`, description: `${SECRET} description` },
    { key: k, language: 'de', text: `${SECRET} de ${k}` },
  ]);
  await ok(
    await service.request({ method: 'POST', url: '/api/v1/translations', headers: key, payload: { content } }),
    'translations',
  );
  await ok(
    await service.request({
      method: 'POST',
      url: '/api/v2/environments',
      headers: key,
      payload: { key: 'victim-env', name: `${SECRET} env` },
    }),
    'environment',
  );
  const job = await ok(
    await service.request({
      method: 'POST',
      url: '/api/v1/jobs/auto-translate',
      headers: key,
      payload: {
        translationProvider: 'PSEUDO',
        sourceProjectLanguage: 'en',
        targetProjectLanguage: 'fr',
        targetLanguage: 'fr',
      },
    }),
    'job',
  );
  const jobId = (Array.isArray(job.data) ? job.data[0] : job.data).jobId as string;
  const prisma = service.db.prisma;
  const projectRow = await prisma.project.findFirstOrThrow({
    where: { projectToken: project.projectToken },
    select: { id: true },
  });
  // A revoked token: issued, then its row removed (what revoking a token does).
  const revokedToken = await createPersonalToken(victim.id, 'revoked');
  await prisma.personalToken.deleteMany({ where: { accountId: victim.id, name: 'revoked' } });
  // A deleted project: created, then deleted with everything in it.
  const deleted = await victim.project('Deleted project');
  await prisma.project.deleteMany({ where: { projectToken: deleted.projectToken } });
  // Team members (added as an accepted invitation would), a second owner, a member to change and one to remove.
  const [coOwner, target, doomed, viewer, translator, admin] = [
    await service.account(),
    await service.account(),
    await service.account(),
    await service.account(),
    await service.account(),
    await service.account(),
  ];
  const germanId = (
    await prisma.language.findFirstOrThrow({ where: { projectId: projectRow.id, key: 'de' }, select: { id: true } })
  ).id;
  // The French and German texts changed once: activity entries and cell changes to revert.
  await ok(
    await service.request({
      method: 'PATCH',
      url: '/api/v2/translations',
      headers: key,
      payload: { key: 'victim.key', language: 'fr', text: `${SECRET} fr` },
    }),
    'french',
  );
  await ok(
    await service.request({
      method: 'PATCH',
      url: '/api/v2/translations',
      headers: key,
      payload: { key: 'victim.key', language: 'de', text: `${SECRET} de changed` },
    }),
    'german',
  );
  const log = await gql(
    { 'x-service-token': project.apiKey },
    'query { activity(size: 2) { entries { id cells { id language } } } }',
  );
  const [germanEntry, frenchEntry] = log.activity.entries;
  if (germanEntry.cells[0].language !== 'de' || frenchEntry.cells[0].language !== 'fr')
    throw new Error(`activity: ${JSON.stringify(log)}`);
  const webhook = async (name: string) =>
    Number(
      (
        await ok(
          await service.request({
            method: 'POST',
            url: '/api/v2/webhooks',
            headers: key,
            payload: { url: `https://hooks.example.com/${name}`, triggers: ['change'] },
          }),
          'webhook',
        )
      ).data.id,
    );
  const attackerLink = await gql(
    { authorization: attacker.token },
    'mutation($p: String!) { resetRoleLink(projectToken: $p, role: VIEWER) { link } }',
    { p: attackerProject.projectToken },
  );
  world = {
    victim,
    attacker,
    attackerProject,
    revokedToken,
    jobId,
    project: { ...project, id: projectRow.id },
    deletedProjectKey: deleted.apiKey,
    secrets: [SECRET, project.apiKey, victim.email],
    members: { VIEWER: viewer, TRANSLATOR: translator, ADMIN: admin },
    coOwner,
    target,
    doomed,
    germanId,
    inContextToken: '',
    doomedInContextTokenId: 0,
    session: {},
    webhookId: await webhook('matrix'),
    doomedWebhookId: await webhook('doomed'),
    invitationId: 0,
    activityId: frenchEntry.id,
    cellChangeId: frenchEntry.cells[0].id,
    germanCellChangeId: germanEntry.cells[0].id,
    roleLinkToken: decodeURIComponent((attackerLink.resetRoleLink.link as string).split('/').pop()!),
    doomedProject: '',
    doomedTokenId: 0,
    doomedSessionId: 0,
    doomedMemoryId: 0,
    screenshotId: 0,
    linkId: 0,
    doomedScreenshotId: 0,
    doomedLinkId: 0,
    memoryId: (
      await prisma.translationMemory.create({
        data: {
          name: 'matrix memory',
          ownerId: victim.id,
          links: { create: { projectId: projectRow.id, shares: true, reads: true } },
        },
      })
    ).id,
    glossaryTermId: (
      await prisma.glossaryTerm.create({
        data: {
          term: 'victim term',
          glossary: { create: { name: 'victim', sourceLanguage: 'en', projectId: projectRow.id } },
        },
      })
    ).id,
    doomedTermId: 0,
    glossaryId: (
      await prisma.glossary.create({
        data: {
          name: 'matrix glossary',
          sourceLanguage: 'en',
          ownerId: victim.id,
          links: { create: { projectId: projectRow.id } },
        },
      })
    ).id,
    doomedGlossaryId: 0,
    automationRuleId: 0,
    doomedAutomationRuleId: 0,
    automationRunId: '',
  };
  const rule = await prisma.automationRule.create({
    data: {
      projectId: projectRow.id,
      name: `${SECRET} rule`,
      trigger: 'TEXTS_CHANGED',
      enabled: false,
      actions: [{ kind: 'SET_REVIEW_STATUS', languages: [], status: 'NOT_REVIEWED', cells: 'CHANGED' }],
    },
  });
  world.automationRuleId = rule.id;
  world.automationRunId = String(
    (
      await prisma.automationRun.create({
        data: {
          ruleId: rule.id,
          projectId: projectRow.id,
          trigger: 'TEXTS_CHANGED',
          state: 'DONE',
          committed: true,
          changeId: BigInt(frenchEntry.id),
          log: [{ kind: 'SET_REVIEW_STATUS', ok: true, summary: `${SECRET} run` }],
        },
      })
    ).id,
  );
  await createDoomedAutomationRule(world);
  await createDoomedMemory(world);
  await createDoomedTerm(world);
  await createDoomedGlossary(world);
  await restoreMembers(world);
  await recreateInvitation(world);
  await resetViewerLink(world);
  // The victim's web console session: its cookies, and the CSRF token as the header a mutation needs.
  await createDoomedSession(world);
  await renewSession(world);
  await createDoomedToken(world);
  await createDoomedProject(world);
  world.screenshotId = await uploadVictimScreenshot(`${SECRET} screenshot.png`);
  await createDoomedLink(world);
  world.linkId = world.doomedLinkId;
  await createDoomedLink(world);
  await createDoomedScreenshot(world);
  // In-context tokens: the row's (German) and one to revoke.
  await gql({ 'x-service-token': project.apiKey }, `mutation { setInContextOrigins(origins: ["${MATRIX_ORIGIN}"]) }`);
  const made = await gql(
    { 'x-service-token': project.apiKey },
    'mutation { row: createInContextToken(input: { languages: ["de"] }) { token } doomed: createInContextToken { inContextToken { id } } }',
  );
  world.inContextToken = made.row.token;
  world.doomedInContextTokenId = made.doomed.inContextToken.id;
}, 120_000);
afterAll(async () => {
  await gitServer?.close();
  await service?.close();
  await model?.close();
});

// --- Database fingerprints ----------------------------------------------------------

const fingerprintQueries = new Map<string, string>();

/** md5 of every row of every table (a token's lastUsedAt aside); `victim`: only the victim's project and account. */
async function fingerprint(scope: 'all' | 'victim'): Promise<Record<string, string>> {
  const prisma = service.db.prisma;
  let sql = fingerprintQueries.get(scope);
  if (!sql) {
    const tables = await prisma.$queryRawUnsafe<{ table_name: string; project: boolean; account: boolean }[]>(
      `SELECT t.table_name,
              EXISTS (SELECT 1 FROM information_schema.columns c WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.column_name = 'projectId') AS project,
              EXISTS (SELECT 1 FROM information_schema.columns c WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.column_name = 'accountId') AS account
         FROM information_schema.tables t
        WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND t.table_name NOT LIKE '\\_prisma%'
        ORDER BY 1`,
    );
    const { id: projectId } = world.project;
    const accountId = world.victim.id;
    const selects = tables.flatMap(({ table_name: table, project, account }) => {
      let where = '';
      if (scope === 'victim') {
        if (table === 'Project') where = `WHERE t.id = ${projectId}`;
        else if (table === 'Account') where = `WHERE t.id = ${accountId}`;
        else if (project) where = `WHERE t."projectId" = ${projectId}`;
        else if (account) where = `WHERE t."accountId" = ${accountId}`;
        else return [];
      }
      return [
        `SELECT '${table}' AS "table", md5(coalesce(string_agg(x, ',' ORDER BY x), '')) AS digest FROM (SELECT (to_jsonb(t) - 'lastUsedAt')::text AS x FROM "${table}" t ${where}) s`,
      ];
    });
    expect(selects.length).toBeGreaterThan(5);
    sql = selects.join(' UNION ALL ');
    fingerprintQueries.set(scope, sql);
  }
  const rows = await prisma.$queryRawUnsafe<{ table: string; digest: string }[]>(sql);
  return Object.fromEntries(rows.map((r) => [r.table, r.digest]));
}

/**
 * Where the database's write-ahead log ends. Every change to a row of a table is logged before it is
 * made, so a run that leaves it where it was changed nothing: its fingerprint is the one before, and
 * the full one is taken only when the log moved (a write, or a read that tidied a page).
 */
async function walPosition(): Promise<string> {
  const [row] = await service.db.prisma.$queryRawUnsafe<{ lsn: string }[]>(
    'SELECT pg_current_wal_insert_lsn()::text AS lsn',
  );
  return row!.lsn;
}

// --- Running operations ---------------------------------------------------------------

const withoutNulls = (value: unknown): unknown => {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object') return value;
  const entries = Object.entries(value as object)
    .map(([k, v]) => [k, withoutNulls(v)] as const)
    .filter(([, v]) => v !== undefined);
  return entries.length ? Object.fromEntries(entries) : undefined;
};

function restOperation(route: RestRoute): Operation {
  const id = `${route.method} ${route.path}`;
  const sample = REST_SAMPLES[id];
  const op: Operation = {
    id,
    kind: 'rest',
    auth: route.auth,
    projectScoped: route.auth === 'apiKey',
    isPublic: false,
    namesVictimResource: false,
    field: /^\s*(?:query|mutation|subscription)\b[^{]*\{\s*(\w+)/.exec(route.document)?.[1],
    namesProject: route.path.includes(':projectToken'),
    languages: sample?.(placeholderWorld).languages,
    async restore() {
      await sample!(world).restore?.(world);
    },
    async run(headers) {
      const s = sample!(world);
      const url =
        route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(s.params?.[name] ?? 'x')) +
        queryString(s.query ?? {});
      let payload: string | Buffer | undefined;
      let extra: Record<string, string> = {};
      if (s.file) {
        const body = multipart([{ name: 'file', fileName: s.file.name, content: s.file.content }]);
        payload = body.payload;
        extra = body.headers;
      } else if (s.body !== undefined) {
        payload = JSON.stringify(s.body);
        extra = { 'content-type': 'application/json' };
      }
      const res = await service.request({ method: route.method, url, headers: { ...headers, ...extra }, payload });
      let parsed: any;
      try {
        parsed = JSON.parse(res.body);
      } catch {
        parsed = undefined;
      }
      const { msg: _msg, status: _status, ...rest } = parsed ?? {};
      return { status: res.statusCode, data: withoutNulls(rest), body: res.body };
    },
  };
  return op;
}

/** A selection of the scalar fields of a type, two levels of objects deep. */
function selectionOf(type: GraphQLOutputType, depth = 0): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (!isObjectType(named)) return '{ __typename }';
  const fields = Object.values(named.getFields()).filter((f) => !f.args.some((a) => isNonNullType(a.type)));
  const parts = fields.flatMap((f) => {
    if (isLeafType(getNamedType(f.type))) return [f.name];
    if (depth >= 1) return [];
    return [`${f.name} ${selectionOf(f.type, depth + 1)}`];
  });
  return `{ __typename ${parts.join(' ')} }`;
}

const isUpload = (value: unknown): value is typeof UPLOAD =>
  typeof value === 'object' && value !== null && 'upload' in value;

function graphqlOperation(
  kind: 'query' | 'mutation' | 'subscription',
  field: GraphQLField<unknown, unknown>,
): Operation {
  const id = `${kind === 'query' ? 'Query' : kind === 'mutation' ? 'Mutation' : 'Subscription'}.${field.name}`;
  const sample = GRAPHQL_SAMPLES[id];
  const projectScoped = field.args.some((a) => a.name === 'projectToken');
  const given = sample?.(placeholderWorld) ?? {};
  const op: Operation = {
    id,
    kind,
    projectScoped,
    isPublic: given.isPublic === true,
    namesVictimResource: given.victimResource === true,
    caller: given.caller,
    field: field.name,
    languages: given.languages,
    session: given.session,
    accountOnly: given.accountOnly,
    needs: given.needs,
    async restore() {
      await sample!(world).restore?.(world);
    },
    async prepare() {
      return (await sample!(world).prepare?.(world)) ?? false;
    },
    async run(headers) {
      const s = sample!(world);
      const args: Record<string, unknown> = {
        ...s.args,
        ...(projectScoped && { projectToken: world.project.projectToken }),
      };
      const declared = field.args.filter((a) => a.name in args);
      const definitions = declared.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
      const call = declared.length ? `(${declared.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
      const query = `${kind} Matrix${definitions ? `(${definitions})` : ''} { ${field.name}${call} ${selectionOf(field.type)} }`;
      if (kind === 'subscription') return subscribe(headers, query, args);
      const uploads = Object.entries(args).filter(([, v]) => isUpload(v));
      let res;
      if (uploads.length) {
        const variables = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, isUpload(v) ? null : v]));
        const body = multipart([
          { name: 'operations', content: JSON.stringify({ query, variables }) },
          {
            name: 'map',
            content: JSON.stringify(Object.fromEntries(uploads.map(([name], i) => [String(i), [`variables.${name}`]]))),
          },
          ...uploads.map(([, v], i) => ({
            name: String(i),
            fileName: (v as typeof UPLOAD).name,
            content: (v as typeof UPLOAD).content,
          })),
        ]);
        res = await service.request({
          method: 'POST',
          url: '/graphql',
          headers: { ...headers, ...body.headers },
          payload: body.payload,
        });
      } else {
        res = await service.request({
          method: 'POST',
          url: '/graphql',
          headers: { ...headers, 'content-type': 'application/json' },
          payload: JSON.stringify({ query, variables: args }),
        });
      }
      const parsed = JSON.parse(res.body);
      return {
        status: res.statusCode,
        code: parsed.errors?.[0]?.extensions?.code,
        data: withoutNulls(parsed.data),
        body: res.body,
      };
    },
  };
  return op;
}

/** A subscription over graphql-ws, the credential in connectionParams; the first event or error ends it. */
async function subscribe(
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown>,
): Promise<Answer> {
  // A browser's Origin is the upgrade request's (connectionParams cannot claim one): the in-context row's.
  const { origin } = headers;
  const socket = origin
    ? class extends WebSocket {
        constructor(url: string, protocols: string[]) {
          super(url, protocols, { origin });
        }
      }
    : WebSocket;
  const client = createClient({
    url: `${service.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: socket,
    connectionParams: headers,
    lazy: true,
    retryAttempts: 0,
  });
  try {
    const first = await new Promise<
      { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] } | 'open'
    >((resolve, reject) => {
      // An allowed subscription stays open until an event: give it a moment.
      const timer = setTimeout(() => resolve('open'), 1500);
      client.subscribe(
        { query, variables },
        {
          next: (value) => {
            clearTimeout(timer);
            resolve(value as never);
          },
          error: (error) => {
            clearTimeout(timer);
            if (Array.isArray(error)) resolve({ errors: error as never });
            else reject(error);
          },
          complete: () => {
            clearTimeout(timer);
            resolve({});
          },
        },
      );
    });
    if (first === 'open') return { status: 200, data: undefined, body: '' };
    return {
      status: 200,
      code: first.errors?.[0]?.extensions?.code,
      data: withoutNulls(first.data),
      body: JSON.stringify(first),
    };
  } finally {
    await client.dispose();
  }
}

function operations(): Operation[] {
  const rest = ALL_ROUTES.map(restOperation);
  const graphql = (
    [
      ['query', schema.getQueryType()],
      ['mutation', schema.getMutationType()],
      ['subscription', schema.getSubscriptionType()],
    ] as const
  ).flatMap(([kind, type]) => Object.values(type?.getFields() ?? {}).map((field) => graphqlOperation(kind, field)));
  const all = [...rest, ...graphql];
  for (const op of rest) op.namesVictimResource = REST_SAMPLES[op.id]?.(placeholderWorld).victimResource === true;
  const given = (op: Operation) =>
    op.kind === 'rest' ? REST_SAMPLES[op.id]?.(placeholderWorld) : GRAPHQL_SAMPLES[op.id]?.(placeholderWorld);
  const order = (op: Operation) => (given(op)?.final ? 2 : given(op)?.last ? 1 : 0);
  return [0, 1, 2].flatMap((rank) => all.filter((op) => order(op) === rank));
}
const placeholderAccount = { id: 0, email: 'placeholder@example.com', token: '', basic: '' } as TestAccount;
const placeholderWorld = {
  jobId: 'job',
  attacker: placeholderAccount,
  target: placeholderAccount,
  doomed: placeholderAccount,
  project: { projectToken: 'p', apiKey: 'k', id: 0 },
  webhookId: 0,
  doomedWebhookId: 0,
  activityId: '0',
  cellChangeId: '0',
} as World;

// --- The tests ---------------------------------------------------------------------------

const OPERATIONS = operations();

describe('the matrix covers every operation', () => {
  it('has sample arguments for every REST route and every GraphQL field (and none for operations that are gone)', () => {
    const restIds = ALL_ROUTES.map((r) => `${r.method} ${r.path}`);
    const graphqlIds = OPERATIONS.filter((op) => op.kind !== 'rest').map((op) => op.id);
    expect(
      restIds.filter((id) => !REST_SAMPLES[id]),
      'REST routes without sample arguments in REST_SAMPLES',
    ).toEqual([]);
    expect(
      graphqlIds.filter((id) => !GRAPHQL_SAMPLES[id]),
      'GraphQL fields without sample arguments in GRAPHQL_SAMPLES',
    ).toEqual([]);
    expect(
      Object.keys(REST_SAMPLES).filter((id) => !restIds.includes(id)),
      'samples of routes that no longer exist',
    ).toEqual([]);
    expect(
      Object.keys(GRAPHQL_SAMPLES).filter((id) => !graphqlIds.includes(id)),
      'samples of fields that no longer exist',
    ).toEqual([]);
    const undeclared = OPERATIONS.filter(
      (op) => op.kind !== 'rest' && !op.projectScoped && !op.isPublic && !op.caller,
    ).map((op) => op.id);
    expect(
      undeclared,
      'GraphQL fields without projectToken must declare their caller (or isPublic) in GRAPHQL_SAMPLES',
    ).toEqual([]);
    // Sanity: the enumeration found the operations (40 routes, 3 root types).
    expect(OPERATIONS.filter((op) => op.kind === 'rest').length).toBe(ALL_ROUTES.length);
    expect(new Set(OPERATIONS.map((op) => op.kind))).toEqual(new Set(['rest', 'query', 'mutation', 'subscription']));
  });
});

/** The refusal of an outcome: REST status, GraphQL code. */
const REFUSAL: Record<'forbidden' | 'not-found', { status: number; code: string }> = {
  forbidden: { status: 403, code: 'FORBIDDEN' },
  'not-found': { status: 404, code: 'NOT_FOUND' },
};

/**
 * The last fingerprints taken, while nothing may have changed since: a refused
 * run changes nothing, so its "after" is the next run's "before" (half the
 * fingerprinting). Dropped by whatever may write.
 */
let lastFingerprint: Partial<Record<'all' | 'victim', Record<string, string>>> = {};

async function check(op: Operation, credential: Credential): Promise<string | undefined> {
  const problem = await verdict(op, credential);
  if (problem) {
    // A refusal that did not refuse may have changed the world: put it back and
    // fingerprint afresh, so that one failure does not cascade into the next rows.
    lastFingerprint = {};
    if (credential.expect(op) !== 'allowed') await op.restore().catch(() => undefined);
  }
  return problem;
}

async function verdict(op: Operation, credential: Credential): Promise<string | undefined> {
  if (await op.prepare?.()) lastFingerprint = {};
  const expected = credential.expect(op);
  const scope = expected === 'own' ? 'victim' : 'all';
  const before = expected === 'allowed' ? undefined : (lastFingerprint[scope] ?? (await fingerprint(scope)));
  // An allowed run writes; an 'own' one may write outside the victim's rows.
  lastFingerprint =
    expected === 'allowed' ? {} : expected === 'own' ? { victim: lastFingerprint.victim } : lastFingerprint;
  const wal = expected === 'allowed' ? undefined : await walPosition();
  const answer = await op.run(credential.headers(op, world));
  const what = `${expected}, got ${answer.status}${answer.code ? ` ${answer.code}` : ''}: ${answer.body.slice(0, 300)}`;
  if (expected === 'allowed') {
    const refused = op.kind === 'rest' ? answer.status !== 200 : answer.code !== undefined;
    if (refused) return `expected ${what}`;
    await op.restore();
    return undefined;
  }
  if (expected === 'forbidden' || expected === 'not-found') {
    const { status, code } = REFUSAL[expected];
    if (op.kind === 'rest' ? answer.status !== status : answer.code !== code) return `expected ${what}`;
    if (answer.data !== undefined) return `refused with data: ${answer.body.slice(0, 300)}`;
  }
  if (answer.status >= 500) return `expected ${what}`;
  const leaked = (credential.secrets?.(world) ?? world.secrets).find((secret) => answer.body.includes(secret));
  if (leaked)
    return `the answer holds the victim's ${leaked === SECRET ? 'texts' : leaked === world.project.apiKey ? 'API key' : 'e-mail'}: ${answer.body.slice(0, 300)}`;
  const after = (await walPosition()) === wal ? before! : await fingerprint(scope);
  if (op.kind !== 'subscription') lastFingerprint = { [scope]: after };
  const changed = Object.keys(before!).filter((table) => before![table] !== after[table]);
  if (changed.length) return `changed ${scope === 'victim' ? "the victim's rows of " : ''}${changed.join(', ')}`;
  return undefined;
}

describe('every operation × every credential', () => {
  it(
    `${OPERATIONS.length} operations × ${CREDENTIALS.length} credentials: refused as the contract says, no data, no change; the owner allowed`,
    { timeout: 300_000 },
    async () => {
      const failures: string[] = [];
      for (const op of OPERATIONS) {
        if (op.kind === 'subscription') {
          // A subscription writes nothing and an allowed one is only known by staying open a while: every row at once.
          const problems = await Promise.all(CREDENTIALS.map((credential) => check(op, credential)));
          problems.forEach(
            (problem, i) => problem && failures.push(`${op.id} with ${CREDENTIALS[i]!.name}: ${problem}`),
          );
          continue;
        }
        // The refusals first, then the rows that may write ('own' outside the victim's rows, 'allowed'): the
        // refusals share one fingerprint of every table, which a write would make stale (508 fingerprints a run
        // became 420). The owner stays last.
        const rank = (credential: Credential) =>
          ['forbidden', 'not-found', 'own', 'allowed'].indexOf(credential.expect(op));
        const refusedFirst = [...CREDENTIALS].sort((a, b) => rank(a) - rank(b));
        for (const credential of refusedFirst) {
          const problem = await check(op, credential);
          if (problem) failures.push(`${op.id} with ${credential.name}: ${problem}`);
        }
      }
      expect(failures).toEqual([]);
    },
  );
});
