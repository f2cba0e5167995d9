-- A per-account sending limit (db/pg/migrations/0014_send_limit.sql says why): the domain's recipients per rolling
-- hour, 1,000 for every domain unless the operator sets another, and the policy service's per-minute counts.
ALTER TABLE `domains` ADD `send_limit` integer DEFAULT 1000 NOT NULL;--> statement-breakpoint
CREATE TABLE `send_counts` (
	`login` text NOT NULL,
	`minute` integer NOT NULL,
	`recipients` integer NOT NULL,
	PRIMARY KEY(`login`, `minute`)
);
--> statement-breakpoint
CREATE INDEX `send_counts_minute` ON `send_counts` (`minute`);
