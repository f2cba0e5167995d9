"use client";
// Search, sort and paging of a list page, kept in the URL so that links, reloads and the back button work.
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import {
  DEFAULT_PAGE_SIZE,
  filtersFromUrl,
  PAGE_SIZES,
  pageForUrl,
  type PageFilters,
} from "@/lib/client/hooks/page-params";
import { Button, Select, Skeleton, TextField } from "@/components";
import { useLocale, useT, type Messages } from "@/lib/i18n";
import { countOf } from "@/lib/i18n/plural";
import { ITEM_NOUN } from "./table-messages";

const messages: Messages<
  "search" | "page" | "prev" | "next" | "rows" | "sortBy" | "pager" | "sortField" | "asc" | "desc"
> = {
  pl: {
    search: "Szukaj",
    page: "Strona {page} z {pages} · {total}",
    pager: "Stronicowanie",
    sortField: "Sortuj według",
    asc: "rosnąco",
    desc: "malejąco",
    prev: "Poprzednia",
    next: "Następna",
    rows: "Wierszy na stronie",
    sortBy: "Sortuj według: {col}",
  },
  en: {
    search: "Search",
    page: "Page {page} of {pages} · {total}",
    pager: "Pagination",
    sortField: "Sort by",
    asc: "ascending",
    desc: "descending",
    prev: "Previous",
    next: "Next",
    rows: "Rows per page",
    sortBy: "Sort by: {col}",
  },
};

export function useListFilters(sortFields: readonly string[]) {
  const params = useSearchParams();
  const pathname = usePathname();
  const urlQuery = params.toString();
  // The query this table last wrote to the URL, until useSearchParams shows it. Next.js mirrors a history write
  // into useSearchParams through a router transition, which can lag, and misses a write made before its history
  // patch is installed (a CI run sorted right after load: URL sorted, rows not). The table follows its own write.
  const [written, setWritten] = useState<{ over: string; query: string } | null>(null);
  if (written && written.over !== urlQuery) setWritten(null);
  const current = written && written.over === urlQuery ? new URLSearchParams(written.query) : params;
  const filters = filtersFromUrl(current, sortFields);
  /**
   * Changes the URL with a new history entry. `replace` (refining a search already typed) overwrites the current
   * one instead, so that Back leaves the search rather than stepping through its keystrokes.
   */
  const update = (patch: Partial<PageFilters>, replace: boolean | "always" = false) => {
    const next = { ...filters, ...patch };
    const q = new URLSearchParams();
    if (next.search) q.set("search", next.search);
    if (next.sort !== "name") q.set("sort", next.sort);
    if (next.dir !== "asc") q.set("dir", next.dir);
    if (next.size !== DEFAULT_PAGE_SIZE) q.set("size", String(next.size));
    const page = pageForUrl(next.page);
    if (page) q.set("page", page);
    const url = q.size ? `${pathname}?${q}` : pathname;
    setWritten({ over: urlQuery, query: q.toString() });
    // The native history API: Next.js syncs useSearchParams with it and skips the server round trip that
    // router.push would make for a page that only changes its query.
    if (replace === "always" || (replace && filters.search)) window.history.replaceState(null, "", url);
    else window.history.pushState(null, "", url);
  };
  return { filters, update };
}

export function SearchBox({
  value,
  onChange,
  label,
  hint,
}: {
  value: string;
  onChange: (v: string) => void;
  label?: string;
  hint?: string;
}) {
  const t = useT(messages);
  const [text, setText] = useState(value);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  // A new value from the URL (back button) replaces what is typed.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value);
  }
  // The list is asked for once typing pauses, not on every keystroke.
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onChangeRef.current(text), 300);
    return () => clearTimeout(timer);
  }, [text, value]);
  // A whole address (about 36 characters) fits from 320 px up: the row's full width on phones, a smaller font there.
  return (
    <TextField
      className="w-full sm:max-w-xs [&_input]:px-2 [&_input]:text-[12.5px] [&_input]:tracking-tight min-[360px]:[&_input]:text-sm min-[360px]:[&_input]:tracking-normal sm:[&_input]:px-3 sm:[&_input]:text-base"
      label={label ?? t("search")}
      hint={hint}
      type="search"
      value={text}
      maxLength={100}
      onChange={(e) => setText(e.target.value)}
    />
  );
}

