"use client";
// The signed-in account's record: read it and save a subset of its fields (API errors go onto form fields with
// placeApiError of lib/client/hooks/use-field-form.ts, the same rule as the postmaster's forms).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { panelFetch } from "@/lib/client/api";
import { accountKeys } from "@/lib/client/hooks/accounts";
import type { AccountRecord } from "@/lib/schemas/account";

/** The account record (lib/schemas/account.ts), as this page reads and writes it. */
export type MyAccountRecord = AccountRecord;

const path = (domain: string, name: string) => `emails/${encodeURIComponent(domain)}/${encodeURIComponent(name)}`;

export function useMyAccount(domain: string, name: string) {
  return useQuery({
    queryKey: accountKeys.detail(domain, name),
    queryFn: () => panelFetch<MyAccountRecord>(path(domain, name)),
  });
}

/** PUT of only the given fields: restricted fields are never part of a body sent from this page. */
export function useSaveMyAccount(domain: string, name: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      panelFetch<MyAccountRecord>(path(domain, name), { method: "PUT", body }),
    onSuccess: (record) => {
      qc.setQueryData(accountKeys.detail(domain, name), record);
      void qc.invalidateQueries({ queryKey: accountKeys.lists() });
    },
  });
}

/** A textarea's lines as a list: trimmed, blank lines dropped. */
export const lines = (text: string) =>
  text
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);
