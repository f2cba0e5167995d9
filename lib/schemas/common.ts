// Building blocks of the resource schemas: names, addresses, dates and the lenient integer of the API.
// No server imports: the panel's forms use the same rules.
import { z } from "zod";
import { isIsoDate } from "./dates";

export { isIsoDate } from "./dates";

// contract §8: letters/digits at both ends, single symbols between them.
export const ACCOUNT_NAME_RE = /^(?=.{2,32}$)[a-z0-9](?:[._-]?[a-z0-9])*$/;
export const LIST_NAME_RE = /^(?=.{2,32}$)[a-z0-9](?:[/.-]?[a-z0-9])*$/;
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
export const DOMAIN_RE = new RegExp(`^(?=.{1,253}$)(?:${LABEL}\\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$`);
// dot-atom local part of RFC 5322, at most 64 characters.
const LOCAL_RE = /^(?=.{1,64}$)[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

export const isDomainName = (s: string) => DOMAIN_RE.test(s);
/**
 * The longest name of a hosted domain: each of its addresses (a name of up to 32 characters, "@", the domain) must
 * fit the 254 characters of an address, or nothing could reach it (the policy service refuses longer ones at RCPT,
 * and a forward or an alias target to it fails the address rule).
 */
export const HOSTED_DOMAIN_MAX = 254 - 1 - 32;
export const isHostedDomainName = (s: string) => isDomainName(s) && s.length <= HOSTED_DOMAIN_MAX;
export const isAccountName = (s: string) => ACCOUNT_NAME_RE.test(s);
export const isListName = (s: string) => LIST_NAME_RE.test(s);

/** A lowercase address `local@domain`. */
export function isEmail(s: string): boolean {
  const at = s.lastIndexOf("@");
  if (at <= 0 || s.length > 254) return false;
  return LOCAL_RE.test(s.slice(0, at)) && DOMAIN_RE.test(s.slice(at + 1));
}

export const isEmailOrDomain = (s: string) => isEmail(s) || isDomainName(s);

// Contract §9: one-line texts take no control characters (U+0000-U+001F, U+007F): a CR-LF in a subject or an SMS
// login is header injection waiting to happen, a NUL breaks what the mail server generates from the row.
// Multi-line texts take line breaks and tabs only, and store line breaks as LF, which a Sieve string carries.
// Neither takes a lone UTF-16 surrogate: it has no UTF-8 form, so SQLite and Sieve would get U+FFFD instead.
// One-line texts also refuse the bidirectional embedding, override and isolate controls (U+202A-U+202E,
// U+2066-U+2069): a right-to-left override makes a description or a subject read as something else.
// eslint-disable-next-line no-control-regex -- control characters are what these patterns are about
const CONTROL_RE = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]|\p{Cs}/u;
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_BUT_LINES_RE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|\p{Cs}/u;

const withoutControls = (forbidden: RegExp) => (s: string) => !forbidden.test(s);

/**
 * A one-line text of at most `max` characters: the rule of every free-text field but the multi-line ones. Texts are
 * stored composed (NFC) and counted so: "ś" typed as "s" and a combining accent (macOS, some keyboards) is one
 * character, as a reader counts it, and a search typed either way finds it.
 */
export const text = (max: number) => z.string().normalize("NFC").max(max).refine(withoutControls(CONTROL_RE));

/** A multi-line text (autoresponder, list templates): line breaks and tabs allowed, line breaks stored as LF. */
export const multilineText = (max: number) =>
  z
    .string()
    .normalize("NFC")
    .max(max)
    .refine(withoutControls(CONTROL_BUT_LINES_RE))
    .transform((s) => s.replace(/\r\n?/g, "\n"));

/** Integers arrive as JSON numbers or as digit strings (the API returns several numbers as strings). */
export const int = (min: number, max: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d{1,12}$/)
        .transform(Number),
    ])
    .pipe(z.number().int().min(min).max(max));

export const oneOf = (values: readonly number[]) =>
  int(Math.min(...values), Math.max(...values)).refine((v) => values.includes(v));

