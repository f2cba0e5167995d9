"use client";
// What goes with accounts being deleted (contract §9): the aliases of the domain pointing at them, or at an alias
// that goes, are deleted, and a catchall delivering to one of them is switched off. The aliases are asked of the
// server (the rule the delete applies); the catchall is read from the account records and the domain record.
// Forwards to them from the customer's accounts are removed too (/api/panel/forwarders).
import { useQuery } from "@tanstack/react-query";
import { panelFetch, panelRequestText, retryRule } from "@/lib/client/api";
import { accountKeys, type AccountRecord } from "@/lib/client/hooks/accounts";
import type { AccountListMembership } from "@/lib/schemas/list-moderation";
import { useDomain } from "@/lib/client/hooks/domain";
import { useLocale, useT } from "@/lib/i18n";
import { countOf } from "@/lib/i18n/plural";
import { Address } from "@/components";
import { ACCOUNT_NOUN, ALIAS_NOUN, accountMessages } from "./messages";

/** Records read for the dialog at most; for more names the dialog says what happens without listing it. */
const MAX_READ = 20;

/**
 * `names` "all": every account matching the search, not listed (the dialog then says what goes, in general).
 * `count`: how many accounts go (the names' number, or all matching less those unselected).
 */
export function AccountDeleteDetails({
  domain,
  names: named,
  count,
}: {
  domain: string;
  names: string[] | "all";
  count: number;
}) {
  const t = useT(accountMessages);
  const locale = useLocale();
  const names = named === "all" ? [] : named;
  // Every sentence has a form for one account and one for several (and, for what is listed, one thing or several).
  const many = count !== 1;
  const few = named !== "all" && names.length <= MAX_READ;
  const records = useQuery({
    queryKey: [...accountKeys.all, "delete-details", domain, names],
    queryFn: () =>
      Promise.all(names.map((n) => panelFetch<AccountRecord>(`emails/${domain}/${encodeURIComponent(n)}`))),
    enabled: few,
    retry: retryRule,
  });
  const memberships = useQuery({
    queryKey: [...accountKeys.all, "delete-lists", domain, names],
    queryFn: () =>
      Promise.all(
        names.map((n) => panelFetch<AccountListMembership[]>(`emails/${domain}/${encodeURIComponent(n)}/lists`)),
      ),
    enabled: few,
    retry: retryRule,
  });
  const reached = useQuery({
    queryKey: [...accountKeys.all, "delete-aliases", domain, names],
    queryFn: async () =>
      (
        JSON.parse(
          await panelRequestText(`/api/panel/aliases-reaching?names=${names.map(encodeURIComponent).join(",")}`),
        ) as { aliases: string[] }
      ).aliases,
    enabled: few,
    retry: retryRule,
  });
  const forwarders = useQuery({
    queryKey: [...accountKeys.all, "delete-forwarders", domain, names],
    queryFn: async () => {
      const each = await Promise.all(
        names.map(
          async (n) =>
            JSON.parse(await panelRequestText(`/api/panel/forwarders/${domain}/${encodeURIComponent(n)}`)) as string[],
        ),
      );
      const gone = new Set(names.map((n) => `${n}@${domain}`));
      return [...new Set(each.flat())].filter((e) => !gone.has(e)).sort();
    },
    enabled: few,
    retry: retryRule,
  });
  const domainRecord = useDomain(domain);
  if (!few) return <p className="mt-2">{t(many ? "deleteGoesToo" : "deleteGoesTooOne")}</p>;
  if (!records.data || !domainRecord.data || !memberships.data || !reached.data || !forwarders.data) {
    return <p className="mt-2 text-gray-700">{t(many ? "deleteCheckingMany" : "deleteChecking")}</p>;
  }

  const aliases = reached.data;
  const emails = new Set(records.data.map((r) => r.email));
  const catchall = domainRecord.data.catchall_address;
  const catchallOff = domainRecord.data.catchall_type === 1 && emails.has(catchall);
  const lists = [...new Set(memberships.data.flat().map((m) => m.email))].sort();
  const forwarding = forwarders.data;
  if (aliases.length === 0 && !catchallOff && lists.length === 0 && forwarding.length === 0)
    return <p className="mt-2">{t(many ? "deleteNothingElse" : "deleteNothingElseOne")}</p>;
  const suffix = many ? "Many" : "";
  return (
    <div className="mt-2 space-y-2">
      {aliases.length > 0 && (
        <div>
          <p>
            {t(`${aliases.length === 1 ? "deleteAlias" : "deleteAliases"}${suffix}`, {
              count: countOf(locale, aliases.length, ALIAS_NOUN),
            })}
          </p>
          <ul className="mt-1 list-disc pl-5">
            {aliases.map((a) => (
              <li key={a}>
                <Address text={a} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {catchallOff && <p>{t("deleteCatchall", { address: catchall })}</p>}
      {forwarding.length > 0 && (
        <div>
          <p>
            {t(`${forwarding.length === 1 ? "deleteForward" : "deleteForwards"}${suffix}`, {
              count: countOf(locale, forwarding.length, ACCOUNT_NOUN),
            })}
          </p>
          <ul className="mt-1 list-disc pl-5" data-testid="delete-forwards">
            {forwarding.map((f) => (
              <li key={f}>
                <Address text={f} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {lists.length > 0 && (
        <div>
          <p>{t(`${lists.length === 1 ? "deleteList" : "deleteLists"}${suffix}`, { n: lists.length })}</p>
          <ul className="mt-1 list-disc pl-5" data-testid="delete-lists">
            {lists.map((l) => (
              <li key={l}>
                <Address text={l} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
