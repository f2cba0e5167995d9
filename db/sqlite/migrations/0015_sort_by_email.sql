-- sort=email orders a list by the address, which within a domain differs from the name's order where a name extends
-- another with a character before "@" ("jan-k@", "jan.k@", "jan1@" come before "jan@"). Without these indexes such a
-- page sorted every row of the domain (270 ms on 100,000 accounts); with them it walks the index as the other sorts do.
CREATE INDEX `accounts_sort_email` ON `accounts` (`domain_id`,`email`,`name`);--> statement-breakpoint
CREATE INDEX `aliases_sort_email` ON `aliases` (`domain_id`,`email`,`name`);--> statement-breakpoint
CREATE INDEX `mailing_lists_sort_email` ON `mailing_lists` (`domain_id`,`email`,`name`);
