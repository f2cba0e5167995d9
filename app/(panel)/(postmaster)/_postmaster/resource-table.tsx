"use client";
// The one table of the postmaster's resources (accounts, aliases, mailing lists): search, sort and paging in the
// URL, rows in the service's order, a selection that survives paging and sorting and can extend to every row
// matching the search, bulk changes and deletes sent in atomic chunks, and the delete dialog. Only the requested page is ever
// fetched (a domain may hold 100,000 accounts); the previous page stays on screen while the next loads.
//
// Narrow screens: columns marked `wide` are hidden below the md breakpoint, and each resource's name cell shows the
// row's key facts there instead, so name, facts and actions fit 375 px without sideways scrolling. A column marked
// `from` appears only at lg or xl, where the fixed columns leave the description its room; until the last sortable
// one appears, the sort select stays.
import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { Alert, ConfirmDialog, type DetailsState } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import type { InitialListPage, ResourceHooks } from "@/lib/client/hooks/resource";
import { useDomainName } from "@/lib/client/hooks/session";
import { useLinkNavigation } from "@/lib/client/use-link-navigation";
import { useLocale, useT } from "@/lib/i18n";
import { countOf, type Noun } from "@/lib/i18n/plural";
import { CHUNK_SIZE, chunked, matchingNames, type ChunkProgress } from "./bulk";
import { BulkBar, OutcomeAlert, type Outcome } from "./bulk-bar";
import { ExportLinks, type ExportResource } from "./export-links";
import { Pager, SearchBox, SkeletonRows, SortHeader, SortSelect, useListFilters } from "./list-controls";
import { LoadFailedAlert } from "./page-parts";
import { cellClass, sortableShownFrom, type Column } from "./table-columns";
import { tableMessages } from "./table-messages";
import { useSelection } from "./use-selection";

export { descriptionColumn, nameColumn, type Column } from "./table-columns";

/** The selected names, read (across pages when all matching are selected) before a question is asked about them. */
export interface ResolvedSelection {
  /** The names the action changes. */
  names: string[];
  /** Selected names the action leaves out (the table's `protectedNames`: the postmaster account). */
  skipped: string[];
}

/** What bulk actions get: the names to change (resolved across pages when all matching are selected). */
export interface BulkContext {
  count: number;
  /** Runs `apply` over the selected names (or the given ones, read by `resolve`) in atomic chunks of at most 1,000,
   *  one after another; `note` follows the success message (which names were left out). */
  run: (apply: (names: string[]) => Promise<unknown>, names?: string[], note?: string) => Promise<void>;
  /** Reads the selected names; with `protect`, the table's protected names are set apart (null: the read failed,
   *  and the outcome says so). */
  resolve: (protect: boolean) => Promise<ResolvedSelection | null>;
  pending: boolean;
  /** Shows an action's refusal as its outcome. */
  showError: (text: string) => void;
  /** Takes down the last action's outcome: an action that stops at its own check must not stand under an old "done". */
  clearOutcome: () => void;
}

export type ResourceTextKey =
  "title" | "empty" | "emptySearch" | "loadFailed" | "confirmDelete" | "confirmDeleteMany" | "deleteTitle";

interface Row {
  name: string;
  email: string;
}

