-- Upkeep of the accounts table under mail traffic. Each change of an account's usage (Dovecot's quota write-back,
-- mail_quota_copy) writes a new row version outside HOT (usage_bytes is in a sort index). Two things then went
-- stale for long with PostgreSQL's defaults (docs/postgresql.md, "Performance"):
--
-- 1. GIN's fast update appends new entries to an unsorted pending list, up to gin_pending_list_limit (4 MB), and
--    every search reads that whole list. Measured on the bench data (100,000 accounts): a new search term's count
--    took 16 ms with the list empty, 74 ms after 5,000 usage updates, 121 ms after 10,000. With a 256 kB limit it
--    stayed at 17 ms, and 5,000 updates cost what they cost with 4 MB (1.2 s; with fast update off, 4.0 s).
-- 2. Autovacuum waits for 20% of the table's rows to be dead (about 23,000 at 114,000 accounts) before it marks
--    pages all-visible again, and until then the index-only reads of a list page (OFFSET past the first page, a
--    page's names) fetch the rows of every changed page too: page 1,000 by capacity took 102 ms with 29,799 such
--    fetches after 15,000 usage updates, 19 ms once vacuumed. At 1% (plus 1,000 rows) the vacuum comes after a few
--    thousand updates and finds little to do each time (0.8 s for 15,000 dead rows). It also empties the pending lists.
ALTER INDEX accounts_search_trgm SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX aliases_search_trgm SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX mailing_lists_search_trgm SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX audit_log_search_trgm SET (gin_pending_list_limit = 256);--> statement-breakpoint
ALTER TABLE accounts SET (
  autovacuum_vacuum_scale_factor = 0.01,
  autovacuum_vacuum_threshold = 1000,
  autovacuum_vacuum_insert_scale_factor = 0.01,
  autovacuum_vacuum_insert_threshold = 1000
);
