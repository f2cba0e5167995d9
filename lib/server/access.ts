import "server-only";
// Who may touch what (specification "User groups and permissions", contract §7).
import type { Db } from "@/db/client";
import type { DomainRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import type { Principal } from "./auth";
import { getDomainOrThrow } from "./domains";

/** The domain of the path, which only its postmaster may administer. */
export function domainForAdmin(db: Db, principal: Principal, domain: string): DomainRow {
  const row = getDomainOrThrow(db, domain);
  if (!isAdminOf(principal, domain)) throw apiError("forbidden");
  return row;
}

/** The domain of the path, for reading or changing accounts: its postmaster, or an account naming only itself. */
export function domainForAccounts(db: Db, principal: Principal, domain: string, names: string[]): DomainRow {
  const row = getDomainOrThrow(db, domain);
  const self = principal.domain === domain && names.length === 1 && names[0] === principal.account.name;
  if (!isAdminOf(principal, domain) && !self) throw apiError("forbidden");
  return row;
}

export const isAdminOf = (principal: Principal, domain: string) =>
  principal.isPostmaster && principal.domain === domain;
