// Dates as the API takes them (YYYY-MM-DD) and as people type them in the panel (D.M.YYYY or YYYY-MM-DD). No zod
// and no server imports: the panel's date field uses these without loading the schemas.

/** YYYY-MM-DD naming a real calendar day. */
export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * A date as a person types it: D.M.YYYY (also with / or -) or YYYY-MM-DD. `empty` for blank text, `date` for a real
 * day (as YYYY-MM-DD), `noSuchDay` for the right format naming a day the calendar lacks (31.02.2026), `format` for
 * anything else. The day is checked by isIsoDate, the API's own rule.
 */
export type TypedDate =
  { kind: "empty" } | { kind: "date"; iso: string } | { kind: "noSuchDay"; iso: string } | { kind: "format" };

export function readTypedDate(text: string): TypedDate {
  const s = text.trim();
  if (s === "") return { kind: "empty" };
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  const dmy = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(s);
  const [y, m, d] = iso ? [iso[1], iso[2], iso[3]] : dmy ? [dmy[3], dmy[2], dmy[1]] : [];
  if (!y || !m || !d) return { kind: "format" };
  const out = `${y}-${m.padStart(2, "0")}-${d.padStart(2, "0")}`;
  return isIsoDate(out) ? { kind: "date", iso: out } : { kind: "noSuchDay", iso: out };
}

/** Typed text as the API's value: YYYY-MM-DD for a real day, "" for none, anything else as typed (trimmed). */
export function parseTypedDate(text: string): string {
  const typed = readTypedDate(text);
  return typed.kind === "date" ? typed.iso : text.trim();
}