export interface ResourceTableProps<R extends Row> {
  resource: ResourceHooks<R, { name: string }>;
  initial?: InitialListPage<R>;
  /** The resource's own texts: title (the caption), empty, emptySearch {search}, loadFailed {error}, and
   *  confirmDelete {email} (also as {name}) for one row, and deleteTitle, the question heading that dialog;
   *  confirmDeleteMany, what goes with several rows (under the title that counts them). */
  t: (key: ResourceTextKey, vars?: Record<string, string>) => string;
  noun: Noun;
  columns: Column<R>[];
  /** Rows with a delete button (the postmaster account has none; a bulk delete naming it is refused whole). */
  deletable?: (row: R) => boolean;
  /** Names a bulk delete (and a bulk action resolving with `protect`) leaves out of the selection: the service
   *  refuses a whole request naming one of them (the postmaster account cannot be deleted or blocked). */
  protectedNames?: readonly string[];
  /** Said in the bulk delete dialog, and after the delete, when it leaves protected names out. */
  skippedNote?: string;
  /** Buttons before "Delete" in a row. */
  rowActions?: (row: R) => ReactNode;
  /** Bulk actions of the selected rows besides delete. */
  bulkActions?: (ctx: BulkContext) => ReactNode;
  /** What else goes with the names being deleted (accounts: their aliases and the catchall); `count` of them go.
   *  It reports whether it is shown yet through `onState`: the dialog's "Delete" waits for "ready". */
  deleteDetails?: (names: string[] | "all", count: number, onState: (state: DetailsState) => void) => ReactNode;
  /** Above the search box's row, beside it. */
  toolbar?: ReactNode;
  /** The page's success banner, shown above the table: set by the page's forms and by the table's own deletes. */
  notice: string;
  onNotice: (text: string) => void;
  /** Row links are plain <a>s navigated by one handler (lib/client/use-link-navigation.ts). */
  linkRows?: boolean;
  /** Which CSV export the links beside the search box download (everything the search matches). */
  exportAs: ExportResource;
  /** The actions column's width from md up (default md:w-44: room for two buttons). */
  actionsClassName?: string;
  /** From which width a row's buttons stand side by side, not one above the other (default md). */
  actionsRowClassName?: string;
}

/** Skeleton rows shown on the first load. */
const SKELETON_ROWS = 8;

