// /accounts: the postmaster's account table (search, sort and paging live in the URL). The page the URL asks for
// is read here, on the server, by the same listAccounts the API answers with, and handed to the table's query, so
// the first rows are in the HTML instead of waiting for the JavaScript and a second request.
import { getDb } from "@/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { filtersFromUrl, pageQueryString } from "@/lib/client/hooks/page-params";
import type { AccountSummary, InitialAccountPage } from "@/lib/client/hooks/accounts";
import { parseResultPage } from "@/lib/client/page";
import { ACCOUNT_SORT_FIELDS } from "@/lib/schemas/account";
import { listAccounts, parseAccountListQuery } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { pageMetadata } from "@/lib/i18n/server";
import { requirePostmaster } from "@/lib/server/http/page-session";
import { toJson } from "@/lib/server/http/ordered-json";
import { AccountsTable } from "./accounts-table";

type SearchParams = Record<string, string | string[] | undefined>;

export const generateMetadata = () => pageMetadata("accounts");

export default async function AccountsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requirePostmaster();
  const url = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) {
    // useSearchParams().get() answers the first value of a repeated key; so does this.
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) url.set(key, first);
  }
  const query = pageQueryString(filtersFromUrl(url, ACCOUNT_SORT_FIELDS));
  return <AccountsTable initial={await firstPage(session.domain, query)} />;
}

async function firstPage(domain: string, query: string): Promise<InitialAccountPage | undefined> {
  try {
    const db = getDb();
    const row = await getDomainOrThrow(db, domain);
    const data = await listAccounts(db, row, parseAccountListQuery(new URLSearchParams(query), row));
    // Exactly what the browser would get from the BFF: the JSON of the API's answer.
    return { domain, query, data: parseResultPage<AccountSummary>(toJson(data)), at: Date.now() };
  } catch (err) {
    // A query the API refuses (or a domain removed meanwhile): the table fetches it and shows the API's error.
    if (err instanceof ApiError) return undefined;
    throw err;
  }
}
