"use client";
// The signed-in account's record: read it, save a subset of its fields, and put API errors onto form fields.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { panelFetch, PanelApiError } from "@/lib/client/api";
import { accountKeys } from "@/lib/client/hooks/accounts";

/** The fields of the account record this page shows. */
export interface MyAccountRecord {
  name: string;
  domain: string;
  email: string;
  description: string;
  capacity: number;
  usage: number;
  expiration_date: string;
  creation_date: string;
  last_auth_date: string;
  blocked: number;
  keep_mail: number;
  forwards: string[];
  forward_limit: number;
  aliases: string[];
  alias_limit: number;
  autoresponder_mode: number;
  autoresponder_start_date: string;
  autoresponder_end_date: string;
  autoresponder_body: string;
  spam_white_list: string[];
  spam_black_list: string[];
  spam_greylist_whitelist: string[];
  spam_spf_whitelist: string[];
  spam_rbl_whitelist: string[];
}

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
    mutationFn: (body: Record<string, unknown>) => panelFetch<MyAccountRecord>(path(domain, name), { method: "PUT", body }),
    onSuccess: (record) => {
      qc.setQueryData(accountKeys.detail(domain, name), record);
      void qc.invalidateQueries({ queryKey: accountKeys.lists() });
    },
  });
}

/**
 * Puts each error of a failed save on the field its `source` names (the API's Polish message). Returns the
 * message for what could not be placed on a field, or null when everything landed on fields.
 */
export function placeApiError<T extends FieldValues>(err: unknown, setError: UseFormSetError<T>, fields: readonly string[]): string | null {
  if (!(err instanceof PanelApiError)) return err instanceof Error ? err.message : String(err);
  const errors = err.body.children?.length ? err.body.children : [err.body];
  const unplaced: string[] = [];
  for (const e of errors) {
    if (e.source && fields.includes(e.source)) setError(e.source as Path<T>, { type: "server", message: e.message }, { shouldFocus: true });
    else unplaced.push(e.message);
  }
  return unplaced.length ? unplaced.join(" ") : null;
}

/** A textarea's lines as a list: trimmed, blank lines dropped. */
export const lines = (text: string) =>
  text
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);
