// Every project runs its files one after another in the same worker, sharing
// loaded modules (isolate: false), which saves each file the seconds of
// loading the service. What a file changes outside its service is
// put back here: process.env (provider URLs and keys some files set) and
// fake timers.
import { afterAll, vi } from 'vitest';

const env = { ...process.env };

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
});
