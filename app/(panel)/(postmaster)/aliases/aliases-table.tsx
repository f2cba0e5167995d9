"use client";
// The alias table: one page fetched at a time, sorted and searched on the server, edited in place.
import { useCallback, useMemo, useState } from "react";
import { Alert, Button, Card } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useAliasList, useDeleteAliases } from "@/lib/client/hooks/aliases";
import { useDomainName } from "@/lib/client/hooks/session";
import { useT } from "@/lib/i18n";
import { ALIAS_SORT_FIELDS } from "@/lib/schemas/alias";
import { Pager, SearchBox, SkeletonRows, SortHeader, useListFilters } from "../_postmaster/list-controls";
import { useConfirmedDelete } from "../_postmaster/confirmed-delete";
import { LoadFailedAlert, PageHeader } from "../_postmaster/page-parts";
import { CreateAliasForm, EditTargetForm } from "./alias-forms";
import { aliasMessages } from "./messages";

export function AliasesTable() {
  const t = useT(aliasMessages);
  const errorText = useErrorText();
  const domain = useDomainName();
  const { filters, update } = useListFilters(ALIAS_SORT_FIELDS);
  const list = useAliasList(domain, filters);
  const remove = useDeleteAliases(domain);
  const [editing, setEditing] = useState<string | null>(null);
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
      <Card title={t("createTitle")}>
        {domain && <CreateAliasForm domain={domain} onDone={(email) => setNotice(t("created", { email }))} />}
      </Card>
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
        <table className="w-full min-w-[480px] border-collapse text-sm" aria-busy={list.isFetching}>
          <caption className="sr-only">{t("title")}</caption>
          <thead className="bg-gray-50">
            <tr>
              <SortHeader field="name" label={t("name")} filters={filters} onSort={onSort} />
              <SortHeader field="target" label={t("target")} filters={filters} onSort={onSort} />
              <th scope="col" className="px-2 py-2">
                <span className="sr-only">{t("actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody className={list.isPlaceholderData ? "opacity-60" : undefined}>
            {!list.data && !list.isError && <SkeletonRows rows={Math.min(filters.size, 8)} cols={3} />}
            {list.data && rows.length === 0 && (
              <tr>
                <td colSpan={3} className="px-3 py-8 text-center text-gray-700">
                  {filters.search ? t("emptySearch", { search: filters.search }) : t("empty")}
                </td>
              </tr>
            )}
            {rows.map((a) => (
              <tr key={a.name} className="h-11 border-t border-gray-200">
                <td className="px-2 font-medium break-all">{a.email}</td>
                <td className="px-2 break-all">
                  {editing === a.name && domain ? (
                    <EditTargetForm
                      domain={domain}
                      alias={a}
                      onCancel={() => setEditing(null)}
                      onDone={() => {
                        setEditing(null);
                        setNotice(t("updated", { email: a.email }));
                      }}
                    />
                  ) : (
                    a.target
                  )}
                </td>
                <td className="px-2 text-right whitespace-nowrap">
                  {editing !== a.name && (
                    <>
                      <Button variant="ghost" className="min-h-8 px-2" aria-label={`${t("edit")}: ${a.email}`} onClick={() => setEditing(a.name)}>
                        {t("edit")}
                      </Button>
                      <Button variant="ghost" className="min-h-8 px-2" aria-label={`${t("delete")}: ${a.email}`} onClick={() => deletion.ask([a.name])}>
                        {t("delete")}
                      </Button>
                    </>
                  )}
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
