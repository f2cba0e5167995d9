"use client";
// What goes with accounts being deleted (contract §9), read for the delete dialog: the aliases of the domain pointing
// at them, or at an alias that goes, are deleted; a catchall delivering to one of them is switched off; they are taken
// off the domain's lists; the customer's accounts forwarding to them stop. The aliases are asked of the server (the
// rule the delete applies); the catchall from the domain record.
import { useQuery } from "@tanstack/react-query";
import { panelFetch, panelRequestText, retryRule } from "@/lib/client/api";
import { accountKeys } from "@/lib/client/hooks/accounts";
import { useDomain } from "@/lib/client/hooks/domain";
import type { AccountListMembership } from "@/lib/schemas/list-moderation";

/** Names read for the dialog at most; for more (or all matching a search) it says what goes without listing it. */
export const MAX_LISTED_NAMES = 20;

export interface AccountDeleteDetails {
  /** Aliases that go (sorted by the server). */
  aliases: string[];
  /** The catchall address switched off, or null. */
  catchallOff: string | null;
  /** Lists the accounts are taken off, sorted. */
  lists: string[];
  /** Accounts (not being deleted) that stop forwarding to them, sorted. */
  forwarding: string[];
}

/** `details` null: too many names (or all matching) to list; the dialog then says what goes in general. */
export type AccountDeleteDetailsState =
  | { status: "loading" }
  | { status: "failed"; error: unknown; retry: () => void }
  | { status: "ready"; details: AccountDeleteDetails | null };

const enc = encodeURIComponent;

/** Reads what goes with `names` (or nothing for "all" and more than MAX_LISTED_NAMES), every read retried alike. */
export function useAccountDeleteDetails(domain: string, names: string[] | "all"): AccountDeleteDetailsState {
  const listed = names !== "all" && names.length <= MAX_LISTED_NAMES ? names : [];
  const enabled = listed.length > 0;
  const read = <T>(part: string, queryFn: () => Promise<T>) => ({
    queryKey: [...accountKeys.all, part, domain, listed],
    queryFn,
    enabled,
    retry: retryRule,
  });
  const memberships = useQuery(
    read("delete-lists", () =>
      Promise.all(listed.map((n) => panelFetch<AccountListMembership[]>(`emails/${domain}/${enc(n)}/lists`))),
    ),
  );
  const reached = useQuery(
    read("delete-aliases", async () => {
      const text = await panelRequestText(`/api/panel/aliases-reaching?names=${listed.map(enc).join(",")}`);
      return (JSON.parse(text) as { aliases: string[] }).aliases;
    }),
  );
  const forwarders = useQuery(
    read("delete-forwarders", async () => {
      const each = await Promise.all(
        listed.map(
          async (n) => JSON.parse(await panelRequestText(`/api/panel/forwarders/${domain}/${enc(n)}`)) as string[],
        ),
      );
      const gone = new Set(listed.map((n) => `${n}@${domain}`));
      return [...new Set(each.flat())].filter((e) => !gone.has(e)).sort();
    }),
  );
  const domainRecord = useDomain(domain);

  if (!enabled) return { status: "ready", details: null };
  const reads = [memberships, reached, forwarders, domainRecord];
  const failed = reads.find((r) => r.isError);
  if (failed) {
    return {
      status: "failed",
      error: failed.error,
      retry: () => reads.filter((r) => r.isError).forEach((r) => void r.refetch()),
    };
  }
  if (!memberships.data || !reached.data || !forwarders.data || !domainRecord.data) {
    return { status: "loading" };
  }
  // An account's address is its name at the domain (lib/server/resources/accounts.ts), both lowercase.
  const emails = new Set(listed.map((n) => `${n}@${domain}`));
  const { catchall_type, catchall_address } = domainRecord.data;
  return {
    status: "ready",
    details: {
      aliases: reached.data,
      catchallOff: catchall_type === 1 && emails.has(catchall_address) ? catchall_address : null,
      lists: [...new Set(memberships.data.flat().map((m) => m.email))].sort(),
      forwarding: forwarders.data,
    },
  };
}
