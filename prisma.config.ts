import { defineConfig } from 'prisma/config';

// Used by `prisma generate` only; the service connects through driver adapters (src/db.ts).
export default defineConfig({
  schema: './prisma/schema.prisma',
  migrations: { path: './prisma/migrations' },
});
