// Hosting environments of a project: the built-in _latest and _production and
// custom ones, in the project's publication order (Environment.position).
// The order is the project setting "environment order": _latest is always
// first and publishes from the editor, _production always publishes from
// _latest, and a custom environment publishes from the one right above it.
import { prisma, type Db } from '../db.js';
import { Prisma } from '../generated/prisma/client.js';
import { badRequest, conflict, isUniqueViolation, notFound, said } from '../errors.js';

export const LATEST = '_latest';
export const PRODUCTION = '_production';
export const EDITOR = 'editor';
export const RESERVED_KEYS = [LATEST, PRODUCTION];

/** Custom keys appear in CDN paths: lowercase letters, digits, '-' and '_', not starting with '_'. */
export const ENVIRONMENT_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,39}$/;
export const MAX_ENVIRONMENT_NAME = 100;
const COLOR_PATTERN = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
export const DEFAULT_COLOR = '#808080';

export interface PublicationSummary {
  id: number;
  version: string;
  label: string | null;
  createdAt: Date;
  completedAt: Date | null;
  numberOfKeys: number;
  numberOfLanguages: number;
  numberOfNonEmptyTranslations: number;
  numberOfResources: number;
}

export interface EnvironmentDetails {
  id: number;
  projectToken: string;
  key: string;
  name: string;
  color: string;
  builtIn: boolean;
  position: number;
  /** 'editor' for _latest, otherwise the key of the environment it publishes from. */
  source: string;
  /** True while a publication of the project to this environment runs. */
  publishing: boolean;
  createdAt: Date;
  /** The publication being served (the last complete one), or null before the first. */
  lastPublication: PublicationSummary | null;
  /** Publications are refused while the project has quality-check errors (src/findings/gate.ts). */
  requireNoErrors: boolean;
}

interface EnvironmentRow {
  id: number;
  requireNoErrors: boolean;
  projectToken: string;
  key: string;
  name: string;
  color: string;
  builtIn: boolean;
  position: number;
  createdAt: Date;
  publishing: boolean;
  pub_id: number | null;
  version: string | null;
  label: string | null;
  pub_created: Date | null;
  completed: Date | null;
  keys: number | null;
  languages: number | null;
  non_empty: number | null;
  resources: number | null;
}

/** The source of each environment given the ordered keys. */
export function sourceOf(key: string, orderedKeys: string[]): string {
  if (key === LATEST) return EDITOR;
  if (key === PRODUCTION) return LATEST;
  const index = orderedKeys.indexOf(key);
  return index > 0 ? orderedKeys[index - 1]! : LATEST;
}

/** Every environment of the project in publication order, with its served publication; two queries. */
export async function listEnvironments(projectId: number, db: Db = prisma()): Promise<EnvironmentDetails[]> {
  const rows = await db.$queryRaw<EnvironmentRow[]>(Prisma.sql`/* hosting:environments */
    SELECT e.id, pr."projectToken", e.key, e.name, e.color, e."builtIn", e.position, e."createdAt", e."requireNoErrors",
            EXISTS (SELECT 1 FROM "Publication" r WHERE r."environmentId" = e.id AND r.state = 'RUNNING' AND r."leaseExpiresAt" > now()) AS publishing,
            p.id AS pub_id, p.version, p.label, p."createdAt" AS pub_created, p."completedAt" AS completed,
            p."numberOfKeys" AS keys, p."numberOfLanguages" AS languages, p."numberOfNonEmptyTranslations" AS non_empty,
            jsonb_array_length(p.resources)::int AS resources
       FROM "Environment" e JOIN "Project" pr ON pr.id = e."projectId"
       LEFT JOIN "Publication" p ON p.id = e."currentPublicationId"
      WHERE e."projectId" = ${projectId}
      ORDER BY e.position, e.id`);
  const keys = rows.map((r) => r.key);
  return rows.map((r) => ({
    id: r.id,
    projectToken: r.projectToken,
    key: r.key,
    name: r.name,
    color: r.color,
    builtIn: r.builtIn,
    position: r.position,
    source: sourceOf(r.key, keys),
    publishing: r.publishing,
    createdAt: r.createdAt,
    requireNoErrors: r.requireNoErrors,
    lastPublication:
      r.pub_id === null
        ? null
        : {
            id: r.pub_id,
            version: r.version!,
            label: r.label,
            createdAt: r.pub_created!,
            completedAt: r.completed,
            numberOfKeys: r.keys!,
            numberOfLanguages: r.languages!,
            numberOfNonEmptyTranslations: r.non_empty!,
            numberOfResources: r.resources!,
          },
  }));
}

