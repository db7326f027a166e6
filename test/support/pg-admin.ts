// Throw-away PostgreSQL databases live in scripts/lib (shared with bench/, which never imports test/).
export * from '../../scripts/lib/pg-admin.js';
