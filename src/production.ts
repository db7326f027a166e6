// Imported first by the entry points (main.ts, the benchmarks): unless told
// otherwise the service runs as in production. graphql-js reads NODE_ENV when
// it loads: outside production every type check of a result value also looks
// for a second copy of graphql in the process, a cost that shows in a large
// REST read (docs/benchmarks.md, "Figures behind constants in the code").
import { fixMmapThreshold } from './native-memory.js';

process.env.NODE_ENV ??= 'production';
// Before the database's WebAssembly is compiled: freed large blocks go back to the system (native-memory.ts).
fixMmapThreshold();
