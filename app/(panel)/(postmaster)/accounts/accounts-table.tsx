"use client";
// The account table. Only the requested page is ever fetched (a domain may hold 100,000 accounts); the previous
// page stays on screen while the next loads, and skeleton rows keep the table's height on the first load.
import dynamic from "next/dynamic";
import { useCallback, useMemo, useState } from "react";
import { Alert, Button, Card, Spinner } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useAccountList, useDeleteAccounts, type InitialAccountPage } from "@/lib/client/hooks/accounts";
import { useDomainName } from "@/lib/client/hooks/session";
import { useLinkNavigation } from "@/lib/client/use-link-navigation";
import { useT } from "@/lib/i18n";
import { ACCOUNT_SORT_FIELDS } from "@/lib/schemas/account-sort";
import { Pager, SearchBox, SkeletonRows, SortHeader, useListFilters } from "../_postmaster/list-controls";
import { useConfirmedDelete } from "../_postmaster/confirmed-delete";
import { Meter } from "../_postmaster/meter";
import { LoadFailedAlert, PageHeader } from "../_postmaster/page-parts";
import { focusRing, linkClass } from "../_postmaster/ui";
import { BulkActions } from "./bulk-actions";
import { accountMessages } from "./messages";

const COLS = 9;
const CREATE_FORM_ID = "create-account";
// The form (and react-hook-form with it) loads when the postmaster opens it: creating an account is occasional, and
// on the table's first load the form's code and hydration were a measurable share of the main-thread work (issue 4).
const CreateAccountForm = dynamic(() => import("./create-account-form").then((m) => m.CreateAccountForm), {
  ssr: false,
  loading: () => <Spinner />,
});

