-- The trigram search index (0004) answers a query by reading every segment of its b-tree; every write adds a
-- small segment, and FTS5's default (merge when a level holds 4 segments) lets many single-account writes pile up
-- segments that every search then reads; merging at 2 segments per level keeps their number low.
-- The daily `db optimize` (lib/server/search-index.ts) merges everything into one segment.
INSERT INTO accounts_search(accounts_search, rank) VALUES ('automerge', 2);
