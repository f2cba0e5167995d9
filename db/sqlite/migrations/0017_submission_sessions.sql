-- The policy service's memory of signed-in submission sessions (lib/mailserver/policy/signed-in-sessions.ts): in the
-- database, so every mail host's policy service shares it and a restart forgets none.
CREATE TABLE `submission_sessions` (
	`session` text PRIMARY KEY NOT NULL,
	`since` integer NOT NULL,
	`instance` text NOT NULL,
	`seqno` integer NOT NULL,
	`seen` integer NOT NULL
);--> statement-breakpoint
CREATE INDEX `submission_sessions_seen` ON `submission_sessions` (`seen`);
