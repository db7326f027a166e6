import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

const id = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;

/** Identifies this process among the service's instances (job leases, logs). */
export function instanceId(): string {
  return id;
}
