-- The server key check (src/auth/sealed-secrets.ts). Provider API keys stored in plain text
-- before this version are sealed at start-up by src/jobs/provider-keys.ts (SQL has no key).
-- CreateTable
CREATE TABLE "SecretKeyCheck" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "sealed" TEXT NOT NULL,

    CONSTRAINT "SecretKeyCheck_pkey" PRIMARY KEY ("id")
);
