// The pool's worker entry when the service runs from its TypeScript sources
// (tests, tsx): the thread loads tsx's loader, then the worker module. The
// bundle (scripts/build.mjs) runs dist/findings/check-worker.js directly.
import { register } from 'tsx/esm/api';

register();
const { checkBatch } = await import('./check-worker.ts');
export default checkBatch;
