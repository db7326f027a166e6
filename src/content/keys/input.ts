// The rules of a translation key's name, namespace and metadata (contract:
// Translation key, rules 2–4), in one place: key creation (create.ts,
// every path), update, the bulk translation paths and file import all ask
// these functions.
import { badRequest } from '../../errors.js';
import type { TranslationKey } from '../../generated/prisma/client.js';
import {
  charCount,
  lengthProblem,
  LIMITS,
  nameOf,
  optionalText,
  storableTextProblem,
  type FieldName,
} from '../translations/fields.js';

/** A key's fields as the schema gives them: absent or null is "not given". */
export interface KeyInput {
  key?: string | null;
  namespace?: string | null;
  description?: string | null;
  codeDescription?: string | null;
  tags?: readonly string[] | null;
  charactersLimit?: number | null;
  lock?: boolean | null;
  deprecated?: boolean | null;
}

/** The values of an update; undefined leaves a field unchanged. */
export interface KeyChanges {
  key?: string;
  namespace?: string;
  description?: string;
  codeDescription?: string;
  tags?: string[];
  /** null clears the limit. */
  charactersLimit?: number | null;
  lock?: boolean;
  deprecated?: boolean;
}

/** The problem with a key name, or undefined. Blank counts as empty. */
/**
 * A key's identity as one string, wherever keys are told apart. A name cannot
 * hold U+0000 (storableTextProblem, translations/fields.ts), so a namespaced
 * id always holds one and a default-namespace key is its own name: no new
 * string for it (an import keeps one per key of the file).
 */
export const keyIdentity = (k: { key: string; namespace: string }): string =>
  k.namespace === '' ? k.key : `${k.namespace}\u0000${k.key}`;

export function keyProblem(value: unknown, field: FieldName = 'key'): string | undefined {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    return `${nameOf(field)} is required and must not be empty`;
  if (typeof value !== 'string') return `${nameOf(field)} must be a string`;
  return storableTextProblem(value, field) ?? lengthProblem(value, field, LIMITS.key);
}

export function namespaceProblem(value: string, field: FieldName = 'namespace'): string | undefined {
  return storableTextProblem(value, field) ?? lengthProblem(value, field, LIMITS.namespace);
}

export function requireKeyName(value: unknown, field = 'key'): string {
  const problem = keyProblem(value, field);
  if (problem) throw badRequest(problem);
  return value as string;
}

/** A namespace where absent, null or empty all mean the default (empty) namespace. */
export function namespaceOrDefault(value: unknown, field = 'namespace'): string {
  const namespace = optionalText(value, field, LIMITS.namespace) ?? '';
  const problem = namespaceProblem(namespace, field);
  if (problem) throw badRequest(problem);
  return namespace;
}

function tags(value: readonly string[] | null | undefined): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = [...new Set(value.map((t) => t.trim()).filter((t) => t !== ''))];
  if (list.length > LIMITS.tags) throw badRequest(`tags must have at most ${LIMITS.tags} entries`);
  const long = list.find((t) => charCount(t) > LIMITS.tag);
  if (long !== undefined) throw badRequest(`each of tags must have at most ${LIMITS.tag} characters`);
  return list;
}

function charactersLimit(value: number | null | undefined): number | null | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === -1) return null;
  if (value < 1) {
    throw badRequest(`charactersLimit must be a positive integer, or -1 for no limit; got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Metadata fields common to create and update: null leaves them unset. */
function metadata(input: KeyInput): Omit<KeyChanges, 'key' | 'namespace'> {
  return {
    description: optionalText(input.description, 'description', LIMITS.description),
    codeDescription: optionalText(input.codeDescription, 'codeDescription', LIMITS.codeDescription),
    tags: tags(input.tags),
    charactersLimit: charactersLimit(input.charactersLimit),
    lock: input.lock ?? undefined,
    deprecated: input.deprecated ?? undefined,
  };
}

declare const checked: unique symbol;

/** A key that passed the key rules: only parseNewKey makes one, and createKeys takes only these. */
export type NewKey = Pick<
  TranslationKey,
  'key' | 'namespace' | 'description' | 'codeDescription' | 'tags' | 'charactersLimit' | 'lock' | 'deprecated'
> & { readonly [checked]: true };

/** Create (rules 2–4): key required; null or empty namespace, description and codeDescription are ignored. */
export function parseNewKey(input: KeyInput): NewKey {
  const key = requireKeyName(input.key);
  const namespace = namespaceOrDefault(input.namespace);
  const meta = metadata(input);
  return {
    key,
    namespace,
    description: meta.description ?? '',
    codeDescription: meta.codeDescription ?? '',
    tags: meta.tags ?? [],
    charactersLimit: meta.charactersLimit ?? null,
    lock: meta.lock ?? false,
    deprecated: meta.deprecated ?? false,
  } as NewKey;
}

/** Update: absent or null fields stay unchanged; an empty namespace moves the key to the default namespace. */
export function parseKeyChanges(input: KeyInput): KeyChanges {
  return {
    key: input.key === undefined || input.key === null ? undefined : requireKeyName(input.key),
    namespace:
      input.namespace === undefined || input.namespace === null ? undefined : namespaceOrDefault(input.namespace),
    ...metadata(input),
  };
}
