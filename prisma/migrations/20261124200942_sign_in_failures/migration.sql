-- CreateTable
CREATE TABLE "SignInFailure" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "resetAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SignInFailure_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "SignInFailure_resetAt_idx" ON "SignInFailure"("resetAt");
