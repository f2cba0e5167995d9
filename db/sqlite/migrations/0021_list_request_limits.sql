CREATE TABLE `list_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `list_requests_client` ON `list_requests` (`client`,`created_at`);--> statement-breakpoint
CREATE INDEX `list_tokens_list_address` ON `list_tokens` (`list_id`,`address`);
