import "server-only";
// Upkeep of the accounts' trigram search index (accounts_search, db/sqlite/migrations). FTS5 answers a query by reading every
// segment of the index, and each write adds one; automerge keeps their number down as writes come, and this merges
// them all into one, which is what a search costs least on (a bulk load leaves many segments, each searched on
// its own). Run daily by
// `npm run cli -- db optimize` (cron, docs/mail-server.md) and after a bulk load. Readers are not blocked (WAL);
// writers wait for it (about 1 s per 100,000 accounts).
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";

export async function optimizeSearchIndex(db: Db): Promise<{ ms: number }> {
  const started = performance.now();
  await dialectOf(db).optimize(db);
  return { ms: performance.now() - started };
}
