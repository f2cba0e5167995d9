"use client";
// The mailing-list table: one page fetched at a time, sorted and searched on the server.
import Link from "next/link";
import { useCallback, useMemo, useState } from "react";
import { Alert, Button, Card } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useDeleteMailingLists, useMailingListList } from "@/lib/client/hooks/mailing-lists";
import { useDomainName } from "@/lib/client/hooks/session";
import { useT } from "@/lib/i18n";
import { LIST_SORT_FIELDS } from "@/lib/schemas/mailing-list";
import { Pager, SearchBox, SkeletonRows, SortHeader, useListFilters } from "../_postmaster/list-controls";
import { useConfirmedDelete } from "../_postmaster/confirmed-delete";
import { LoadFailedAlert, PageHeader } from "../_postmaster/page-parts";
import { linkClass } from "../_postmaster/ui";
import { CreateListForm } from "./create-list-form";
import { listMessages } from "./messages";

export function ListsTable() {
  const t = useT(listMessages);
  const errorText = useErrorText();
  const domain = useDomainName();
  const { filters, update } = useListFilters(LIST_SORT_FIELDS);
  const list = useMailingListList(domain, filters);
  const remove = useDeleteMailingLists(domain);
  const [notice, setNotice] = useState("");
  const rows = useMemo(() => list.data?.rows ?? [], [list.data]);
  const onSearch = useCallback((search: string) => update({ search, page: 0 }, true), [update]);
  const onSort = (sort: string, dir: "asc" | "desc") => update({ sort, dir, page: 0 });

  const emailOf = (names: string[]) => `${names[0]}@${domain}`;
  const deletion = useConfirmedDelete(
    remove,
    {
      delete: t("delete"),
      confirm: (names) => t("confirmDelete", { email: emailOf(names) }),
      deleted: (names) => t("deleted", { email: emailOf(names) }),
    },
    setNotice,
  );

  return (
    <div className="space-y-4">
      <PageHeader title={t("title")} intro={t("intro", { domain: domain ?? "…" })} />
      <Card title={t("createTitle")}>{domain && <CreateListForm domain={domain} />}</Card>
      {notice && <Alert tone="success">{notice}</Alert>}
      <SearchBox value={filters.search} onChange={onSearch} />
      {list.isError && (
        <LoadFailedAlert
          text={t("loadFailed", { error: errorText.failure(list.error) })}
          retryLabel={t("retry")}
          onRetry={() => void list.refetch()}
        />
      )}
      <div className="relative overflow-x-auto rounded-lg border border-gray-300 bg-white">
        <table className="w-full min-w-[640px] border-collapse text-sm" aria-busy={list.isFetching}>
          <caption className="sr-only">{t("title")}</caption>
          <thead className="bg-gray-50">
            <tr>
              <SortHeader field="name" label={t("name")} filters={filters} onSort={onSort} />
              <SortHeader field="description" label={t("description")} filters={filters} onSort={onSort} />
              <SortHeader field="privacy_mode" label={t("privacy_mode")} filters={filters} onSort={onSort} />
              <SortHeader field="replyto_mode" label={t("replyto_mode")} filters={filters} onSort={onSort} />
              <SortHeader field="autosubscribe_enabled" label={t("autosubscribe_enabled")} filters={filters} onSort={onSort} />
              <th scope="col" className="px-2 py-2">
                <span className="sr-only">{t("actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody className={list.isPlaceholderData ? "opacity-60" : undefined}>
            {!list.data && !list.isError && <SkeletonRows rows={Math.min(filters.size, 5)} cols={6} />}
            {list.data && rows.length === 0 && (
              <tr>
                <td colSpan={6} className="px-3 py-8 text-center text-gray-700">
                  {filters.search ? t("emptySearch", { search: filters.search }) : t("empty")}
                </td>
              </tr>
            )}
            {rows.map((l) => (
              <tr key={l.name} className="h-11 border-t border-gray-200">
                <td className="px-2 font-medium">
                  <Link href={`/lists/${encodeURIComponent(l.name)}`} className={linkClass} aria-label={t("edit", { email: l.email })}>
                    {l.email}
                  </Link>
                </td>
                <td className="max-w-64 truncate px-2" title={l.description}>
                  {l.description}
                </td>
                <td className="px-2">{t(`privacy${l.privacy_mode}` as "privacy0")}</td>
                <td className="px-2">{t(`replyto${l.replyto_mode}` as "replyto0")}</td>
                <td className="px-2">{l.autosubscribe_enabled === "1" ? t("yes") : t("no")}</td>
                <td className="px-2 text-right">
                  <Button variant="ghost" className="min-h-8 px-2" aria-label={`${t("delete")}: ${l.email}`} onClick={() => deletion.ask([l.name])}>
                    {t("delete")}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager filters={filters} total={list.data?.info.total ?? 0} onChange={(patch) => update(patch)} />
      {deletion.dialog}
    </div>
  );
}
