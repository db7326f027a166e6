-- The transaction that last wrote each Activity row (inserted it, or added cells to it). Every write of
-- content writes its change's row in its own transaction (src/content/changes.ts, the write gate's cell
-- count), so "has this project's content changed since snapshot S" is a range read of this index:
-- the rows whose transaction S does not see (src/content/translations/match-blocks.ts). Set by a
-- trigger, so no writer has to remember it; no lock is taken that the write did not take already.
ALTER TABLE "Activity" ADD COLUMN "xid" BIGINT;

CREATE FUNCTION activity_stamp_xid() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.xid := pg_current_xact_id()::text::bigint;
  RETURN NEW;
END
$$;

CREATE TRIGGER "Activity_stamp_xid" BEFORE INSERT OR UPDATE ON "Activity"
  FOR EACH ROW EXECUTE FUNCTION activity_stamp_xid();

CREATE INDEX "Activity_projectId_xid_idx" ON "Activity"("projectId", "xid");