export function SortHeader({
  field,
  label,
  filters,
  onSort,
  className = "",
}: {
  field: string;
  label: string;
  filters: PageFilters;
  onSort: (field: string, dir: "asc" | "desc") => void;
  className?: string;
}) {
  const t = useT(messages);
  const active = filters.sort === field;
  const nextDir = active && filters.dir === "asc" ? "desc" : "asc";
  return (
    <th
      scope="col"
      aria-sort={active ? (filters.dir === "asc" ? "ascending" : "descending") : undefined}
      className={`px-2 py-2 text-left text-xs font-semibold uppercase tracking-wide text-gray-800 ${className}`}
    >
      <button
        type="button"
        // A button centres its lines: a heading wrapped on two ("Ostatnie logowanie") aligns as the column does.
        className="inline-flex items-center gap-1 rounded [text-align:inherit]"
        onClick={() => onSort(field, nextDir)}
        title={t("sortBy", { col: label })}
      >
        {label}
        <span aria-hidden="true" className="inline-block w-3">
          {active ? (filters.dir === "asc" ? "▲" : "▼") : ""}
        </span>
      </button>
    </th>
  );
}

export function Pager({
  filters,
  total,
  onChange,
}: {
  filters: PageFilters;
  total: number;
  onChange: (patch: Partial<PageFilters>) => void;
}) {
  const t = useT(messages);
  const locale = useLocale();
  const pages = Math.max(1, Math.ceil(total / filters.size));
  return (
    <nav aria-label={t("pager")} className="flex flex-wrap items-center justify-between gap-3 py-2 text-sm">
      <p aria-live="polite">
        {t("page", { page: Math.min(filters.page + 1, pages), pages, total: countOf(locale, total, ITEM_NOUN) })}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Select
          className="flex items-center gap-2 whitespace-nowrap [&_label]:mb-0 [&_select]:w-20"
          label={t("rows")}
          value={filters.size}
          options={PAGE_SIZES.map((s) => ({ value: s, label: String(s) }))}
          onChange={(e) => onChange({ size: Number(e.target.value), page: 0 })}
        />
        {/* The two buttons wrap together: "Next" never goes to a line of its own. As tall as the select beside them. */}
        <div className="flex gap-2">
          <Button
            variant="secondary"
            className="h-[42px]"
            disabled={filters.page === 0}
            onClick={() => onChange({ page: filters.page - 1 })}
          >
            {t("prev")}
          </Button>
          <Button
            variant="secondary"
            className="h-[42px]"
            disabled={filters.page + 1 >= pages}
            onClick={() => onChange({ page: filters.page + 1 })}
          >
            {t("next")}
          </Button>
        </div>
      </div>
    </nav>
  );
}

/** Whole class names, so that Tailwind finds them. */
const HIDDEN_FROM = { md: "md:hidden", lg: "lg:hidden", xl: "xl:hidden" } as const;

/**
 * The sort control of narrow screens, where the table shows only its name column, and of any width where a sortable
 * column is not shown yet (`hiddenFrom`: where the last of them appears): one select of every sortable column and
 * direction ("Pojemność, malejąco"), so a phone or a tablet sorts by what a desktop sorts by.
 */
export function SortSelect({
  fields,
  filters,
  onSort,
  hiddenFrom,
}: {
  fields: { key: string; label: string }[];
  filters: PageFilters;
  onSort: (field: string, dir: "asc" | "desc") => void;
  hiddenFrom: keyof typeof HIDDEN_FROM;
}) {
  const t = useT(messages);
  const options = fields.flatMap((f) =>
    (["asc", "desc"] as const).map((dir) => ({ value: `${f.key}:${dir}`, label: `${f.label}, ${t(dir)}` })),
  );
  return (
    <Select
      className={`w-full sm:max-w-xs ${HIDDEN_FROM[hiddenFrom]}`}
      label={t("sortField")}
      value={`${filters.sort}:${filters.dir}`}
      options={options}
      onChange={(e) => {
        const [field, dir] = e.target.value.split(":");
        onSort(field!, dir === "desc" ? "desc" : "asc");
      }}
    />
  );
}

/** Placeholder rows of the table's final height while the first page loads (no jump when data arrives). */
export function SkeletonRows({ rows, cols }: { rows: number; cols: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, i) => (
        <tr key={i} aria-hidden="true" className="h-11 border-t border-gray-200">
          {Array.from({ length: cols }, (_, j) => (
            <td key={j} className="px-2">
              <Skeleton className="h-3 w-full" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}
