-- A change's events go with it, and so with its project: a deleted project left its cell events behind (the texts
-- of a deleted project stayed in the database). With one row per statement the foreign key costs one check per
-- statement, not one per cell. Events whose change is already gone are deleted first.
DELETE FROM "CellChangeBatch" b WHERE NOT EXISTS (SELECT 1 FROM "Activity" a WHERE a.id = b."activityId");

ALTER TABLE "CellChangeBatch" ADD CONSTRAINT "CellChangeBatch_activityId_fkey" FOREIGN KEY ("activityId") REFERENCES "Activity"("id") ON DELETE CASCADE ON UPDATE CASCADE;
