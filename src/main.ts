// Starts the service: `npm start`.
import './production.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { buildService } from './app.js';
import { lockDataDir } from './db/lock.js';
import { generateFirstAdmin } from './accounts/accounts.js';
import cluster from 'node:cluster';
import { logger } from './log.js';
import { READY, superviseWorkers } from './cluster.js';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    logger().error({}, `Configuration error: ${error.message}`);
    process.exit(2);
  }
  throw error;
}

if (config.processes > 1 && cluster.isPrimary) await superviseWorkers(config.processes);
else await startInstance(config);

/** One instance of the service in this process (or in a worker of PROCESSES). */
async function startInstance(config: Config): Promise<void> {
  let unlock = () => {};
  try {
    if (!config.databaseUrl) unlock = lockDataDir(config.dataDir);
  } catch (error) {
    logger().error({}, (error as Error).message);
    process.exit(2);
  }
  const service = await buildService(config);
  const firstAdmin = await generateFirstAdmin(config.defaultPlan);
  if (firstAdmin) {
    service.app.log.warn(
      { email: firstAdmin.email, password: firstAdmin.password, personalToken: firstAdmin.token },
      'First start: created an administrator account. These credentials are shown only this once; store them now.',
    );
  }
  await service.app.listen({ port: config.port, host: config.host });
  service.app.log.info(
    {
      graphql: `${config.publicUrl}/graphql`,
      database: service.db.kind,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
    },
    'localization service ready',
  );
  // A worker of PROCESSES tells its primary (src/cluster.ts) that it listens.
  if (cluster.isWorker) process.send?.(READY);

  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      service.app.log.info({ signal }, 'shutting down');
      await service.close();
      unlock();
      process.exit(0);
    };
    process.on(signal, () => {
      stop().catch((error: unknown) => {
        service.app.log.error({ err: error }, 'shutting down failed');
        process.exit(1);
      });
    });
  }
}
