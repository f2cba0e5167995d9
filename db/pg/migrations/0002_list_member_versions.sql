CREATE TABLE "list_member_versions" (
	"list_id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "list_members_order" ON "list_members" USING btree ("list_id","role","position","address");--> statement-breakpoint
-- Every change of a list's members moves its version (a big PUT checks it before writing its difference);
-- the SQLite triggers of migration 0017, per statement here (one upsert per list, not per member).
CREATE FUNCTION list_member_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_member_versions (list_id, version) SELECT DISTINCT list_id, 1 FROM new_rows
      ON CONFLICT (list_id) DO UPDATE SET version = list_member_versions.version + 1;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO list_member_versions (list_id, version) SELECT DISTINCT list_id, 1 FROM old_rows
      ON CONFLICT (list_id) DO UPDATE SET version = list_member_versions.version + 1;
  ELSE
    INSERT INTO list_member_versions (list_id, version)
      SELECT list_id, 1 FROM old_rows UNION SELECT list_id, 1 FROM new_rows
      ON CONFLICT (list_id) DO UPDATE SET version = list_member_versions.version + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER list_members_version_insert AFTER INSERT ON list_members REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION list_member_versions_bump();
--> statement-breakpoint
CREATE TRIGGER list_members_version_delete AFTER DELETE ON list_members REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION list_member_versions_bump();
--> statement-breakpoint
CREATE TRIGGER list_members_version_update AFTER UPDATE ON list_members REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION list_member_versions_bump();
--> statement-breakpoint
CREATE FUNCTION mailing_lists_member_version_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM list_member_versions WHERE list_id IN (SELECT id FROM old_rows);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER mailing_lists_member_version_delete AFTER DELETE ON mailing_lists REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mailing_lists_member_version_delete();
