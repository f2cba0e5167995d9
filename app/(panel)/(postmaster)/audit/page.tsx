// /audit: the domain's audit log for its postmaster (lib/server/resources/audit.ts): who changed what, from which address and
// when, newest first, with a search (as you type, like the tables) and paging in the URL. Rendered on the server; only
// the search box and each entry's time (UTC from the server, local time once hydrated: LocalTime) run in the browser.
import { getDb } from "@/db/client";
import { pageMetadata, requestLocale } from "@/lib/i18n/server";
import { listAudit, type AuditEntry } from "@/lib/server/resources/audit";
import { pageForUrl, pageFromUrl } from "@/lib/client/hooks/page-params";
import { requirePostmaster } from "@/lib/server/http/page-session";
import { Address, LocalTime } from "@/components";
import { AuditSearch } from "./audit-search";
import { fieldLabel } from "@/lib/i18n/field-words";
import { auditMessages, changeText } from "./messages";
import { countOf } from "@/lib/i18n/plural";
import { ITEM_NOUN } from "../_postmaster/table-messages";

export const generateMetadata = () => pageMetadata("audit");

const PAGE_SIZE = 50;
/** The table's columns: their heading's message and width. */
const COLUMNS = [
  ["when", "w-44 xl:w-52"],
  ["who", "w-56"],
  ["what", "w-40"],
  ["changes", ""],
] as const;
type SearchParams = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requirePostmaster();
  const locale = await requestLocale();
  const t = auditMessages[locale];
  const params = await searchParams;
  const search = first(params.search).slice(0, 100);
  // The URL's page number is the one shown (from 1); the audit query's, like the API's, counts from 0.
  const asked = pageFromUrl(first(params.page));
  const { total, entries } = await listAudit(getDb(), { domain: session.domain, search, page: asked, size: PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(asked, pages - 1);
  const shown =
    page === asked
      ? entries
      : (await listAudit(getDb(), { domain: session.domain, search, page, size: PAGE_SIZE })).entries;
  const link = (p: number) => {
    const q = new URLSearchParams();
    if (search) q.set("search", search);
    const number = pageForUrl(p);
    if (number) q.set("page", number);
    return q.size ? `/audit?${q}` : "/audit";
  };
  const button =
    "inline-flex min-h-10 items-center rounded-md border border-gray-400 bg-white px-3 text-sm font-medium text-gray-900 hover:bg-gray-100";
  return (
    <div className="space-y-4">
      <header>
        <h1 className="text-2xl font-semibold text-gray-900">{t.title}</h1>
        <p className="text-sm text-gray-700">{t.intro.replace("{domain}", session.domain)}</p>
      </header>
      <AuditSearch value={search} label={t.search} hint={t.searchHint} />
      {/* Below lg the rows stack (a block per entry): 375 px needs no sideways scrolling, and at 768 px the changes
          column left beside three fixed ones broke addresses inside their domain. */}
      <div className="rounded-lg border border-gray-300 bg-white">
        <table className="block w-full border-collapse text-sm lg:table lg:table-fixed">
          <caption className="sr-only">{t.title}</caption>
          <thead className="hidden bg-gray-50 text-left text-xs font-semibold uppercase tracking-wide text-gray-800 lg:table-header-group">
            <tr>
              {COLUMNS.map(([key, width]) => (
                <th key={key} scope="col" className={`${width} px-2 py-2`}>
                  {t[key]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="block lg:table-row-group">
            {shown.length === 0 && (
              <tr>
                <td colSpan={4} className="px-3 py-8 text-center text-gray-700">
                  {search ? t.emptySearch.replace("{search}", search) : t.empty}
                </td>
              </tr>
            )}
            {shown.map((e: AuditEntry) => (
              <tr
                key={e.id}
                className="block border-t border-gray-200 py-1 align-top first:border-t-0 lg:table-row lg:py-0"
              >
                <td className="block px-2 py-1 font-semibold tabular-nums lg:table-cell lg:py-2 lg:font-normal">
                  <LocalTime at={e.at} />
                </td>
                <td className="block px-2 py-1 lg:table-cell lg:py-2">
                  <Address text={e.actor} />
                  <span className="block text-xs text-gray-700">
                    {t.via[e.via as "api" | "panel" | "cli"] ?? e.via}
                    {e.clientIp ? ` · ${e.clientIp}` : ""}
                  </span>
                </td>
                <td className="block px-2 py-1 lg:table-cell lg:py-2">
                  {t.actions[e.action as "create" | "update" | "delete"] ?? e.action}:{" "}
                  {t.resources[e.resource as "account"] ?? e.resource}
                  <span className="block text-xs text-gray-800">
                    {e.names.slice(0, 5).map((name, i) => (
                      <span key={name}>
                        {i > 0 && ", "}
                        <Address text={name} />
                      </span>
                    ))}
                    {e.names.length > 5 ? ` ${t.more.replace("{n}", String(e.names.length - 5))}` : ""}
                  </span>
                </td>
                <td className="block px-2 py-1 lg:table-cell lg:py-2">
                  <ul className="space-y-0.5 break-words">
                    {Object.entries(e.changes).map(([field, change]) => (
                      <li key={field}>
                        <span className="font-medium">{fieldLabel(field, locale)}</span>:{" "}
                        {changeText(field, change, locale)}
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label={t.pager} className="flex flex-wrap items-center justify-between gap-3 text-sm">
        <p>
          {t.page
            .replace("{page}", String(page + 1))
            .replace("{pages}", String(pages))
            .replace("{total}", countOf(locale, total, ITEM_NOUN))}
        </p>
        <div className="flex gap-2">
          {page > 0 ? (
            <a className={button} href={link(page - 1)}>
              {t.prev}
            </a>
          ) : (
            <span className={`${button} opacity-50`} aria-disabled="true">
              {t.prev}
            </span>
          )}
          {page + 1 < pages ? (
            <a className={button} href={link(page + 1)}>
              {t.next}
            </a>
          ) : (
            <span className={`${button} opacity-50`} aria-disabled="true">
              {t.next}
            </span>
          )}
        </div>
      </nav>
    </div>
  );
}
