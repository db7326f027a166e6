-- The keys' deprecated_at sort (newest first, keys never deprecated last, then the id) read along an index like
-- the other sorts. Written by hand: schema.prisma declares it as (projectId, deprecatedAt DESC, id) because Prisma
-- cannot say NULLS LAST, and its schema engine compares index columns and their direction, not where the nulls
-- go, so `npm run migrate:create` still finds no change.
CREATE INDEX "TranslationKey_projectId_deprecatedAt_id_idx" ON "TranslationKey"("projectId", "deprecatedAt" DESC NULLS LAST, "id");
