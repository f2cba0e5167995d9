// The SMS text: plain characters a gateway accepts (GSM-safe ASCII), cut into at most `count` parts of
// `maxLength` characters each.

const SPECIAL: Record<string, string> = {
  ł: "l",
  Ł: "L",
  ß: "ss",
  æ: "ae",
  Æ: "AE",
  ø: "o",
  Ø: "O",
  đ: "d",
  Đ: "D",
  "€": "EUR",
};

/** Diacritics dropped (ą -> a, ł -> l), typographic quotes and dashes made plain, whitespace collapsed. */
export function flattenSmsText(text: string): string {
  return text
    .replace(/[łŁßæÆøØđĐ€]/g, (c) => SPECIAL[c]!)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[\u2018\u2019\u201a\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
    .replace(/[\u2013\u2014\u2212]/g, "-")
    .replace(/\u2026/g, "...")
    .replace(/[^\x20-\x7e\s]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * sms_cnt 0: one SMS with the subject; 1: one SMS with subject and body; 2, 3: up to two or three SMS of subject
 * and body. Parts are cut at a space when one is near the limit.
 */
export function smsParts(subject: string, body: string, smsCnt: number, maxLength: number): string[] {
  const s = flattenSmsText(subject) || "(bez tematu)";
  const text = smsCnt === 0 ? s : `${s}: ${flattenSmsText(body)}`.trim().replace(/:$/, "");
  const count = Math.max(1, Math.min(3, smsCnt));
  const parts: string[] = [];
  let rest = text;
  while (rest && parts.length < count) {
    if (rest.length <= maxLength) {
      parts.push(rest);
      break;
    }
    let cut = rest.lastIndexOf(" ", maxLength);
    if (cut < maxLength * 0.7) cut = maxLength;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  return parts;
}
