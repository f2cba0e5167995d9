// "X of Y MB": an account's usage from the list item's usage_bytes (contract §9) and its capacity in MB.
import type { Locale } from "@/lib/i18n";
import { formatMegabytes, formatNumber } from "@/lib/i18n/number";
import type { AccountSummary } from "@/lib/client/hooks/accounts";

/** The bar's percentage and its text; without usage_bytes (an older server) the percentage alone. */
export function usageText(
  r: Pick<AccountSummary, "usage" | "usage_bytes" | "capacity">,
  locale: Locale,
  template: string,
) {
  const percent = Number(String(r.usage).replace("%", "")) || 0;
  if (r.usage_bytes === undefined || r.usage_bytes === "") return { percent, text: `${percent}%` };
  const text = template
    .replace("{used}", formatMegabytes(Number(r.usage_bytes), locale))
    .replace("{capacity}", formatNumber(Number(r.capacity), locale));
  return { percent, text };
}
