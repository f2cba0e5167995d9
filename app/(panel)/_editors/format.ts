// Numbers and dates as the editors show them.
import type { Locale } from "@/lib/i18n";
import { formatMegabytes } from "@/lib/i18n/number";

/** Bytes (as the API sends them: a string or a number) as MB. */
export const megabytes = (bytes: unknown, locale: Locale): string => formatMegabytes(Number(bytes) || 0, locale);

/** Today as YYYY-MM-DD in the browser's time zone (expiration dates are calendar days). */
export function todayIso(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}
