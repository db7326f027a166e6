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
// refusal above it is the credential's and not a bad sample's. New kinds of
// credential (team roles: viewer, translator, admin) are new rows whose
// `expect` says, per operation, 'allowed' or the refusal.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { getNamedType, isLeafType, isListType, isNonNullType, isObjectType, type GraphQLField, type GraphQLOutputType } from 'graphql';
import { ALL_ROUTES } from '../../rest-compat/index.js';
import type { RestRoute } from '../../rest-compat/route.js';
import { schema } from '../../src/schema/index.js';
import { createPersonalToken } from '../../src/accounts/accounts.js';
import { startTestService, type TestAccount, type TestService } from '../support/service.js';
import { multipart, queryString } from '../support/transfer.js';

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
}

interface Credential {
  name: string;
  headers(op: Operation, w: World): Record<string, string>;
  expect(op: Operation): Outcome;
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
  file?: { name: string; content: string };
  victimResource?: boolean;
  /** Run after every other operation (it removes what others use). */
  last?: boolean;
}

const json = (value: unknown) => JSON.stringify(value);

const REST_SAMPLES: Record<string, (w: World) => RestSample> = {
  'GET /api/v2/projects': () => ({}),
  'POST /api/v2/projects': () => ({ body: { name: 'matrix v2' } }),
  'GET /api/v1/projects': () => ({}),
  'POST /api/v1/projects': () => ({ body: { name: 'matrix v1' } }),
  'GET /api/v2/project': () => ({}),
  'POST /api/v1/jobs/auto-translate': () => ({ body: { translationProvider: 'PSEUDO', sourceProjectLanguage: 'en', targetProjectLanguage: 'de', targetLanguage: 'de' }, victimResource: true }),
  'POST /api/v2/jobs/auto-translate': () => ({ body: { translationProvider: 'PSEUDO', sourceProjectLanguage: 'en', targets: [{ targetProjectLanguage: 'de', targetLanguage: 'de' }] }, victimResource: true }),
  'GET /api/v1/jobs': () => ({}),
  'GET /api/v2/jobs': () => ({}),
  'GET /api/v1/jobs/:jobId': (w) => ({ params: { jobId: w.jobId }, victimResource: true }),
  'GET /api/v2/environments': () => ({}),
  'POST /api/v2/environments': () => ({ body: { key: 'rest-env', name: 'REST env' } }),
  'GET /api/v2/environments/:environmentKey': () => ({ params: { environmentKey: 'victim-env' }, victimResource: true }),
  'POST /api/v2/environments/:environmentKey/publish': () => ({ params: { environmentKey: '_latest' }, body: {} }),
  'POST /api/v2/import': () => ({ query: { uploadFormat: 'single-language-json', languageKey: 'en' }, file: { name: 'en.json', content: json({ 'rest.import': 'Imported' }) } }),
  'GET /api/v4/export': () => ({ query: { downloadFormat: 'multi-language-json' } }),
  'GET /api/v3/export': () => ({ query: { downloadFormat: 'multi-language-json' } }),
  'POST /api/v1/languages': () => ({ body: { key: 'pt', name: 'Portuguese' } }),
  'GET /api/v1/languages': () => ({}),
  'PATCH /api/v1/languages/:languageKey': () => ({ params: { languageKey: 'fr' }, body: { name: 'Français' }, victimResource: true }),
  'DELETE /api/v1/languages/:languageKey': () => ({ params: { languageKey: 'it' }, victimResource: true }),
  'POST /api/v1/customers': () => ({ body: { key: 'rest-customer', description: 'REST' } }),
  'GET /api/v1/customers': () => ({}),
  'GET /api/v1/customers/:customerKey': () => ({ params: { customerKey: 'victim-customer' }, victimResource: true }),
  'PATCH /api/v1/customers/:customerKey': () => ({ params: { customerKey: 'victim-customer' }, body: { description: 'Changed' }, victimResource: true }),
  'DELETE /api/v1/customers/:customerKey': () => ({ params: { customerKey: 'doomed-customer' }, victimResource: true }),
  'GET /api/v1/translation-keys': () => ({}),
  'POST /api/v1/translation-keys': () => ({ body: { key: 'rest.created' } }),
  'PATCH /api/v1/translation-keys': () => ({ query: { key: 'victim.key' }, body: { description: 'Changed' }, victimResource: true }),
  'DELETE /api/v1/translation-keys': () => ({ query: { key: 'doomed.one' }, victimResource: true }),
  'DELETE /api/v1/translation-keys/bulk': () => ({ body: { translationKeys: [{ key: 'doomed.two' }] } }),
  'GET /api/v2/translations': () => ({}),
  'PATCH /api/v2/translations': () => ({ body: { key: 'victim.key', language: 'de', text: 'Geändert' }, victimResource: true }),
  'POST /api/v1/translations': () => ({ body: { content: [{ key: 'rest.added', language: 'en', text: 'Added' }] } }),
  'PATCH /api/v1/translations': () => ({ body: { content: [{ key: 'victim.key', language: 'en', text: 'Updated' }] } }),
  'DELETE /api/v1/translations/purge': () => ({ last: true }),
  'POST /cli/v2/upload': () => ({ query: { uploadFormat: 'single-language-json', languageKey: 'en' }, file: { name: 'en.json', content: json({ 'cli.upload': 'Uploaded' }) } }),
  'POST /cli/v2/upload-preview': () => ({ query: { uploadFormat: 'single-language-json', languageKey: 'en' }, file: { name: 'en.json', content: json({ 'cli.preview': 'Previewed' }) } }),
  'GET /cli/v2/download': () => ({ query: { downloadFormat: 'multi-language-json' } }),
  'POST /cli/v1/stacktrace': () => ({ body: { message: 'matrix' } }),
};

