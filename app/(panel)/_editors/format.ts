// Numbers and dates as the editors show them.
import type { Locale } from "@/lib/i18n";

/** Bytes as MB (1 MB = 1,048,576 bytes, as capacity counts them), one decimal below 10 MB. */
export function megabytes(bytes: unknown, locale: Locale): string {
  const n = Number(bytes) || 0;
  const mb = n / 1048576;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: mb > 0 && mb < 10 ? 1 : 0 }).format(mb);
}

/** Today as YYYY-MM-DD in the browser's time zone (expiration dates are calendar days). */
export function todayIso(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}
