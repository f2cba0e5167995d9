// Bulk work across pages: the names matching a search, read page by page, and changes sent in chunks. The
// service applies at most 1,000 names per request, each request atomically (contract §2); the chunks of one change
// apply one after another, so a failing chunk leaves the earlier ones applied and the later ones not tried.
import type { ResultPage } from "@/lib/client/page";
import type { PageFilters } from "@/lib/client/hooks/page-params";

/** The most names the service takes in one PUT or DELETE. */
export const CHUNK_SIZE = 1000;

export interface ChunkProgress {
  phase: "reading" | "applying";
  done: number;
  total: number;
}

export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Every name the search matches, read in pages of 1,000 by name. */
export async function matchingNames(
  fetchPage: (domain: string, filters: PageFilters) => Promise<ResultPage<{ name: string }>>,
  domain: string,
  search: string,
  onRead: (done: number) => void,
): Promise<string[]> {
  const names: string[] = [];
  for (let page = 0; ; page++) {
    const { info, rows } = await fetchPage(domain, { page, size: CHUNK_SIZE, search, sort: "name", dir: "asc" });
    names.push(...rows.map((r) => r.name));
    onRead(names.length);
    if (rows.length < CHUNK_SIZE || names.length >= info.total) return names;
  }
}