// GraphQL: the arguments besides projectToken (added for every field that
// takes one). A File argument is sent as a multipart upload.
interface GraphQLSample {
  args?: Record<string, unknown>;
  victimResource?: boolean;
  last?: boolean;
  /** Static data every caller may read. */
  isPublic?: boolean;
  /**
   * Who a field without projectToken is for (required for such fields): an
   * account (acts on its own), a project key (acts within its project), or
   * either (each gets its own).
   */
  caller?: 'account' | 'project-key' | 'any';
}
const UPLOAD = { upload: true, name: 'en.json', content: json({ 'gql.import': 'Imported' }) };

const GRAPHQL_SAMPLES: Record<string, (w: World) => GraphQLSample> = {
  'Query.customer': () => ({ args: { key: 'victim-customer' } }),
  'Query.customers': () => ({}),
  'Query.environment': () => ({ args: { key: 'victim-env' } }),
  'Query.environmentStatus': () => ({ args: { key: 'victim-env' } }),
  'Query.environments': () => ({}),
  'Query.fileFormats': () => ({ isPublic: true }),
  'Query.job': (w) => ({ args: { jobId: w.jobId } }),
  'Query.jobs': () => ({}),
  'Query.languages': () => ({}),
  'Query.project': () => ({}),
  'Query.projects': () => ({ caller: 'any' }),
  'Query.translationCount': () => ({}),
  'Query.translationKey': () => ({ args: { key: 'victim.key' } }),
  'Query.translationKeyPage': () => ({}),
  'Query.translationKeys': () => ({ args: { first: 10 } }),
  'Query.translations': () => ({}),
  'Mutation.autoTranslate': () => ({ args: { input: { translationProvider: 'PSEUDO', sourceProjectLanguage: 'en', targets: [{ targetProjectLanguage: 'de', targetLanguage: 'de' }] } } }),
  'Mutation.cancelJob': (w) => ({ args: { jobId: w.jobId }, last: true }),
  'Mutation.createCustomer': () => ({ args: { input: { key: 'gql-customer' } } }),
  'Mutation.createEnvironment': () => ({ args: { key: 'gql-env', name: 'GraphQL env' } }),
  'Mutation.createLanguage': () => ({ args: { input: { key: 'nl', name: 'Dutch' } } }),
  'Mutation.createProject': () => ({ args: { name: 'matrix gql' }, caller: 'account' }),
  'Mutation.createTranslationKey': () => ({ args: { input: { key: 'gql.created' } } }),
  'Mutation.deleteCustomer': () => ({ args: { key: 'doomed-customer-2' } }),
  'Mutation.deleteLanguage': () => ({ args: { key: 'es' } }),
  'Mutation.deleteTranslationKey': () => ({ args: { key: 'doomed.three' } }),
  'Mutation.deleteTranslationKeys': () => ({ args: { translationKeys: [{ key: 'doomed.four' }] } }),
  'Mutation.exportTranslations': () => ({ args: { downloadFormat: 'multi-language-json' } }),
  'Mutation.importFile': () => ({ args: { file: UPLOAD, uploadFormat: 'single-language-json', languageKey: 'en' } }),
  'Mutation.importTranslations': () => ({ args: { content: [{ key: 'gql.added', language: 'en', text: 'Added' }] } }),
  'Mutation.previewImport': () => ({ args: { file: UPLOAD, uploadFormat: 'single-language-json', languageKey: 'en' } }),
  'Mutation.publishEnvironment': () => ({ args: { key: '_latest' } }),
  'Mutation.purgeTranslations': () => ({ last: true }),
  'Mutation.reportClientError': () => ({ args: { message: 'matrix' }, caller: 'project-key' }),
  'Mutation.setEnvironmentOrder': () => ({ args: { keys: ['_latest', '_production', 'victim-env', 'rest-env', 'gql-env'] } }),
  'Mutation.setProviderApiKey': () => ({ args: { provider: 'MT_PROVIDER_A', apiKey: 'matrix-provider-key' } }),
  'Mutation.updateCustomer': () => ({ args: { key: 'victim-customer', input: { description: 'Changed by GraphQL' } } }),
  'Mutation.updateEnvironment': () => ({ args: { key: 'victim-env', name: 'Renamed' } }),
  'Mutation.updateLanguage': () => ({ args: { key: 'fr', input: { name: 'French' } } }),
  'Mutation.updateTranslation': () => ({ args: { input: { key: 'victim.key', language: 'de', text: 'Neu' } } }),
  'Mutation.updateTranslationKey': () => ({ args: { key: 'victim.key', input: { description: 'Changed by GraphQL' } } }),
  'Mutation.updateTranslations': () => ({ args: { content: [{ key: 'victim.key', language: 'en', text: 'Updated by GraphQL' }] } }),
  'Subscription.jobProgress': (w) => ({ args: { jobId: w.jobId } }),
  'Subscription.projectJobEvents': () => ({}),
  'Subscription.publicationProgress': () => ({}),
};

