// Sealing and opening webhook signing secrets (stored in Webhook.secretSealed).
// The signature needs the secret itself, so it is encrypted, not hashed.
//
// INTERIM: the service's sealed-secrets module (src/auth/sealed-secrets.ts,
// seal/open with SECRET_KEY) is being built on another branch. Until it is
// merged, `interimSeal`/`interimOpen` encrypt with AES-256-GCM under a key
// derived from SECRET_KEY (or a fixed development key when it is unset). At
// merge time, sealSecret/openSecret switch to sealed-secrets and this is the
// only file that changes.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'interim1:';

function interimKey(): Buffer {
  return createHash('sha256').update(`webhook-secret:${process.env.SECRET_KEY ?? 'interim-development-key'}`).digest();
}

function interimSeal(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', interimKey(), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

function interimOpen(sealed: string): string {
  if (!sealed.startsWith(PREFIX)) throw new Error('Unknown sealed secret format');
  const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', interimKey(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

export function sealSecret(plain: string): string {
  return interimSeal(plain);
}

export function openSecret(sealed: string): string {
  return interimOpen(sealed);
}
