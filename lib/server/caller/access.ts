import "server-only";
// Who may touch what (specification "User groups and permissions", contracts §7 and §9). The caller's right to the
// domain is settled before anything is looked up, so a caller who does not administer a domain gets 403.2 whether
// or not the domain or the record exists: only its own administrator learns what is there (404.x).
import type { Db } from "@/db/client";
import type { DomainRow } from "@/db/schema";
import { ApiError, apiError } from "@/lib/errors/api-error";
import { isDomainName } from "@/lib/schemas/common";
import type { Principal } from "./auth";
import { getDomainOrThrow } from "../resources/domains";
import { isNameList } from "../resources/names";

/**
 * The domain of the path, which only its postmaster may administer. `names`: the path's names of a PUT or DELETE of
 * several, each refused by name (contract §3).
 */
export function domainForAdmin(db: Db, principal: Principal, domain: string, names: string[] = []): Promise<DomainRow> {
  checkDomainSyntax(domain);
  if (!isAdminOf(principal, domain)) throw forbidden(names, names);
  return callersDomain(db, principal, domain);
}

/**
 * The domain of the path, for reading or changing accounts: its postmaster, or an ordinary account naming only
 * itself. `names` may be the raw split of the path (checked here before the names' syntax is).
 */
export function domainForAccounts(db: Db, principal: Principal, domain: string, names: string[]): Promise<DomainRow> {
  checkDomainSyntax(domain);
  const own = (name: string) => principal.domain === domain && name === principal.account.name;
  if (!isAdminOf(principal, domain) && !(names.length === 1 && own(names[0]!)))
    throw forbidden(
      names,
      names.filter((n) => !own(n)),
    );
  return callersDomain(db, principal, domain);
}

/**
 * 403.2; for a path of several names, one child per refused name (contract §3). The names are the caller's own
 * words, the same whether the domain exists or not (§9).
 */
function forbidden(names: string[], refused: string[]): ApiError {
  // One name, or no list of names at all (an empty or repeated name, over MAX_NAMES): nothing to name one by one.
  if (names.length < 2 || !isNameList(names) || refused.length === 0) return apiError("forbidden");
  const children = refused.map((n) => apiError("forbidden", n));
  return new ApiError("forbidden", { source: refused[0], children, byName: true });
}

/** The caller's own domain was read with its account in this request; any other is read now. */
async function callersDomain(db: Db, principal: Principal, domain: string): Promise<Readonly<DomainRow>> {
  return principal.domainRow?.name === domain ? principal.domainRow : getDomainOrThrow(db, domain);
}

/** A malformed domain (500.363) names no domain at all, so refusing it tells nothing about what is hosted. */
function checkDomainSyntax(domain: string): void {
  if (!isDomainName(domain)) throw apiError("invalidDomainName", "domain");
}

export const isAdminOf = (principal: Principal, domain: string) =>
  principal.isPostmaster && principal.domain === domain;
