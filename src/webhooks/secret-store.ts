// Webhook signing secrets at rest (Webhook.secretSealed): the signature needs
// the secret itself, so it is sealed with the server key (src/auth/sealed-secrets.ts),
// bound to its project: a sealed value copied to another project's webhook does not open.
import { open, seal } from '../auth/sealed-secrets.js';

const purpose = (projectId: number) => `webhook-secret:${projectId}`;

export function sealSecret(plain: string, projectId: number): string {
  return seal(plain, purpose(projectId));
}

export function openSecret(sealed: string, projectId: number): string {
  return open(sealed, purpose(projectId));
}
