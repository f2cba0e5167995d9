// The account's state at a glance: "blocked" and "expired" badges beside its name.
import type { AccountSummary } from "@/lib/client/hooks/accounts";
import { useT } from "@/lib/i18n";
import { accountMessages } from "./messages";

/** Expired: an expiration date (YYYY-MM-DD) before today, in the browser's calendar. */
export function isExpired(r: Pick<AccountSummary, "expiration_date">, today = new Date()): boolean {
  if (!r.expiration_date) return false;
  const pad = (n: number) => String(n).padStart(2, "0");
  const iso = `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
  return r.expiration_date < iso;
}

const badge = "inline-block rounded px-1.5 py-0.5 text-xs font-semibold";

export function AccountBadges({ row }: { row: AccountSummary }) {
  const t = useT(accountMessages);
  const blocked = row.blocked === "1";
  const expired = isExpired(row);
  if (!blocked && !expired) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {blocked && <span className={`${badge} bg-red-100 text-red-900`}>{t("badgeBlocked")}</span>}
      {expired && <span className={`${badge} bg-amber-100 text-amber-950`}>{t("badgeExpired")}</span>}
    </span>
  );
}
