// The hosting settings of this process, set once at start-up (src/app.ts), so
// domain code called from anywhere (REST, PUBLISH_AFTER_IMPORT, AUTO_PUBLISH)
// uses the same storage and limits.
import type { Config } from '../config.js';
import { createStorage, setStorage } from '../storage/index.js';

export interface HostingSettings {
  /** The service's public URL (links in refusals to the console's screens). */
  publicUrl: string;
  cdnUrl: string;
  publishRateLimit: number;
  /** PUBLICATION_LEASE_SECONDS (src/hosting/lifecycle.ts). */
  leaseSeconds: number;
}

let settings: HostingSettings | undefined;

export function hostingSettings(): HostingSettings {
  if (!settings) throw new Error('Hosting is not configured');
  return settings;
}

/** Opens the configured storage; the returned function closes it. */
export async function startHosting(config: Config): Promise<() => Promise<void>> {
  const store = await createStorage(config);
  setStorage(store);
  settings = {
    publicUrl: config.publicUrl,
    cdnUrl: config.cdnUrl,
    publishRateLimit: config.publishRateLimit,
    leaseSeconds: config.publicationLeaseSeconds,
  };
  return async () => {
    setStorage(undefined);
    settings = undefined;
    await store.close();
  };
}
