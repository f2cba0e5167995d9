"use client";
// Aliases of the postmaster's domain: the paged list and the writes. Writes invalidate ["aliases"] and the
// accounts too, since an account record lists the aliases pointing at it.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { panelFetch, retryRule } from "@/lib/client/api";
import type { AliasRecord } from "@/lib/schemas/alias";
import type { ListEnvelope } from "@/lib/schemas/list-query";
import { accountKeys } from "./accounts";
import { listQueryString, type ListFilters } from "./list-params";

/** The alias list item (the same shape as the record), from lib/schemas/alias.ts. */
export type AliasItem = AliasRecord;
export type { AliasRecord };

export const aliasKeys = {
  all: ["aliases"] as const,
  lists: () => [...aliasKeys.all, "list"] as const,
  list: (filters: ListFilters & { domain: string }) => [...aliasKeys.lists(), filters] as const,
  detail: (domain: string, name: string) => [...aliasKeys.all, "detail", domain, name] as const,
};

export function useAliasList(domain: string | undefined, filters: ListFilters) {
  return useQuery({
    queryKey: aliasKeys.list({ ...filters, domain: domain ?? "" }),
    queryFn: () => panelFetch<ListEnvelope<AliasItem>>(`aliases/${domain}?${listQueryString(filters)}`),
    enabled: !!domain,
    placeholderData: keepPreviousData,
    retry: retryRule,
  });
}

function useInvalidateAliases() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: aliasKeys.all }),
      qc.invalidateQueries({ queryKey: accountKeys.all }),
    ]);
}

export function useSaveAlias(domain: string | undefined) {
  const invalidate = useInvalidateAliases();
  return useMutation({
    mutationFn: ({ name, target, create }: { name: string; target: string; create: boolean }) =>
      panelFetch<AliasItem>(`aliases/${domain}/${encodeURIComponent(name)}`, {
        method: create ? "POST" : "PUT",
        body: { target },
      }),
    onSuccess: invalidate,
  });
}

export function useDeleteAliases(domain: string | undefined) {
  const invalidate = useInvalidateAliases();
  return useMutation({
    mutationFn: (names: string[]) =>
      panelFetch<undefined>(`aliases/${domain}/${names.map(encodeURIComponent).join(",")}`, { method: "DELETE" }),
    onSuccess: invalidate,
  });
}
