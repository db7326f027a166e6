// Cross-origin requests of the in-context editor (docs/in-context.md). A
// running application on another origin calls /graphql with its in-context
// token in the X-InContext-Token header; such a request is always preflighted
// (a custom header). Its answers carry CORS headers only for an origin that a
// project allows: a preflight carries no credential, so it is answered for
// an origin any project allows; the request itself is then refused unless
// its token's own project allows its Origin (src/auth/principal.ts). Never
// with credentials: cookies play no part, and a request signed in by the
// console's session cookie is never made readable to another origin.
// Every other request keeps Yoga's CORS as before (origins reflected, without credentials).
import { IN_CONTEXT_HEADER } from '../auth/in-context-credential.js';
import { originAllowedAnywhere } from '../in-context/tokens.js';

interface CorsRequest {
  method: string;
  headers: { get(name: string): string | null };
}

/** Whether the request is the in-context editor's: it carries the token, or its preflight announces it. */
export function isInContextRequest(request: CorsRequest): boolean {
  if (request.headers.get(IN_CONTEXT_HEADER)) return true;
  if (request.method.toUpperCase() !== 'OPTIONS') return false;
  const announced = (request.headers.get('access-control-request-headers') ?? '')
    .toLowerCase()
    .split(',')
    .map((h) => h.trim());
  return announced.includes(IN_CONTEXT_HEADER);
}

const ALLOWED_HEADERS = ['content-type', 'accept', IN_CONTEXT_HEADER, 'graphql-preflight', 'x-request-id'];

/**
 * The CORS headers of an in-context request, or null (none: the browser
 * refuses the answer to the page). Only for in-context requests.
 */
export async function inContextCorsHeaders(request: CorsRequest): Promise<Record<string, string> | null> {
  const origin = request.headers.get('origin');
  if (!origin || !(await originAllowedAnywhere(origin))) return null;
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS.join(', '),
    'access-control-max-age': '600',
    vary: 'Origin',
  };
}

/** Yoga's `cors` option: in-context requests by the rule above, every other as before. */
export async function yogaCors(request: CorsRequest) {
  if (!isInContextRequest(request)) return { credentials: false };
  const headers = await inContextCorsHeaders(request);
  if (!headers) return false as const;
  return {
    origin: [headers['access-control-allow-origin']!],
    credentials: false,
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ALLOWED_HEADERS,
    maxAge: 600,
  };
}
