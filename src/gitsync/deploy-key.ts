// The deploy key of a connection over SSH: an Ed25519 key pair made with
// node:crypto and written in OpenSSH's own formats (the private key as
// `openssh-key-v1`, unencrypted since it is sealed at rest; the public key as
// an authorized_keys line). ssh reads the private file as ssh-keygen writes it,
// so no ssh-keygen is needed where the service runs.
import { generateKeyPairSync, randomBytes } from 'node:crypto';

function sshString(value: Buffer | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function uint32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
}

export interface DeployKey {
  /** OpenSSH private key file content. */
  privateKey: string;
  /** `ssh-ed25519 AAAA… comment`: what the forge's deploy-key form takes. */
  publicKey: string;
}

export function generateDeployKey(comment: string): DeployKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const pub = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const seed = Buffer.from(jwk.d!, 'base64url');
  const publicBlob = Buffer.concat([sshString('ssh-ed25519'), sshString(pub)]);
  const check = randomBytes(4).readUInt32BE();
  let secret = Buffer.concat([
    uint32(check),
    uint32(check),
    sshString('ssh-ed25519'),
    sshString(pub),
    sshString(Buffer.concat([seed, pub])),
    sshString(comment),
  ]);
  // Padded with 1, 2, 3, … to the cipher's block size (8 for "none").
  const padding = (8 - (secret.length % 8)) % 8;
  secret = Buffer.concat([secret, Buffer.from(Array.from({ length: padding }, (_, i) => i + 1))]);
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0', 'latin1'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    uint32(1),
    sshString(publicBlob),
    sshString(secret),
  ]).toString('base64');
  const lines = body.match(/.{1,70}/g) ?? [];
  return {
    privateKey: ['-----BEGIN OPENSSH PRIVATE KEY-----', ...lines, '-----END OPENSSH PRIVATE KEY-----', ''].join('\n'),
    publicKey: `ssh-ed25519 ${publicBlob.toString('base64')} ${comment}`,
  };
}
