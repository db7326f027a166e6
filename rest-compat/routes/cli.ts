// The official command-line client's own calls under /cli (spec/real-clients.md).
import type { RestRoute } from '../route.js';

export const routes: RestRoute[] = [];
