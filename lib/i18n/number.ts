// Numbers in the panel's two languages, written out here rather than by Intl.NumberFormat: a fresh browser tab
// spends 33-56 ms (on this machine, unthrottled) loading ICU's number data for the first formatter, and the
// account table is the first page most postmasters open. number.test.ts checks these against Intl.NumberFormat.
import type { Locale } from "./index";

/** Decimal mark, group separator, and the fewest integer digits that get grouped (CLDR: Polish leaves 4 alone). */
const STYLE: Record<Locale, { decimal: string; group: string; minDigits: number }> = {
  pl: { decimal: ",", group: "\u00a0", minDigits: 5 },
  en: { decimal: ".", group: ",", minDigits: 4 },
};

/**
 * `n` (zero or more) as decimal digits rounded half up to `maxDigits` decimals. Like Intl, this rounds
 * the shortest decimal that reads back as `n` ("1992.35"), not the double's exact value (1992.3499...), which
 * `toFixed` would round down.
 */
function rounded(n: number, maxDigits: number): [whole: string, fraction: string] {
  const shortest = String(n);
  // Exponent notation: below 10^-6 (0 at these precisions), or an integer of 10^21 and more ("1.5e+21").
  if (shortest.includes("e")) {
    if (n < 1) return ["0", ""];
    const [mantissa = "", exponent = "0"] = shortest.split("e");
    return [mantissa.replace(".", "").padEnd(Number(exponent) + 1, "0"), ""];
  }
  const [whole = "", fraction = ""] = shortest.split(".");
  if (fraction.length <= maxDigits) return [whole, fraction];
  let digits = BigInt(whole + fraction.slice(0, maxDigits));
  if ((fraction[maxDigits] ?? "0") >= "5") digits += 1n;
  const text = digits.toString().padStart(maxDigits + 1, "0");
  return [text.slice(0, text.length - maxDigits), text.slice(text.length - maxDigits)];
}

/** `n` (zero or more) with at most `maxDigits` decimals, rounded half up, trailing zeros dropped, grouped. */
export function formatNumber(n: number, locale: Locale, maxDigits = 0): string {
  const style = STYLE[locale];
  const [whole, fraction] = rounded(n, maxDigits);
  const grouped = whole.length < style.minDigits ? whole : whole.replace(/\B(?=(\d{3})+$)/g, style.group);
  const decimals = fraction.replace(/0+$/, "");
  return decimals ? grouped + style.decimal + decimals : grouped;
}

/** Bytes as MB (1 MB = 1,048,576 bytes, as capacity counts them), one decimal below 10 MB so a small mailbox is not "0". */
export function formatMegabytes(bytes: number, locale: Locale): string {
  const mb = bytes / 1048576;
  return formatNumber(mb, locale, mb > 0 && mb < 10 ? 1 : 0);
}