export function ResourceTable<R extends Row>(props: ResourceTableProps<R>) {
  const { resource, columns, noun } = props;
  const t = useT(tableMessages);
  const locale = useLocale();
  const errorText = useErrorText();
  const domain = useDomainName();
  const { filters, update } = useListFilters(resource.sortFields);
  const list = resource.useList(domain, filters, props.initial);
  const remove = resource.useDelete(domain);
  const navigate = useLinkNavigation();
  const [progress, setProgress] = useState<ChunkProgress | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  /** The delete dialog's names: one row's (`single`), or the selection's, read first and without protected names. */
  const [deleting, setDeleting] = useState<{ names: string[]; single: boolean; skipped: string[] } | null>(null);
  const [detailsState, setDetailsState] = useState<DetailsState>("loading");
  /** Opens the delete dialog of one row. */
  const askDelete = (name: string) => {
    setDetailsState("loading");
    setDeleting({ names: [name], single: true, skipped: [] });
  };

  const rows = useMemo(() => list.data?.rows ?? [], [list.data]);
  const total = list.data?.info.total ?? 0;
  const canDelete = (r: R) => props.deletable?.(r) ?? true;
  const rawSelection = useSelection(rows);
  const { allMatching, selected, clear: clearSelection } = rawSelection;
  // The postmaster's own changes of the selection take down the last bulk action's outcome: an old "Zmieniono: 11
  // kont." stood under a new selection (the table's own clearing after a delete keeps the outcome it just set).
  const picked =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      setOutcome(null);
      fn(...args);
    };
  const selection = {
    ...rawSelection,
    toggle: picked(rawSelection.toggle),
    togglePage: picked(rawSelection.togglePage),
    selectAllMatching: picked(rawSelection.selectAllMatching),
    clear: picked(rawSelection.clear),
  };
  const selectedCount = selection.count;
  const count = (n: number) => countOf(locale, n, noun);

  // Paging and sorting keep the selection (the same rows, shown in another order or slice, "all matching" too); a
  // new search starts a new one (it selects among other rows).
  const change = useCallback(
    (patch: Parameters<typeof update>[0], replace = false) => {
      if (patch.search !== undefined) {
        clearSelection();
        setOutcome(null);
      }
      update(patch, replace);
    },
    [update, clearSelection],
  );
  const onSearch = useCallback((search: string) => change({ search, page: 0 }, true), [change]);
  const onSort = (sort: string, dir: "asc" | "desc") => change({ sort, dir, page: 0 });

  // A page past the last one (the whole last page deleted, or a stale link): show the last page that exists, in
  // place of the URL's, instead of "nothing matches" under "page 2 of 1".
  const lastPage = Math.max(0, Math.ceil(total / filters.size) - 1);
  const pastEnd = !!list.data && !list.isPlaceholderData && rows.length === 0 && total > 0 && filters.page > lastPage;
  useEffect(() => {
    if (!pastEnd) return;
    // On the next task: on a first load this effect runs before the router's own (a parent's), which is what
    // makes Next see a history.replaceState.
    const timer = setTimeout(() => update({ page: lastPage }, "always"), 0);
    return () => clearTimeout(timer);
  }, [pastEnd, lastPage, update]);

  /** The selected names: read from the service, page by page, when all matching rows are selected. */
  const resolveNames = async (): Promise<string[]> => {
    if (!allMatching || !domain) return [...selected];
    setProgress({ phase: "reading", done: 0, total: allMatching.total });
    const names = await matchingNames(resource.fetchPage, domain, allMatching.search, (done) =>
      setProgress({ phase: "reading", done, total: allMatching.total }),
    );
    return names.filter((n) => !allMatching.except.has(n));
  };

  /** The selected names before a question about them, with `protect` the protected ones set apart: the question
   *  counts the names the action changes (a selection naming the postmaster was refused whole). */
  const resolve = async (protect: boolean): Promise<ResolvedSelection | null> => {
    setOutcome(null);
    props.onNotice("");
    try {
      const all = await resolveNames();
      const kept = protect ? (props.protectedNames ?? []) : [];
      return { names: all.filter((n) => !kept.includes(n)), skipped: all.filter((n) => kept.includes(n)) };
    } catch (err) {
      setOutcome({ ok: false, text: t("bulkFailed", { error: errorText.failure(err) }) });
      return null;
    } finally {
      setProgress(null);
    }
  };

  /** Applies a change to the selected names (or `given` ones) in chunks; reports what was applied if a chunk fails. */
  const runChunks = async (
    apply: (names: string[]) => Promise<unknown>,
    deleting = false,
    given?: string[],
    note?: string,
  ): Promise<boolean> => {
    setOutcome(null);
    // A new action's outcome replaces the page's earlier success banner, so no old "saved" stands beside an error.
    props.onNotice("");
    let done = 0;
    let names: string[] = [];
    try {
      names = given ?? (await resolveNames());
      setProgress({ phase: "applying", done: 0, total: names.length });
      for (const chunk of chunked(names, CHUNK_SIZE)) {
        await apply(chunk);
        done += chunk.length;
        setProgress({ phase: "applying", done, total: names.length });
      }
      const text = t(deleting ? "bulkDeleted" : "bulkDone", { count: count(done) });
      setOutcome({ ok: true, text: note ? `${text} ${note}` : text });
      return true;
    } catch (err) {
      const children = errorChildren(err, errorText.body);
      const text =
        done > 0
          ? t(deleting ? "bulkPartlyDeleted" : "bulkPartly", {
              done: count(done),
              rest: count(names.length - done),
              error: errorText.failure(err),
            })
          : t(deleting ? "bulkDeleteFailed" : "bulkFailed", { error: errorText.failure(err) });
      setOutcome({ ok: false, text, children });
      return false;
    } finally {
      setProgress(null);
    }
  };

  const bulkContext: BulkContext = {
    count: selectedCount,
    pending: progress !== null,
    run: async (apply, names, note) => {
      await runChunks(apply, false, names, note);
    },
    resolve,
    showError: (text) => setOutcome({ ok: false, text }),
    clearOutcome: () => {
      setOutcome(null);
      props.onNotice("");
    },
  };

  /** Opens the delete dialog of the selection: its names read first, the protected ones left out. */
  const askDeleteSelected = async () => {
    const resolved = await resolve(true);
    if (!resolved) return;
    // Only protected names selected: nothing to ask about.
    if (resolved.names.length === 0) {
      if (props.skippedNote) setOutcome({ ok: false, text: props.skippedNote });
      return;
    }
    setDetailsState("loading");
    setDeleting({ ...resolved, single: false });
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    if (deleting.single) {
      const single = deleting.names;
      try {
        await remove.mutateAsync(single);
        setOutcome(null);
        props.onNotice(t("deleted", { names: single.join(", ") }));
        setDeleting(null);
        rawSelection.unselect(single);
      } catch {
        // shown in the dialog
      }
      return;
    }
    const { names, skipped } = deleting;
    setDeleting(null);
    const note = skipped.length > 0 ? props.skippedNote : undefined;
    if (await runChunks((chunk) => remove.mutateAsync(chunk), true, names, note)) clearSelection();
  };

  // One name, from a row or a selection of one: the row's question. All matching: the names are not listed, and
  // what goes too is said in general.
  const oneName = deleting?.names.length === 1 ? deleting.names[0] : undefined;
  const dialogNames = deleting && (deleting.single || !allMatching) ? deleting.names : null;
  const colCount = columns.length + 2;

  return (
    <div className="space-y-4">
      {props.notice && <Alert tone="success">{props.notice}</Alert>}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex w-full flex-wrap items-end gap-3 md:w-auto">
          <SearchBox value={filters.search} onChange={onSearch} />
          <SortSelect
            fields={columns.filter((c) => c.sortable !== false).map((c) => ({ key: c.key, label: c.label }))}
            filters={filters}
            onSort={onSort}
            hiddenFrom={sortableShownFrom(columns)}
          />
          <ExportLinks resource={props.exportAs} filters={filters} />
        </div>
        {props.toolbar}
      </div>

      {selectedCount > 0 && (
        <BulkBar
          selection={selection}
          total={total}
          search={filters.search}
          count={count}
          progress={progress}
          actions={props.bulkActions?.(bulkContext)}
          onDelete={() => void askDeleteSelected()}
        />
      )}
      {outcome && <OutcomeAlert outcome={outcome} />}

      {list.isError && (
        <LoadFailedAlert
          text={props.t("loadFailed", { error: errorText.failure(list.error) })}
          retryLabel={t("retry")}
          onRetry={() => void list.refetch()}
        />
      )}

      <div className="relative rounded-lg border border-gray-300 bg-white">
        <table className="w-full border-collapse text-sm md:table-fixed" aria-busy={list.isFetching}>
          <caption className="sr-only">{props.t("title")}</caption>
          <thead className="bg-gray-50">
            <tr>
              <th scope="col" className="w-10 px-2 py-2">
                <input
                  type="checkbox"
                  aria-label={t("selectPage")}
                  className="tcheck"
                  checked={selection.pageAll}
                  disabled={rows.length === 0}
                  onChange={selection.togglePage}
                />
              </th>
              {columns.map((c) =>
                c.sortable === false ? (
                  <th
                    key={c.key}
                    scope="col"
                    className={`px-2 py-2 text-left text-xs font-semibold uppercase tracking-wide text-gray-800 ${cellClass(c)}`}
                  >
                    {c.label}
                  </th>
                ) : (
                  <SortHeader
                    key={c.key}
                    field={c.key}
                    label={c.label}
                    filters={filters}
                    onSort={onSort}
                    className={cellClass(c)}
                  />
                ),
              )}
              <th scope="col" className={`w-24 px-2 py-2 ${props.actionsClassName ?? "md:w-44"}`}>
                <span className="sr-only">{t("actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody
            className={list.isPlaceholderData ? "opacity-60" : undefined}
            onClick={props.linkRows ? navigate : undefined}
          >
            {!list.data && !list.isError && (
              <SkeletonRows rows={Math.min(filters.size, SKELETON_ROWS)} cols={colCount} />
            )}
            {list.data && rows.length === 0 && (
              <tr>
                <td colSpan={colCount} className="px-3 py-8 text-center text-gray-700 wrap-anywhere">
                  {filters.search ? props.t("emptySearch", { search: filters.search }) : props.t("empty")}
                </td>
              </tr>
            )}
            {rows.map((r) => (
              <tr key={r.name} className="trow">
                <td className="tcell">
                  <input
                    type="checkbox"
                    aria-label={t("selectRow", { name: r.email })}
                    className="tcheck"
                    checked={selection.isSelected(r.name)}
                    onChange={() => selection.toggle(r.name)}
                  />
                </td>
                {columns.map((c) => (
                  <td key={c.key} className={`tcell ${cellClass(c)}`}>
                    {c.cell(r)}
                  </td>
                ))}
                <td className="px-2 py-1.5 text-right">
                  <div
                    className={`flex flex-col items-end gap-1 ${props.actionsRowClassName ?? "md:flex-row md:justify-end"}`}
                  >
                    {props.rowActions?.(r)}
                    {canDelete(r) && (
                      // The ghost Button's look in one short class (app/globals.css): it is repeated in every row.
                      <button
                        type="button"
                        className="tdelete"
                        aria-label={`${t("delete")}: ${r.email}`}
                        onClick={() => askDelete(r.name)}
                      >
                        {t("delete")}
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager filters={filters} total={total} onChange={(patch) => change(patch)} />

      <ConfirmDialog
        open={deleting !== null}
        danger
        title={
          oneName !== undefined
            ? props.t("deleteTitle")
            : t("deleteMany", { count: count(deleting?.names.length ?? 0) })
        }
        description={
          deleting && (
            <>
              <p>
                {oneName !== undefined
                  ? props.t("confirmDelete", {
                      email: `${oneName}@${domain ?? ""}`,
                      name: `${oneName}@${domain ?? ""}`,
                    })
                  : props.t("confirmDeleteMany")}
              </p>
              {dialogNames && dialogNames.length > 1 && (
                <NameList names={dialogNames} more={(n) => t("andMore", { n })} />
              )}
              {deleting.skipped.length > 0 && props.skippedNote && <p className="mt-2">{props.skippedNote}</p>}
              {deleting.names.length > CHUNK_SIZE && <p className="mt-2">{t("chunksNote", { size: CHUNK_SIZE })}</p>}
            </>
          )
        }
        details={
          deleting && props.deleteDetails
            ? {
                state: detailsState,
                content: props.deleteDetails(dialogNames ?? "all", deleting.names.length, setDetailsState),
              }
            : undefined
        }
        confirmLabel={t("delete")}
        pending={remove.isPending && !!deleting?.single}
        error={remove.error && deleting?.single ? errorText.failure(remove.error) : undefined}
        onConfirm={() => void confirmDelete()}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
      />
    </div>
  );
}

const NAMES_SHOWN = 10;

function NameList({ names, more }: { names: string[]; more: (n: number) => string }) {
  return (
    <p className="mt-2 wrap-anywhere">
      {names.slice(0, NAMES_SHOWN).join(", ")}
      {names.length > NAMES_SHOWN && ` ${more(names.length - NAMES_SHOWN)}`}
    </p>
  );
}

/** One line per failing name of a multi-name answer ("name: reason"), without raw codes. */
function errorChildren(err: unknown, body: (b: { code: string; message: string }) => string): string[] | undefined {
  type Child = { source?: string; code: string; message: string; attributes?: { field?: unknown } };
  const top = (err as { body?: { source?: string; code: string; children?: Child[] } }).body;
  const children = top?.children;
  // The change itself refused (a bad value, the domain's capacity total): every name has the same error as the
  // whole, which the message already says; a line per name (up to a chunk's 1,000) would only repeat it.
  if (children?.every((c) => c.code === top!.code && c.attributes?.field === top!.source && c.source !== top!.source))
    return undefined;
  return children?.map((c) => `${c.source ?? ""}: ${body(c)}`);
}
