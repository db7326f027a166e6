// Imported first by the entry points (main.ts, the benchmarks): unless told
// otherwise the service runs as in production. graphql-js reads NODE_ENV when
// it loads: outside production every type check of a result value also looks
// for a second copy of graphql in the process, which costs about a sixth of a
// large REST read.
import { fixMmapThreshold } from './native-memory.js';

process.env.NODE_ENV ??= 'production';
// Before the database's WebAssembly is compiled: freed large blocks go back to the system (native-memory.ts).
fixMmapThreshold();