export async function environmentDetails(
  projectId: number,
  key: string,
  db: Db = prisma(),
): Promise<EnvironmentDetails> {
  const found = (await listEnvironments(projectId, db)).find((e) => e.key === key);
  if (!found) throw notFound(said('environment-not-found', { environment: key }));
  return found;
}

export interface EnvironmentInput {
  key: string;
  name: string;
  color?: string | null;
}

export function validateEnvironmentKey(key: string): string {
  if (key === '') throw badRequest('key is required');
  if (RESERVED_KEYS.includes(key)) throw badRequest(`key ${key} is reserved for a built-in environment`);
  if (!ENVIRONMENT_KEY_PATTERN.test(key)) {
    throw badRequest(
      `key must be 1-40 lowercase letters, digits, '-' or '_', starting with a letter or digit; got '${key}'`,
    );
  }
  return key;
}

function validateName(name: string): string {
  if (name.trim() === '') throw badRequest(said('name-required'));
  if (name.trim().length > MAX_ENVIRONMENT_NAME)
    throw badRequest(`name must have at most ${MAX_ENVIRONMENT_NAME} characters`);
  return name.trim();
}

function validateColor(color: string): string {
  if (!COLOR_PATTERN.test(color)) throw badRequest(`color must be a hex color like #1a2b3c or #abc; got '${color}'`);
  return color.toLowerCase();
}

/** Creates a custom environment at the end of the publication order. */
export async function createEnvironment(projectId: number, input: EnvironmentInput): Promise<EnvironmentDetails> {
  const key = validateEnvironmentKey(input.key);
  const name = validateName(input.name);
  const color = input.color === undefined || input.color === null ? DEFAULT_COLOR : validateColor(input.color);
  const { _max } = await prisma().environment.aggregate({ where: { projectId }, _max: { position: true } });
  try {
    await prisma().environment.create({
      data: { projectId, key, name, color, builtIn: false, position: (_max.position ?? 0) + 1 },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(said('environment-exists', { environment: key }));
    throw error;
  }
  return environmentDetails(projectId, key);
}

/** Renames or recolors an environment; its key never changes. */
export async function updateEnvironment(
  projectId: number,
  key: string,
  input: { name?: string | null; color?: string | null },
): Promise<EnvironmentDetails> {
  const data: { name?: string; color?: string } = {};
  if (input.name !== undefined && input.name !== null) data.name = validateName(input.name);
  if (input.color !== undefined && input.color !== null) data.color = validateColor(input.color);
  const { count } = await prisma().environment.updateMany({ where: { projectId, key }, data });
  if (count === 0) throw notFound(said('environment-not-found', { environment: key }));
  return environmentDetails(projectId, key);
}

/**
 * Sets the publication order: every environment key exactly once, _latest
 * first. Custom environments then publish from the one above them.
 */
export async function setEnvironmentOrder(projectId: number, keys: string[]): Promise<EnvironmentDetails[]> {
  return prisma().$transaction(async (tx) => {
    const existing = (await tx.environment.findMany({ where: { projectId }, select: { key: true } })).map((e) => e.key);
    const duplicate = keys.find((k, i) => keys.indexOf(k) !== i);
    if (duplicate) throw badRequest(`environment order lists ${duplicate} more than once`);
    const unknown = keys.find((k) => !existing.includes(k));
    if (unknown) throw badRequest(`environment order lists unknown environment ${unknown}`);
    const missing = existing.find((k) => !keys.includes(k));
    if (missing) throw badRequest(`environment order must list every environment; ${missing} is missing`);
    if (keys[0] !== LATEST)
      throw badRequest(`environment order must start with ${LATEST}, which publishes from the editor`);
    await tx.$executeRaw(Prisma.sql`/* hosting:environment-order */
      UPDATE "Environment" e SET position = t.ord FROM unnest(${keys}::text[]) WITH ORDINALITY AS t(key, ord)
        WHERE e."projectId" = ${projectId} AND e.key = t.key`);
    return listEnvironments(projectId, tx);
  });
}
