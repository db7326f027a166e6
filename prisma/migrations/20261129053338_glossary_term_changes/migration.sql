-- CreateTable
CREATE TABLE "GlossaryTermChange" (
    "id" BIGSERIAL NOT NULL,
    "activityId" BIGINT NOT NULL,
    "glossaryId" INTEGER NOT NULL,
    "termId" INTEGER NOT NULL,
    "before" JSONB,
    "after" JSONB,

    CONSTRAINT "GlossaryTermChange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "GlossaryTermChange_activityId_termId_key" ON "GlossaryTermChange"("activityId", "termId");

-- AddForeignKey
ALTER TABLE "GlossaryTermChange" ADD CONSTRAINT "GlossaryTermChange_activityId_fkey" FOREIGN KEY ("activityId") REFERENCES "Activity"("id") ON DELETE CASCADE ON UPDATE CASCADE;
