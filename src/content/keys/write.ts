// Creating and updating translation keys (contract rules 1–6). A locked key
// refuses any change except the one that unlocks it; an update that changes
// nothing still records that the key was seen (rule 6).
import { prisma } from '../../db.js';
import { conflict, errorInEnglish, isUniqueViolation, notFound, said } from '../../errors.js';
import type { MessageText } from '../../message-text.js';
import type { TranslationKey } from '../../generated/prisma/client.js';
import { openChange } from '../changes.js';
import { enqueueProject, noteQueued } from '../findings-queue.js';
import { createKeys } from './create.js';
import {
  parseKeyChanges,
  parseNewKey,
  requireKeyName,
  namespaceOrDefault,
  type KeyChanges,
  type KeyInput,
} from './input.js';

export interface KeyAddress {
  key: string;
  namespace: string;
}

/** A key as messages name it (src/error-messages.ts): "key 'a'", "key 'a' in namespace 'n'". */
export const keyRef = ({ key, namespace }: KeyAddress): MessageText =>
  namespace === '' ? said('key', { key }) : said('key-in-namespace', { key, namespace });
export const describeKey = (address: KeyAddress) => errorInEnglish(keyRef(address));

const duplicate = (address: KeyAddress) => conflict(said('key-exists', { key: keyRef(address) }));
const locked = (address: KeyAddress) => conflict(said('key-locked', { key: keyRef(address) }));

/** Validates the address of an existing key (query parameters key and namespace). */
export function parseKeyAddress(key: unknown, namespace: unknown): KeyAddress {
  return { key: requireKeyName(key), namespace: namespaceOrDefault(namespace) };
}

export async function keyOfProject(projectId: number, address: KeyAddress): Promise<TranslationKey> {
  const row = await prisma().translationKey.findUnique({
    where: { projectId_namespace_key: { projectId, ...address } },
  });
  if (!row) throw notFound(said('key-not-found', { key: keyRef(address) }));
  return row;
}

export async function createKey(projectId: number, input: KeyInput): Promise<{ id: number }> {
  const key = parseNewKey(input);
  return prisma().$transaction(async (tx) => {
    // The change first: the key records it (a failed creation rolls both back).
    const change = await openChange(
      tx,
      projectId,
      'KEYS',
      { action: 'CREATE_KEY', key: key.key, namespace: key.namespace },
      { edits: 1 },
    );
    const [created] = await createKeys(tx, projectId, [key], change);
    if (!created) throw duplicate(key);
    return { id: created.id };
  });
}

/** The fields of `changes` whose value differs from the row. */
function changedFields(row: TranslationKey, changes: KeyChanges): (keyof KeyChanges)[] {
  return (Object.keys(changes) as (keyof KeyChanges)[]).filter((field) => {
    const value = changes[field];
    if (value === undefined) return false;
    if (field === 'tags') return JSON.stringify(value) !== JSON.stringify(row.tags);
    return value !== row[field];
  });
}

export async function updateKey(projectId: number, address: KeyAddress, input: KeyInput): Promise<{ id: number }> {
  const changes = parseKeyChanges(input);
  const row = await keyOfProject(projectId, address);
  const changed = changedFields(row, changes);
  if (row.lock && changes.lock !== false && changed.some((f) => f !== 'lock')) throw locked(address);
  const target = { key: changes.key ?? row.key, namespace: changes.namespace ?? row.namespace };
  const now = new Date();
  try {
    await prisma().$transaction(async (tx) => {
      if (
        (changed.includes('key') || changed.includes('namespace')) &&
        (await tx.translationKey.findUnique({
          where: { projectId_namespace_key: { projectId, ...target } },
          select: { id: true },
        }))
      ) {
        throw duplicate(target);
      }
      const data = Object.fromEntries(changed.map((f) => [f, changes[f]]));
      // Seen without a change (rule 6) is no change of content.
      if (changed.length) {
        await openChange(
          tx,
          projectId,
          'KEYS',
          {
            action: 'CHANGE_KEY',
            key: row.key,
            namespace: row.namespace,
            fields: changed,
            ...(target.key !== row.key || target.namespace !== row.namespace
              ? { newKey: target.key, newNamespace: target.namespace }
              : {}),
          },
          { edits: 1 },
        );
      }
      await tx.translationKey.update({
        where: { id: row.id },
        data: {
          ...data,
          ...(changed.includes('deprecated') ? { deprecatedAt: changes.deprecated ? now : null } : {}),
          ...(changed.length ? { modifiedAt: now } : {}),
          lastSeenAt: now,
        },
      });
      // The characters-limit check reads the limit, the consistency checks' messages the key's name
      // (and a plural suffix decides which keys they compare): the key's cells are checked again.
      if (changed.some((f) => f === 'charactersLimit' || f === 'key' || f === 'namespace')) {
        if (await enqueueProject(tx, projectId, [row.id])) noteQueued();
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(target);
    throw error;
  }
  return { id: row.id };
}
