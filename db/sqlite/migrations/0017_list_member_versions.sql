CREATE TABLE `list_member_versions` (
	`list_id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `list_members_order` ON `list_members` (`list_id`,`role`,`position`,`address`);--> statement-breakpoint
-- Every change of a list's members moves its version (a big PUT checks it before writing its difference).
CREATE TRIGGER list_members_version_insert AFTER INSERT ON list_members BEGIN
  INSERT INTO list_member_versions (list_id, version) VALUES (NEW.list_id, 1)
    ON CONFLICT (list_id) DO UPDATE SET version = version + 1;
END;--> statement-breakpoint
CREATE TRIGGER list_members_version_delete AFTER DELETE ON list_members BEGIN
  INSERT INTO list_member_versions (list_id, version) VALUES (OLD.list_id, 1)
    ON CONFLICT (list_id) DO UPDATE SET version = version + 1;
END;--> statement-breakpoint
CREATE TRIGGER list_members_version_update AFTER UPDATE ON list_members BEGIN
  INSERT INTO list_member_versions (list_id, version) VALUES (OLD.list_id, 1)
    ON CONFLICT (list_id) DO UPDATE SET version = version + 1;
  INSERT INTO list_member_versions (list_id, version) VALUES (NEW.list_id, 1)
    ON CONFLICT (list_id) DO UPDATE SET version = version + 1;
END;--> statement-breakpoint
CREATE TRIGGER mailing_lists_member_version_delete AFTER DELETE ON mailing_lists BEGIN
  DELETE FROM list_member_versions WHERE list_id = OLD.id;
END;