/** `initial`: the page the server read for the URL it rendered (absent if the API would refuse that query). */
export function AccountsTable({ initial }: { initial?: InitialAccountPage }) {
  const t = useT(accountMessages);
  const errorText = useErrorText();
  const domain = useDomainName();
  const { filters, update } = useListFilters(ACCOUNT_SORT_FIELDS);
  const list = useAccountList(domain, filters, initial);
  const remove = useDeleteAccounts(domain);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState("");
  const [creating, setCreating] = useState(false);
  const navigate = useLinkNavigation();

  const rows = useMemo(() => list.data?.rows ?? [], [list.data]);
  const total = list.data?.info.total ?? 0;
  const change = useCallback(
    (patch: Parameters<typeof update>[0], replace = false) => {
      setSelected(new Set());
      update(patch, replace);
    },
    [update],
  );
  const onSearch = useCallback((search: string) => change({ search, page: 0 }, true), [change]);
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.name));

  const toggle = (name: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });

  const deletion = useConfirmedDelete(
    remove,
    {
      delete: t("delete"),
      confirm: (names) =>
        names.length === 1
          ? t("confirmDelete", { name: names[0]! })
          : t("confirmDeleteMany", { n: names.length, names: names.join(", ") }),
      deleted: (names) => t("deleted", { names: names.join(", ") }),
    },
    (deleted) => {
      setNotice(deleted);
      setSelected(new Set());
    },
  );

  return (
    <div className="space-y-4">
      <PageHeader title={t("title")} intro={t("intro", { domain: domain ?? "…" })} />

      {creating && domain && (
        <div id={CREATE_FORM_ID}>
          <Card title={t("createTitle")} level={2}>
            <CreateAccountForm domain={domain} onDone={(email) => setNotice(t("created_ok", { email }))} />
          </Card>
        </div>
      )}

      {notice && <Alert tone="success">{notice}</Alert>}

      <div className="flex flex-wrap items-end justify-between gap-3">
        <SearchBox value={filters.search} onChange={onSearch} />
        <Button
          variant={creating ? "secondary" : "primary"}
          aria-expanded={creating}
          aria-controls={creating ? CREATE_FORM_ID : undefined}
          onClick={() => setCreating((open) => !open)}
        >
          {creating ? t("closeCreate") : t("createTitle")}
        </Button>
      </div>

      {selected.size > 0 && domain && (
        <BulkActions
          domain={domain}
          names={[...selected]}
          onDelete={() => deletion.ask([...selected])}
          onClear={() => setSelected(new Set())}
        />
      )}

      {list.isError && (
        <LoadFailedAlert
          text={t("loadFailed", { error: errorText.failure(list.error) })}
          retryLabel={t("retry")}
          onRetry={() => void list.refetch()}
        />
      )}

      <div className="relative overflow-x-auto rounded-lg border border-gray-300 bg-white">
        {/* Fixed column widths: new rows never move the columns (no layout jump between pages or sorts). */}
        <table className="w-full min-w-[1040px] table-fixed border-collapse text-sm" aria-busy={list.isFetching}>
          <caption className="sr-only">{t("title")}</caption>
          <colgroup>
            <col className="w-10" />
            <col className="w-[17%]" />
            <col />
            <col className="w-24" />
            <col className="w-36" />
            <col className="w-28" />
            <col className="w-28" />
            <col className="w-28" />
            <col className="w-32" />
            <col className="w-20" />
          </colgroup>
          <thead className="bg-gray-50">
            <tr>
              <th scope="col" className="w-10 px-2 py-2">
                <input
                  type="checkbox"
                  aria-label={t("selectAll")}
                  className={`h-5 w-5 accent-blue-700 ${focusRing}`}
                  checked={allSelected}
                  disabled={rows.length === 0}
                  onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.name)))}
                />
              </th>
              <SortHeader field="name" label={t("name")} filters={filters} onSort={(sort, dir) => change({ sort, dir, page: 0 })} />
              <SortHeader field="description" label={t("description")} filters={filters} onSort={(sort, dir) => change({ sort, dir, page: 0 })} />
              <SortHeader field="capacity" label={t("capacity")} filters={filters} onSort={(sort, dir) => change({ sort, dir, page: 0 })} className="text-right" />
              <SortHeader field="usage" label={t("usage")} filters={filters} onSort={(sort, dir) => change({ sort, dir, page: 0 })} className="w-40" />
              <SortHeader field="blocked" label={t("blocked")} filters={filters} onSort={(sort, dir) => change({ sort, dir, page: 0 })} />
              <SortHeader field="creation_date" label={t("created")} filters={filters} onSort={(sort, dir) => change({ sort, dir, page: 0 })} />
              <SortHeader field="expiration_date" label={t("expires")} filters={filters} onSort={(sort, dir) => change({ sort, dir, page: 0 })} />
              <SortHeader field="last_auth_date" label={t("lastLogin")} filters={filters} onSort={(sort, dir) => change({ sort, dir, page: 0 })} />
              <th scope="col" className="px-2 py-2 text-left text-xs font-semibold uppercase tracking-wide text-gray-800">
                <span className="sr-only">{t("actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody className={list.isPlaceholderData ? "opacity-60" : undefined} onClick={navigate}>
            {!list.data && !list.isError && <SkeletonRows rows={Math.min(filters.size, 10)} cols={COLS + 1} />}
            {list.data && rows.length === 0 && (
              <tr>
                <td colSpan={COLS + 1} className="px-3 py-8 text-center text-gray-700">
                  {filters.search ? t("emptySearch", { search: filters.search }) : t("empty")}
                </td>
              </tr>
            )}
            {rows.map((r) => {
              const usage = Number(String(r.usage).replace("%", "")) || 0;
              return (
                <tr key={r.name} className="h-11 border-t border-gray-200 hover:bg-gray-50">
                  <td className="px-2">
                    <input
                      type="checkbox"
                      aria-label={t("selectRow", { name: r.email })}
                      className={`h-5 w-5 accent-blue-700 ${focusRing}`}
                      checked={selected.has(r.name)}
                      onChange={() => toggle(r.name)}
                    />
                  </td>
                  <td className="truncate px-2 font-medium">
                    {/* A plain link, navigated client-side by the tbody's handler (useLinkNavigation) and never
                        prefetched: a page shows up to 200 rows, rarely all opened. */}
                    <a href={`/accounts/${encodeURIComponent(r.name)}`} className={linkClass} aria-label={t("edit", { name: r.email })}>
                      {r.name}
                    </a>
                  </td>
                  <td className="max-w-56 truncate px-2" title={r.description}>
                    {r.description}
                  </td>
                  <td className="px-2 text-right tabular-nums">{r.capacity}</td>
                  <td className="px-2">
                    <Meter label={`${t("usage")} ${r.name}`} value={usage} max={100} text={`${usage}%`} />
                  </td>
                  <td className="px-2">
                    {r.blocked === "1" ? <span className="font-semibold text-red-800">{t("yes")}</span> : t("no")}
                  </td>
                  <td className="px-2 tabular-nums">{r.creation_date}</td>
                  <td className="px-2 tabular-nums">{r.expiration_date || "—"}</td>
                  <td className="px-2 tabular-nums">{r.last_auth_date || "—"}</td>
                  <td className="px-2 text-right">
                    {r.name !== "postmaster" && (
                      <Button variant="ghost" className="min-h-8 px-2" onClick={() => deletion.ask([r.name])} aria-label={`${t("delete")} ${r.email}`}>
                        {t("delete")}
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager filters={filters} total={total} onChange={(patch) => change(patch)} />

      {deletion.dialog}
    </div>
  );
}
