// Starts the service: `npm start`.
import { ConfigError, loadConfig } from './config.js';
import { buildService } from './app.js';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(2);
  }
  throw error;
}

const service = await buildService(config);
await service.app.listen({ port: config.port, host: config.host });
service.app.log.info(
  { graphql: `${config.publicUrl}/graphql`, database: service.db.kind, dataDir: config.databaseUrl ? undefined : config.dataDir },
  'localization service ready',
);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    service.app.log.info({ signal }, 'shutting down');
    await service.close();
    process.exit(0);
  });
}
