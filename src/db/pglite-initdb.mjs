// Creates an embedded database in the directory given as the only argument,
// then exits. Run as a child process on a service's first start
// (src/db/client.ts): initdb's WebAssembly memory ends with this process
// instead of staying in the service's resident memory for good.
import { PGlite } from '@electric-sql/pglite';

const pglite = new PGlite(process.argv[2]);
await pglite.waitReady;
await pglite.close();
