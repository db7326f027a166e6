// Imported first by the entry points (main.ts, the benchmarks): unless told
// otherwise the service runs as in production. graphql-js reads NODE_ENV when
// it loads: outside production every type check of a result value also looks
// for a second copy of graphql in the process, which costs about a sixth of a
// large REST read.
process.env.NODE_ENV ??= 'production';
