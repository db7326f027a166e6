// Secrets the service must read back (provider API keys, webhook signing
// secrets) are stored sealed: AES-256-GCM with the server key SECRET_KEY, a
// random 96-bit IV per value, and a purpose string as associated data, so a
// sealed value copied into another row or project does not open there.
//
// The server key: SECRET_KEY when set (required in practice for several
// instances: they must share it); otherwise DATA_DIR/secret.key, generated on
// first start with mode 0600. The database keeps one value sealed by the first
// instance (SecretKeyCheck): an instance with another key refuses to start
// rather than failing later on every stored secret.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prisma } from '../db.js';
import { logger } from '../log.js';

const PREFIX = 'sealed:v1:';
const KEY_FILE = 'secret.key';
const CHECK_PURPOSE = 'secret-key-check';
const CHECK_VALUE = 'the server key opens the stored secrets';

export class SealedSecretError extends Error {}

let serverKey: Buffer | undefined;

/** Sets the key seal and open use (the service's start-up; tests). */
export function useSecretKey(key: Buffer | undefined): void {
  if (key !== undefined && key.length !== 32) throw new SealedSecretError('The server key must have 32 bytes');
  serverKey = key;
}

function key(): Buffer {
  if (!serverKey) throw new SealedSecretError('No server key: the service has not loaded SECRET_KEY');
  return serverKey;
}

export const isSealed = (value: string): boolean => value.startsWith(PREFIX);

/** Seals a secret for one purpose (e.g. `provider-key:12:MT_PROVIDER_B`); open needs the same purpose. */
export function seal(plaintext: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  cipher.setAAD(Buffer.from(purpose, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${ciphertext.toString('base64url')}`;
}

/** Opens a sealed secret; throws SealedSecretError when the key or the purpose differ, or the value was altered. */
export function open(sealed: string, purpose: string): string {
  if (!isSealed(sealed)) throw new SealedSecretError('The value is not sealed');
  const [iv, tag, ciphertext] = sealed.slice(PREFIX.length).split('.');
  if (!iv || !tag || ciphertext === undefined) throw new SealedSecretError('The sealed value is malformed');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(purpose, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedSecretError(
      'The sealed value does not open with the server key (SECRET_KEY differs from the one that sealed it, or the value was altered)',
    );
  }
}

export interface LoadedKey {
  key: Buffer;
  /** Where it came from: the environment, the key file, or generated into the key file now. */
  source: 'SECRET_KEY' | 'file' | 'generated';
  path?: string;
}

/**
 * The server key: SECRET_KEY, else DATA_DIR/secret.key, created on first
 * start (mode 0600). Written to a temporary file and linked into place, so
 * instances starting together on one DATA_DIR end up with the same key.
 */
export function loadSecretKey(config: { secretKey?: Buffer; dataDir: string }): LoadedKey {
  if (config.secretKey) return { key: config.secretKey, source: 'SECRET_KEY' };
  const path = join(config.dataDir, KEY_FILE);
  const read = (): Buffer => {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (key.length !== 32)
      throw new SealedSecretError(`${path} does not hold a 32-byte base64 key; restore it, or set SECRET_KEY`);
    return key;
  };
  try {
    return { key: read(), source: 'file', path };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  try {
    linkSync(temporary, path);
    return { key: read(), source: 'generated', path };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { key: read(), source: 'file', path };
  } finally {
    unlinkSync(temporary);
  }
}

/**
 * Checks the key against the database's check value, which the first instance
 * writes; throws when another key sealed it.
 */
export async function verifySecretKey(): Promise<void> {
  await prisma().secretKeyCheck.createMany({
    data: [{ id: 1, sealed: seal(CHECK_VALUE, CHECK_PURPOSE) }],
    skipDuplicates: true,
  });
  const row = await prisma().secretKeyCheck.findUniqueOrThrow({ where: { id: 1 } });
  let opened: string | undefined;
  try {
    opened = open(row.sealed, CHECK_PURPOSE);
  } catch {
    opened = undefined;
  }
  if (opened !== CHECK_VALUE) {
    throw new SealedSecretError(
      "The server key differs from the one that sealed this database's secrets: set SECRET_KEY (or DATA_DIR/secret.key) to the key the other instances use",
    );
  }
}

/** Start-up: loads the server key, makes it the one in use and checks it against the database. */
export async function openSecrets(config: {
  secretKey?: Buffer;
  dataDir: string;
  databaseUrl?: string;
}): Promise<LoadedKey> {
  const loaded = loadSecretKey(config);
  useSecretKey(loaded.key);
  if (loaded.source === 'generated') {
    logger().warn(
      { path: loaded.path },
      config.databaseUrl
        ? 'SECRET_KEY is not set: generated a server key into DATA_DIR. Instances sharing this PostgreSQL database must use the same key: set SECRET_KEY to its value on every instance, and back it up'
        : 'Generated the server key that seals stored secrets (SECRET_KEY); back it up with the data directory',
    );
  }
  await verifySecretKey();
  return loaded;
}
