// "X MB of Y MB": an account's usage from the list item's usage_bytes (contract §9) and its capacity in MB.
import type { Locale } from "@/lib/i18n";
import type { AccountSummary } from "@/lib/client/hooks/accounts";

const MB = 1024 * 1024;

/** Megabytes with one decimal below 10 MB (so a small mailbox is not "0 MB"), whole above. */
export function formatMb(bytes: number, locale: Locale): string {
  const mb = bytes / MB;
  const digits = mb > 0 && mb < 10 ? 1 : 0;
  return mb.toLocaleString(locale === "pl" ? "pl-PL" : "en-GB", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** The bar's percentage and its text; without usage_bytes (an older server) the percentage alone. */
export function usageText(r: Pick<AccountSummary, "usage" | "usage_bytes" | "capacity">, locale: Locale, template: string) {
  const percent = Number(String(r.usage).replace("%", "")) || 0;
  if (r.usage_bytes === undefined || r.usage_bytes === "") return { percent, text: `${percent}%` };
  const text = template
    .replace("{used}", formatMb(Number(r.usage_bytes), locale))
    .replace("{capacity}", Number(r.capacity).toLocaleString(locale === "pl" ? "pl-PL" : "en-GB"));
  return { percent, text };
}
