// The project's directory, for the files the service reads at run time
// (package.json, prisma/migrations, web/dist, src/db/pglite-initdb.mjs). This
// module is one level below it both where it is written (src/paths.ts, run by
// tsx) and where `npm start` runs it (the bundle dist/main.js, scripts/build.mjs),
// so the one relative URL holds in both.
import { fileURLToPath } from 'node:url';

export const PROJECT_DIR: string = fileURLToPath(new URL('..', import.meta.url));
