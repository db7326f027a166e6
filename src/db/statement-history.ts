// Prisma's debug module keeps the arguments of its last 100 debug calls for
// its error reports, whether DEBUG is set or not, in two copies: the one
// bundled in @prisma/client's runtime (which logs query plans) and
// @prisma/debug, which the driver adapters use to log every query with its
// parameters. For a bulk write those are arrays of 50,000 texts, so a few
// hundred MiB stayed reachable after the statements had run (an import of
// 1,000,000 translations held about 150 MiB more at the end, and V8 let the
// heap grow to a multiple of that; heap snapshots of bench/scenarios/memory.ts).
// Pushing 100 entries without payload into each lets them go, in microseconds.
// Should a Prisma release keep more entries or none, this releases less or
// nothing, and changes nothing else.
import { Debug as ClientDebug } from '@prisma/client/runtime/client';
import { Debug as AdapterDebug } from '@prisma/driver-adapter-utils';

/** Prisma's history length (MAX_ARGS_HISTORY of @prisma/debug). */
const HISTORY = 100;

const fillers = [ClientDebug('lms:release-statements'), AdapterDebug('lms:release-statements')];

/** Lets the parameters of the statements sent so far be collected (bulk paths call it after each chunk). */
export function releaseStatementHistory(): void {
  for (const filler of fillers) for (let i = 0; i < HISTORY; i++) filler('');
}
