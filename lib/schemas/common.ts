// Building blocks of the resource schemas: names, addresses, dates and the lenient integer of the API.
// No server imports: the panel's forms use the same rules.
import { z } from "zod";

// contract §8: letters/digits at both ends, single symbols between them.
export const ACCOUNT_NAME_RE = /^(?=.{2,32}$)[a-z0-9](?:[._-]?[a-z0-9])*$/;
export const LIST_NAME_RE = /^(?=.{2,32}$)[a-z0-9](?:[/.-]?[a-z0-9])*$/;
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
export const DOMAIN_RE = new RegExp(`^(?=.{1,253}$)(?:${LABEL}\\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$`);
// dot-atom local part of RFC 5322, at most 64 characters.
const LOCAL_RE = /^(?=.{1,64}$)[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

export const isDomainName = (s: string) => DOMAIN_RE.test(s);
export const isAccountName = (s: string) => ACCOUNT_NAME_RE.test(s);
export const isListName = (s: string) => LIST_NAME_RE.test(s);

/** A lowercase address `local@domain`. */
export function isEmail(s: string): boolean {
  const at = s.lastIndexOf("@");
  if (at <= 0 || s.length > 254) return false;
  return LOCAL_RE.test(s.slice(0, at)) && DOMAIN_RE.test(s.slice(at + 1));
}

export const isEmailOrDomain = (s: string) => isEmail(s) || isDomainName(s);

/** YYYY-MM-DD naming a real calendar day. */
export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Integers arrive as JSON numbers or as digit strings (the API returns several numbers as strings). */
export const int = (min: number, max: number) =>
  z
    .union([z.number(), z.string().trim().regex(/^-?\d{1,12}$/).transform(Number)])
    .pipe(z.number().int().min(min).max(max));

export const oneOf = (values: readonly number[]) =>
  int(Math.min(...values), Math.max(...values)).refine((v) => values.includes(v));

export const flag = () => oneOf([0, 1]);
export const triState = () => oneOf([-1, 0, 1]);

/** "" or a real YYYY-MM-DD date. */
export const optionalDate = () => z.string().refine((s) => s === "" || isIsoDate(s));

/**
 * A list of distinct lowercase entries that each pass `check`, at most `max` long. Entries are trimmed and
 * lowercased. A failing list's issue names the bad entries in `params` (`invalid`, `duplicates`), which the API
 * sends as the error's attributes so that the panel can quote them.
 */
export const addressList = (check: (s: string) => boolean, max: number) =>
  z
    .array(z.string().transform((s) => s.trim().toLowerCase()))
    .max(max)
    .superRefine((xs, ctx) => {
      const seen = new Set<string>();
      const invalid: string[] = [];
      const duplicates: string[] = [];
      for (const x of xs) {
        if (!check(x)) invalid.push(x);
        else if (seen.has(x)) duplicates.push(x);
        seen.add(x);
      }
      if (invalid.length || duplicates.length) {
        ctx.addIssue({ code: "custom", message: "invalid entries", params: { invalid: invalid.slice(0, 20), duplicates: duplicates.slice(0, 20) } });
      }
    });

export const spamList = () => addressList(isEmailOrDomain, 1000);

/** Password rule of the specification: 6-15 characters, a letter, and a digit or one of the allowed specials. */
export const PASSWORD_SPECIALS = "~!@#%^&*()_+=-;,./<>?:[]{}";
export function passwordProblems(pw: string): ("length" | "letter" | "digitOrSpecial" | "characters")[] {
  const problems: ("length" | "letter" | "digitOrSpecial" | "characters")[] = [];
  if (pw.length < 6 || pw.length > 15) problems.push("length");
  if (!/[A-Za-z]/.test(pw)) problems.push("letter");
  if (![...pw].some((c) => /\d/.test(c) || PASSWORD_SPECIALS.includes(c))) problems.push("digitOrSpecial");
  if (![...pw].every((c) => /[A-Za-z0-9]/.test(c) || PASSWORD_SPECIALS.includes(c))) problems.push("characters");
  return problems;
}
export const passwordSchema = () => z.string().refine((s) => passwordProblems(s).length === 0);