// --- Credentials (rows) -----------------------------------------------------------

const accountScheme = (op: Operation) => op.kind === 'rest' && op.auth !== 'apiKey';

/** What a credential that must not reach the victim gets: the public operations answer anyone. */
const denied = (outcome: (op: Operation) => Outcome) => (op: Operation): Outcome => (op.isPublic ? 'own' : outcome(op));

// A team role is one more row, its member's token in `headers` and its rights
// in `expect`, e.g. a viewer of the victim's project:
//   { name: 'a viewer of the project', headers: (_op, w) => ({ authorization: w.viewer.token }),
//     expect: (op) => (op.kind === 'query' || op.kind === 'subscription' || (op.kind === 'rest' && op.id.startsWith('GET ')) ? 'allowed' : 'forbidden') }
// (with the member added to World in beforeAll). Rows run in order, the owner last.
const CREDENTIALS: Credential[] = [
  {
    name: 'no credential',
    headers: () => ({}),
    expect: denied(() => 'forbidden'),
  },
  {
    name: 'a wrong credential of the right scheme',
    headers: (op, w): Record<string, string> =>
      op.kind === 'rest' && op.auth === 'apiKey' ? { 'x-service-token': `lms_key_${randomBytes(16).toString('hex')}` }
        : op.kind === 'rest' && op.auth === 'basic' ? { authorization: `Basic ${Buffer.from(`${w.victim.email}:not-the-password`).toString('base64')}` }
          : { authorization: `lms_pat_${randomBytes(16).toString('hex')}` },
    expect: denied(() => 'forbidden'),
  },
  {
    name: "the victim's valid credential of the wrong scheme",
    // REST: the other scheme's credential; GraphQL: the API key sent as a token.
    headers: (op, w): Record<string, string> => (op.kind === 'rest' && op.auth === 'apiKey' ? { authorization: w.victim.token } : op.kind === 'rest' ? { 'x-service-token': w.project.apiKey } : { authorization: w.project.apiKey }),
    expect: denied(() => 'forbidden'),
  },
  {
    name: "another project's API key",
    headers: (_op, w) => ({ 'x-service-token': w.attackerProject.apiKey }),
    expect: denied((op) => {
      if (op.kind === 'rest') return accountScheme(op) ? 'forbidden' : op.namesVictimResource ? 'not-found' : 'own';
      if (op.projectScoped) return 'not-found';
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
  {
    name: 'the owner (the samples are right)',
    headers: (op, w): Record<string, string> => {
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

beforeAll(async () => {
  service = await startTestService({ listen: true, worker: false, env: { RATE_LIMIT_PER_MINUTE: '0', PUBLISH_RATE_LIMIT: '1000' } });
  const victim = await service.account();
  const attacker = await service.account();
  const project = await victim.project('Victim project');
  const attackerProject = await attacker.project('Attacker project');
  const key = { 'x-service-token': project.apiKey, 'content-type': 'application/json' };
  for (const [code, name] of [['de', 'German'], ['fr', 'French'], ['it', 'Italian'], ['es', 'Spanish']]) {
    await ok(await service.request({ method: 'POST', url: '/api/v1/languages', headers: key, payload: { key: code, name } }), 'language');
  }
  for (const customer of ['victim-customer', 'doomed-customer', 'doomed-customer-2']) {
    await ok(await service.request({ method: 'POST', url: '/api/v1/customers', headers: key, payload: { key: customer, description: `${SECRET} customer` } }), 'customer');
  }
  const content = ['victim.key', 'doomed.one', 'doomed.two', 'doomed.three', 'doomed.four'].flatMap((k) => [
    { key: k, language: 'en', text: `${SECRET} ${k}`, description: `${SECRET} description` },
    { key: k, language: 'de', text: `${SECRET} de ${k}` },
  ]);
  await ok(await service.request({ method: 'POST', url: '/api/v1/translations', headers: key, payload: { content } }), 'translations');
  await ok(await service.request({ method: 'POST', url: '/api/v2/environments', headers: key, payload: { key: 'victim-env', name: `${SECRET} env` } }), 'environment');
  const job = await ok(await service.request({ method: 'POST', url: '/api/v1/jobs/auto-translate', headers: key, payload: { translationProvider: 'PSEUDO', sourceProjectLanguage: 'en', targetProjectLanguage: 'fr', targetLanguage: 'fr' } }), 'job');
  const jobId = (Array.isArray(job.data) ? job.data[0] : job.data).jobId as string;
  const prisma = service.db.prisma;
  const projectRow = await prisma.project.findFirstOrThrow({ where: { projectToken: project.projectToken }, select: { id: true } });
  // A revoked token: issued, then its row removed (what revoking a token does).
  const revokedToken = await createPersonalToken(victim.id, 'revoked');
  await prisma.personalToken.deleteMany({ where: { accountId: victim.id, name: 'revoked' } });
  // A deleted project: created, then deleted with everything in it.
  const deleted = await victim.project('Deleted project');
  await prisma.project.deleteMany({ where: { projectToken: deleted.projectToken } });
  world = {
    victim, attacker, attackerProject, revokedToken, jobId,
    project: { ...project, id: projectRow.id },
    deletedProjectKey: deleted.apiKey,
    secrets: [SECRET, project.apiKey, victim.email],
  };
}, 120_000);
afterAll(() => service?.close());

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
      return [`SELECT '${table}' AS "table", md5(coalesce(string_agg(x, ',' ORDER BY x), '')) AS digest FROM (SELECT (to_jsonb(t) - 'lastUsedAt')::text AS x FROM "${table}" t ${where}) s`];
    });
    expect(selects.length).toBeGreaterThan(5);
    sql = selects.join(' UNION ALL ');
    fingerprintQueries.set(scope, sql);
  }
  const rows = await prisma.$queryRawUnsafe<{ table: string; digest: string }[]>(sql);
  return Object.fromEntries(rows.map((r) => [r.table, r.digest]));
}

// --- Running operations ---------------------------------------------------------------

const withoutNulls = (value: unknown): unknown => {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object') return value;
  const entries = Object.entries(value as object).map(([k, v]) => [k, withoutNulls(v)] as const).filter(([, v]) => v !== undefined);
  return entries.length ? Object.fromEntries(entries) : undefined;
};

function restOperation(route: RestRoute): Operation {
  const id = `${route.method} ${route.path}`;
  const sample = REST_SAMPLES[id];
  const op: Operation = {
    id, kind: 'rest', auth: route.auth, projectScoped: route.auth === 'apiKey', isPublic: false,
    namesVictimResource: false,
    async run(headers) {
      const s = sample!(world);
      const url = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(s.params?.[name] ?? 'x')) + queryString(s.query ?? {});
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

const isUpload = (value: unknown): value is typeof UPLOAD => typeof value === 'object' && value !== null && 'upload' in value;

function graphqlOperation(kind: 'query' | 'mutation' | 'subscription', field: GraphQLField<unknown, unknown>): Operation {
  const id = `${kind === 'query' ? 'Query' : kind === 'mutation' ? 'Mutation' : 'Subscription'}.${field.name}`;
  const sample = GRAPHQL_SAMPLES[id];
  const projectScoped = field.args.some((a) => a.name === 'projectToken');
  const given = sample?.(placeholderWorld) ?? {};
  const op: Operation = {
    id, kind, projectScoped, isPublic: given.isPublic === true, namesVictimResource: given.victimResource === true, caller: given.caller,
    async run(headers) {
      const s = sample!(world);
      const args: Record<string, unknown> = { ...s.args, ...(projectScoped && { projectToken: world.project.projectToken }) };
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
          { name: 'map', content: JSON.stringify(Object.fromEntries(uploads.map(([name], i) => [String(i), [`variables.${name}`]]))) },
          ...uploads.map(([, v], i) => ({ name: String(i), fileName: (v as typeof UPLOAD).name, content: (v as typeof UPLOAD).content })),
        ]);
        res = await service.request({ method: 'POST', url: '/graphql', headers: { ...headers, ...body.headers }, payload: body.payload });
      } else {
        res = await service.request({ method: 'POST', url: '/graphql', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify({ query, variables: args }) });
      }
      const parsed = JSON.parse(res.body);
      return { status: res.statusCode, code: parsed.errors?.[0]?.extensions?.code, data: withoutNulls(parsed.data), body: res.body };
    },
  };
  return op;
}

/** A subscription over graphql-ws, the credential in connectionParams; the first event or error ends it. */
async function subscribe(headers: Record<string, string>, query: string, variables: Record<string, unknown>): Promise<Answer> {
  const client = createClient({ url: `${service.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: headers, lazy: true, retryAttempts: 0 });
  try {
    const first = await new Promise<{ data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] } | 'open'>((resolve, reject) => {
      // An allowed subscription stays open until an event: give it a moment.
      const timer = setTimeout(() => resolve('open'), 1500);
      client.subscribe({ query, variables }, {
        next: (value) => { clearTimeout(timer); resolve(value as never); },
        error: (error) => { clearTimeout(timer); Array.isArray(error) ? resolve({ errors: error as never }) : reject(error); },
        complete: () => { clearTimeout(timer); resolve({}); },
      });
    });
    if (first === 'open') return { status: 200, data: undefined, body: '' };
    return { status: 200, code: first.errors?.[0]?.extensions?.code, data: withoutNulls(first.data), body: JSON.stringify(first) };
  } finally {
    await client.dispose();
  }
}

function operations(): Operation[] {
  const rest = ALL_ROUTES.map(restOperation);
  const graphql = ([['query', schema.getQueryType()], ['mutation', schema.getMutationType()], ['subscription', schema.getSubscriptionType()]] as const)
    .flatMap(([kind, type]) => Object.values(type?.getFields() ?? {}).map((field) => graphqlOperation(kind, field)));
  const all = [...rest, ...graphql];
  for (const op of rest) op.namesVictimResource = REST_SAMPLES[op.id]?.(placeholderWorld).victimResource === true;
  const last = (op: Operation) => (op.kind === 'rest' ? REST_SAMPLES[op.id]?.(placeholderWorld).last : GRAPHQL_SAMPLES[op.id]?.(placeholderWorld).last) === true;
  return [...all.filter((op) => !last(op)), ...all.filter(last)];
}
const placeholderWorld = { jobId: 'job' } as World;

// --- The tests ---------------------------------------------------------------------------

const OPERATIONS = operations();

describe('the matrix covers every operation', () => {
  it('has sample arguments for every REST route and every GraphQL field (and none for operations that are gone)', () => {
    const restIds = ALL_ROUTES.map((r) => `${r.method} ${r.path}`);
    const graphqlIds = OPERATIONS.filter((op) => op.kind !== 'rest').map((op) => op.id);
    expect(restIds.filter((id) => !REST_SAMPLES[id]), 'REST routes without sample arguments in REST_SAMPLES').toEqual([]);
    expect(graphqlIds.filter((id) => !GRAPHQL_SAMPLES[id]), 'GraphQL fields without sample arguments in GRAPHQL_SAMPLES').toEqual([]);
    expect(Object.keys(REST_SAMPLES).filter((id) => !restIds.includes(id)), 'samples of routes that no longer exist').toEqual([]);
    expect(Object.keys(GRAPHQL_SAMPLES).filter((id) => !graphqlIds.includes(id)), 'samples of fields that no longer exist').toEqual([]);
    const undeclared = OPERATIONS.filter((op) => op.kind !== 'rest' && !op.projectScoped && !op.isPublic && !op.caller).map((op) => op.id);
    expect(undeclared, 'GraphQL fields without projectToken must declare their caller (or isPublic) in GRAPHQL_SAMPLES').toEqual([]);
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

async function check(op: Operation, credential: Credential): Promise<string | undefined> {
  const expected = credential.expect(op);
  const scope = expected === 'own' ? 'victim' : 'all';
  const before = expected === 'allowed' ? undefined : await fingerprint(scope);
  const answer = await op.run(credential.headers(op, world));
  const what = `${expected}, got ${answer.status}${answer.code ? ` ${answer.code}` : ''}: ${answer.body.slice(0, 300)}`;
  if (expected === 'allowed') {
    const refused = op.kind === 'rest' ? answer.status !== 200 : answer.code !== undefined;
    return refused ? `expected ${what}` : undefined;
  }
  if (expected === 'forbidden' || expected === 'not-found') {
    const { status, code } = REFUSAL[expected];
    if (op.kind === 'rest' ? answer.status !== status : answer.code !== code) return `expected ${what}`;
    if (answer.data !== undefined) return `refused with data: ${answer.body.slice(0, 300)}`;
  }
  if (answer.status >= 500) return `expected ${what}`;
  const leaked = world.secrets.find((secret) => answer.body.includes(secret));
  if (leaked) return `the answer holds the victim's ${leaked === SECRET ? 'texts' : leaked === world.project.apiKey ? 'API key' : 'e-mail'}: ${answer.body.slice(0, 300)}`;
  const after = await fingerprint(scope);
  const changed = Object.keys(before!).filter((table) => before![table] !== after[table]);
  if (changed.length) return `changed ${scope === 'victim' ? "the victim's rows of " : ''}${changed.join(', ')}`;
  return undefined;
}

describe('every operation × every credential', () => {
  it(`${OPERATIONS.length} operations × ${CREDENTIALS.length} credentials: refused as the contract says, no data, no change; the owner allowed`, { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    for (const op of OPERATIONS) {
      for (const credential of CREDENTIALS) {
        const problem = await check(op, credential);
        if (problem) failures.push(`${op.id} with ${credential.name}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