export const flag = () => oneOf([0, 1]);
export const triState = () => oneOf([-1, 0, 1]);

/** "" or a real YYYY-MM-DD date. */
export const optionalDate = () => z.string().refine((s) => s === "" || isIsoDate(s));

/** One trimmed, lowercased entry of an addressList: the same rules as text(1000), then `check`. */
export const addressEntryOk = (x: string, check: (s: string) => boolean) =>
  x.length <= 1000 && !CONTROL_RE.test(x) && check(x);

/**
 * A list of distinct lowercase entries that each pass `check`, at most `max` long. Entries are trimmed and
 * lowercased. A failing list's issue names the bad entries in `params` (`invalid`, `duplicates`), which the API
 * sends as the error's attributes so that the panel can quote them.
 */
export const addressList = (check: (s: string) => boolean, max: number) =>
  // One loop over the entries instead of a schema per entry, so a list's 50,000 subscribers are checked quickly,
  // with the same rules as text(1000) for each entry.
  z
    .array(z.string())
    .max(max)
    .transform((xs) => xs.map((s) => s.trim().toLowerCase()))
    .superRefine((xs, ctx) => {
      const seen = new Set<string>();
      const invalid: string[] = [];
      const duplicates: string[] = [];
      for (const x of xs) {
        if (!addressEntryOk(x, check)) invalid.push(x);
        else if (seen.has(x)) duplicates.push(x);
        seen.add(x);
      }
      if (invalid.length || duplicates.length) {
        ctx.addIssue({
          code: "custom",
          message: "invalid entries",
          params: { invalid: invalid.slice(0, 20), duplicates: duplicates.slice(0, 20) },
        });
      }
    });

export const spamList = () => addressList(isEmailOrDomain, 1000);

/**
 * The characters the white and the black list may each hold in all (their entries' lengths). Each account's Sieve
 * spam script holds its own and its domain's white list twice and black list once (db/sieve-scripts-view.ts), and
 * Dovecot's dict server sends a script only as far as its 128 KB output buffer and the socket take it: a longer one
 * was cut short, and the account's mail stayed in Postfix's queue. At 15,000 the largest script, forwards included,
 * is about 128 KB. The other three lists stay in the policy service and have no such cap.
 */
export const SPAM_LIST_MAX_CHARACTERS = 15_000;

export const sieveSpamList = () =>
  spamList().refine((xs) => xs.reduce((n, x) => n + x.length, 0) <= SPAM_LIST_MAX_CHARACTERS, {
    message: "too long",
    params: { max_characters: SPAM_LIST_MAX_CHARACTERS },
  });

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

/** A password of 12 characters from an unambiguous alphabet, with letters and digits (the password rules): bulk create in the panel, `domain import` in the CLI. */
export function generatePassword(
  random: (n: number) => Uint32Array = (n) => crypto.getRandomValues(new Uint32Array(n)),
): string {
  const letters = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ";
  const digits = "23456789";
  const all = letters + digits;
  for (;;) {
    const r = random(12);
    const pw = Array.from(r, (v) => all[v % all.length]).join("");
    if (/[a-zA-Z]/.test(pw) && /\d/.test(pw)) return pw;
  }
}

/**
 * Local parts that mail to a domain's operators goes to, and that certificate authorities write to when they
 * check domain control (CA/Browser Forum baseline requirements 3.2.2.4.4, RFC 2142): only the domain's
 * administrator may make them aliases or accounts, never an ordinary account.
 */
export const RESERVED_LOCAL_PARTS: readonly string[] = [
  "postmaster",
  "abuse",
  "admin",
  "administrator",
  "hostmaster",
  "webmaster",
  "root",
  "ssladmin",
  "security",
  "mailer-daemon",
];

/** Whether a local part is one of RESERVED_LOCAL_PARTS: case-insensitive, `_` and `.` read as `-` (contract §10). */
export const isReservedLocalPart = (name: string): boolean =>
  RESERVED_LOCAL_PARTS.includes(name.toLowerCase().replace(/[_.]/g, "-"));
