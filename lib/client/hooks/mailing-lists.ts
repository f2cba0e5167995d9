"use client";
// Mailing lists of the postmaster's domain: the paged list, one record, create, update and delete.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { panelFetch, retryRule } from "@/lib/client/api";
import type { ListEnvelope } from "@/lib/schemas/list-query";
import type { MailingListRecord, MailingListSummary } from "@/lib/schemas/mailing-list";
import { listQueryString, type ListFilters } from "./list-params";

// The answers' shapes, from lib/schemas/mailing-list.ts.
export type { MailingListRecord, MailingListSummary };

export const mailingListKeys = {
  all: ["mailing-lists"] as const,
  lists: () => [...mailingListKeys.all, "list"] as const,
  list: (filters: ListFilters & { domain: string }) => [...mailingListKeys.lists(), filters] as const,
  detail: (domain: string, name: string) => [...mailingListKeys.all, "detail", domain, name] as const,
};

export function useMailingListList(domain: string | undefined, filters: ListFilters) {
  return useQuery({
    queryKey: mailingListKeys.list({ ...filters, domain: domain ?? "" }),
    queryFn: () =>
      panelFetch<ListEnvelope<MailingListSummary>>(`mailinglists/${domain}?${listQueryString(filters)}`),
    enabled: !!domain,
    placeholderData: keepPreviousData,
    retry: retryRule,
  });
}

export function useMailingList(domain: string | undefined, name: string) {
  return useQuery({
    queryKey: mailingListKeys.detail(domain ?? "", name),
    queryFn: () => panelFetch<MailingListRecord>(`mailinglists/${domain}/${encodeURIComponent(name)}`),
    enabled: !!domain,
    retry: retryRule,
  });
}

function useInvalidateLists() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: mailingListKeys.all });
}

export function useSaveMailingList(domain: string | undefined) {
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: ({ name, body, create }: { name: string; body: Record<string, unknown>; create: boolean }) =>
      panelFetch<MailingListRecord>(`mailinglists/${domain}/${encodeURIComponent(name)}`, {
        method: create ? "POST" : "PUT",
        body,
      }),
    onSuccess: invalidate,
  });
}

export function useDeleteMailingLists(domain: string | undefined) {
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: (names: string[]) =>
      panelFetch<undefined>(`mailinglists/${domain}/${names.map(encodeURIComponent).join(",")}`, {
        method: "DELETE",
      }),
    onSuccess: invalidate,
  });
}
