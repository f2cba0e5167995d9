"use client";
// The CSV export of a table: plain download links to /api/panel/export/<resource> carrying the table's search and
// order, so the file holds what the search matches (every page), in the order shown. UTF-8 (with a BOM, which
// Excel needs to read it as UTF-8), or Windows-1250 for older Polish Excel.
import type { PageFilters } from "@/lib/client/hooks/page-params";
import { useT, type Messages } from "@/lib/i18n";
import { linkClass } from "./ui";

const messages: Messages<"csv" | "csv1250" | "title"> = {
  pl: {
    csv: "Eksport CSV",
    csv1250: "CSV w Windows-1250",
    title: "Pobierz wszystkie pasujące wiersze, ze wszystkich stron",
  },
  en: {
    csv: "Export CSV",
    csv1250: "CSV in Windows-1250",
    title: "Download every matching row, from every page",
  },
};

export type ExportResource = "accounts" | "aliases" | "lists";

export function ExportLinks({ resource, filters }: { resource: ExportResource; filters: PageFilters }) {
  const t = useT(messages);
  const href = (encoding?: string) => {
    const q = new URLSearchParams();
    if (filters.search) q.set("search", filters.search);
    if (filters.sort !== "name") q.set("sort", filters.sort);
    if (filters.dir !== "asc") q.set("sort_dir", filters.dir);
    if (encoding) q.set("encoding", encoding);
    return `/api/panel/export/${resource}${q.size ? `?${q}` : ""}`;
  };
  return (
    <p className="flex flex-wrap gap-x-3 pb-2 text-sm" title={t("title")}>
      <a href={href()} download className={linkClass}>
        {t("csv")}
      </a>
      <a href={href("windows-1250")} download className={linkClass}>
        {t("csv1250")}
      </a>
    </p>
  );
}
