-- The trigram search index (0004) answers a query by reading every segment of its b-tree; every write adds a
-- small segment, and FTS5's default (merge when a level holds 4 segments) let 20,000 single-account writes on the
-- bench data slow a cold search count from 1.0 to 2.7 ms. Merging at 2 segments per level held it at 1.2 ms (issue 4).
-- The daily `db optimize` (lib/server/search-index.ts) merges everything into one segment.
INSERT INTO accounts_search(accounts_search, rank) VALUES ('automerge', 2);
