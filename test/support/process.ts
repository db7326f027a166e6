// The service as a child process lives in scripts/lib (shared with bench/, which never imports test/).
// Tests run the bundle `npm start` runs (dist/main.js, built from the sources by the global set-up at the
// start of every run): it starts in about half the time of the sources through tsx, and it is what users run.
import { startServiceProcess as start, type ServiceProcess } from '../../scripts/lib/service-process.js';

export { freePort, type ServiceProcess } from '../../scripts/lib/service-process.js';

export function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  return start(env, 'build');
}
