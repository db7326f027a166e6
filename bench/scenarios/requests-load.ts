// Child process of the request benchmark: the load generator (autocannon,
// programmatic, so that every write carries a new text for a random cell —
// writing the same text again is no change and the write gate skips it).
// Argument: JSON { url, method, headers, body?: 'v2patch' | 'v1post' | 'bare' | 'graphql',
// keys, languages, connections, seconds, warmup }. Prints { rps, p50, p99, errors, non2xx }.
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { GRAPHQL_READ, keyName } from '../lib/data.js';

interface Options {
  url: string;
  method: 'GET' | 'POST' | 'PATCH';
  headers: Record<string, string>;
  body?: 'v2patch' | 'v1post' | 'bare' | 'graphql';
  keys: number;
  languages: string[];
  connections: number;
  seconds: number;
  /** Seconds of the same load before the measured ones, not measured. */
  warmup: number;
}

/** The bench's GraphQL read of the cells of one REST page, 50 keys × 10 languages (reads.ts). */
const GRAPHQL_BODY = JSON.stringify({ query: GRAPHQL_READ, variables: { first: 50 } });

const options = JSON.parse(process.argv[2]!) as Options;
let n = 0;

/** A new text for a random cell of the project. */
function body(): string | undefined {
  const i = Math.floor(Math.random() * options.keys);
  const l = Math.floor(Math.random() * options.languages.length);
  const language = options.languages[l]!;
  const text = `edited ${process.pid}-${n++}`;
  switch (options.body) {
    case 'v2patch':
      return JSON.stringify({ key: keyName(i), language, text });
    case 'v1post':
      return JSON.stringify({ content: [{ key: keyName(i), language, text }] });
    case 'bare':
      return JSON.stringify({ key: i + 1, language: l + 1, text });
    case 'graphql':
      return GRAPHQL_BODY;
    default:
      return undefined;
  }
}

/** The same load for `seconds`. */
async function run(seconds: number): Promise<{
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}> {
  return await autocannon({
    url: options.url,
    connections: options.connections,
    duration: seconds,
    requests: [
      {
        method: options.method,
        headers: { ...options.headers, ...(options.body ? { 'content-type': 'application/json' } : {}) },
        setupRequest: (request: Record<string, unknown>) => (options.body ? { ...request, body: body() } : request),
      },
    ],
  });
}

// The warm-up's figures are not kept: each side is measured in its steady state, not while its first requests
// compile code and start threads (the findings updater's worker threads start with the first writes after a
// settled service; docs/benchmarks.md, "Windows measured warm").
if (options.warmup > 0) await run(options.warmup);
const result = await run(options.seconds);
process.stdout.write(
  JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  }) + '\n',
);
