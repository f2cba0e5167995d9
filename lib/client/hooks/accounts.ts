"use client";
// Accounts of the postmaster's domain: the paged list, one record, and the writes (create, update one or
// several at once, delete). Every write invalidates the whole ["accounts"] prefix.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { panelFetch, retryRule } from "@/lib/client/api";
import type { AccountRecord, AccountSummary } from "@/lib/schemas/account";
import type { ListEnvelope } from "@/lib/schemas/list-query";
import { listQueryString, type ListFilters } from "./list-params";

// The answers' shapes are the zod schemas of lib/schemas/account.ts (types only: no zod in the browser bundle).
export type { AccountRecord, AccountSummary } from "@/lib/schemas/account";

export const accountKeys = {
  all: ["accounts"] as const,
  lists: () => [...accountKeys.all, "list"] as const,
  list: (filters: ListFilters & { domain: string }) => [...accountKeys.lists(), filters] as const,
  detail: (domain: string, name: string) => [...accountKeys.all, "detail", domain, name] as const,
};

/** A page of the list rendered by the server component, with the domain and filters it was read for. */
export interface InitialAccountPage {
  domain: string;
  query: string;
  data: ListEnvelope<AccountSummary>;
  /** Server time of the read (ms), so react-query's staleTime counts from when the data was current. */
  at: number;
}

export function useAccountList(domain: string | undefined, filters: ListFilters, initial?: InitialAccountPage) {
  const query = listQueryString(filters);
  // The server's page seeds exactly the query it was read for; any other page, sort or search is fetched.
  const seed = initial && initial.domain === domain && initial.query === query ? initial : undefined;
  return useQuery({
    queryKey: accountKeys.list({ ...filters, domain: domain ?? "" }),
    queryFn: () => panelFetch<ListEnvelope<AccountSummary>>(`emails/${domain}?${query}`),
    initialData: seed?.data,
    initialDataUpdatedAt: seed?.at,
    enabled: !!domain,
    // The previous page stays on screen while the next one loads: no empty table, no layout jump.
    placeholderData: keepPreviousData,
    retry: retryRule,
  });
}

export function useAccount(domain: string | undefined, name: string) {
  return useQuery({
    queryKey: accountKeys.detail(domain ?? "", name),
    queryFn: () => panelFetch<AccountRecord>(`emails/${domain}/${encodeURIComponent(name)}`),
    enabled: !!domain,
    retry: retryRule,
  });
}

function useInvalidateAccounts() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: accountKeys.all });
}

export function useCreateAccount(domain: string | undefined) {
  const invalidate = useInvalidateAccounts();
  return useMutation({
    mutationFn: ({ name, ...body }: { name: string } & Record<string, unknown>) =>
      panelFetch<AccountRecord>(`emails/${domain}/${encodeURIComponent(name)}`, { method: "POST", body }),
    onSuccess: invalidate,
  });
}

/** PUT of one or several names (atomic on the server; per-name errors come back as `children`). */
export function useUpdateAccounts(domain: string | undefined) {
  const invalidate = useInvalidateAccounts();
  return useMutation({
    mutationFn: ({ names, body }: { names: string[]; body: Record<string, unknown> }) =>
      panelFetch<AccountRecord | undefined>(`emails/${domain}/${names.map(encodeURIComponent).join(",")}`, {
        method: "PUT",
        body,
      }),
    onSuccess: invalidate,
  });
}

export function useDeleteAccounts(domain: string | undefined) {
  const invalidate = useInvalidateAccounts();
  return useMutation({
    mutationFn: (names: string[]) =>
      panelFetch<undefined>(`emails/${domain}/${names.map(encodeURIComponent).join(",")}`, { method: "DELETE" }),
    onSuccess: invalidate,
  });
}
