-- A key queued by a write of some of its cells names their languages: a one-cell write of a translation is
-- checked as one cell, not as all of its key's (docs/quality-checks.md, "Stored findings"). Null is every
-- cell of the key: an entry queued before, by an import's key metadata, a settings change or a deleted
-- neighbour, or by a write that includes the default language's text (the other cells' source).
ALTER TABLE "FindingQueue" ADD COLUMN "languageIds" INTEGER[];
