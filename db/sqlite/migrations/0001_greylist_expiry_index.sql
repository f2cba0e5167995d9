-- The greylist's expiry reads only the rows it deletes (db/pg/migrations/0004_greylist_expiry_index.sql says why).
CREATE INDEX `greylist_expiry` ON `greylist` (`passed`,`last_seen`);--> statement-breakpoint
DROP INDEX `greylist_first_seen`;
