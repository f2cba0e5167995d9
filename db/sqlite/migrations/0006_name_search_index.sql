-- A searched list page in name order (the list's default) that walks the (domain_id, name) index (list-page.ts,
-- plan "walk") tested each entry's search key on the table row, reading a 400-byte row per entry: about 2 µs
-- each, 160 ms for a walk of the whole 100,000-account bench domain. With search_key in the index the test runs
-- on the index entry (0.12 µs) and only the hits read their row. The unique (domain_id, name) index stays for
-- plain pages. This index also takes over from the narrow (domain_id, search_key) index of 0004 as what a search
-- under 3 characters counts over, so a description change still writes one such index, not two.
-- The other sort indexes stay without search_key: with it, every description change would rewrite each of them
-- too, making bulk changes of descriptions several times slower.
-- Not in db/schema.ts, for the same reason as 0004's: list-page.ts names it, and nothing else should pick it.
DROP INDEX IF EXISTS `accounts_domain_search`;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS `accounts_domain_name_search` ON `accounts` (`domain_id`,`name`,`search_key`);
