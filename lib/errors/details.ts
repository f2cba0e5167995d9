// What an error's `attributes` say, as a sentence in the panel's language: the bad entries of a list (quoted),
// the limit that was passed and the room still free, the account that does not exist. The API sends the facts
// (lib/server fills `attributes`, docs/errors.md lists them); the catalog's message says which rule failed and this
// says where. No server imports: the panel's client uses it (lib/client/error-text.ts).
import type { Locale } from "@/lib/i18n";
import { formatNumber } from "@/lib/i18n/number";
import { counted, type PluralForms } from "@/lib/i18n/plural";

type Attributes = Record<string, unknown>;

const quote = (locale: Locale, items: unknown[]) =>
  items.map((s) => (locale === "pl" ? `„${String(s)}”` : `"${String(s)}"`)).join(", ");
const num = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : null);
const list = (v: unknown) => (Array.isArray(v) && v.length > 0 ? v : null);

/** "Limit domeny: 3 konta." from the count in attributes[key]. */
function limitPiece(key: string, pl: string, plForms: PluralForms, en: string, enForms: PluralForms) {
  return (a: Attributes, l: Locale): string | null => {
    const n = num(a[key]);
    if (n === null) return null;
    return l === "pl" ? `${pl}: ${counted(l, n, plForms)}.` : `${en}: ${counted(l, n, enForms)}.`;
  };
}

/** Pieces that several errors share. */
const pieces: ((a: Attributes, l: Locale) => string | null)[] = [
  (a, l) => {
    const bad = list(a.invalid);
    return bad && (l === "pl" ? `Błędne wpisy: ${quote(l, bad)}.` : `Invalid entries: ${quote(l, bad)}.`);
  },
  (a, l) => {
    const dup = list(a.duplicates);
    return dup && (l === "pl" ? `Powtórzone wpisy: ${quote(l, dup)}.` : `Repeated entries: ${quote(l, dup)}.`);
  },
  (a, l) => {
    const max = num(a.max_entries);
    return max === null
      ? null
      : l === "pl"
        ? `Najwyżej ${counted(l, max, { one: "wpis", few: "wpisy", many: "wpisów", other: "wpisu" })}.`
        : `At most ${counted(l, max, { one: "entry", other: "entries" })}.`;
  },
  (a, l) => {
    const max = num(a.max_characters);
    return max === null
      ? null
      : l === "pl"
        ? `Najwyżej ${counted(l, max, { one: "znak", few: "znaki", many: "znaków", other: "znaku" })} łącznie.`
        : `At most ${counted(l, max, { one: "character", other: "characters" })} in all.`;
  },
  (a, l) => {
    const n = num(a.forward_limit);
    return n === null
      ? null
      : l === "pl"
        ? `Najwyżej ${counted(l, n, { one: "przekierowanie", few: "przekierowania", many: "przekierowań", other: "przekierowania" })}.`
        : `At most ${counted(l, n, { one: "forward", other: "forwards" })}.`;
  },
  (a, l) => {
    const limit = num(a.capacity_limit);
    const free = num(a.free_mb);
    if (limit === null || free === null) return null;
    return l === "pl"
      ? `Limit domeny: ${formatNumber(limit, l)} MB, wolne jeszcze: ${formatNumber(free, l)} MB.`
      : `Domain limit: ${formatNumber(limit, l)} MB, still free: ${formatNumber(free, l)} MB.`;
  },
  limitPiece(
    "account_limit",
    "Limit domeny",
    { one: "konto", few: "konta", many: "kont", other: "konta" },
    "Domain limit",
    { one: "account", other: "accounts" },
  ),
  limitPiece("alias_limit", "Limit", { one: "alias", few: "aliasy", many: "aliasów", other: "aliasu" }, "Limit", {
    one: "alias",
    other: "aliases",
  }),
  limitPiece(
    "mailinglist_limit",
    "Limit domeny",
    { one: "lista", few: "listy", many: "list", other: "listy" },
    "Domain limit",
    { one: "list", other: "lists" },
  ),
  (a, l) => {
    // catchallAccountMissing: the address that is not an account.
    if (a.catchall_type !== 1 || typeof a.address !== "string") return null;
    return l === "pl"
      ? `Nie znaleziono konta ${quote(l, [a.address])}.`
      : `No account ${quote(l, [a.address])} was found.`;
  },
  (a, l) => {
    // invalidListText: a request template without its placeholder.
    if (typeof a.missing !== "string") return null;
    return l === "pl"
      ? `Brakuje znacznika ${quote(l, [a.missing])}.`
      : `The placeholder ${quote(l, [a.missing])} is missing.`;
  },
  (a, l) => {
    const max = num(a.max_length);
    if (max === null) return null;
    return l === "pl"
      ? `Najwyżej ${counted(l, max, { one: "znak", few: "znaki", many: "znaków", other: "znaku" })}.`
      : `At most ${counted(l, max, { one: "character", other: "characters" })}.`;
  },
  (a, l) => {
    // invalidListOption on replyto_email: empty while replies go to that address.
    if (a.required_for_replyto_mode === undefined) return null;
    return l === "pl"
      ? "Adres odpowiedzi jest wymagany, gdy odpowiedzi mają trafiać na wskazany adres."
      : "The reply-to address is required when replies go to a given address.";
  },
  (a, l) => {
    // invalidListOption on moderators: a moderated list without one.
    if (a.required_for_privacy_mode === undefined) return null;
    return l === "pl"
      ? "Lista moderowana musi mieć co najmniej jednego moderatora: tylko moderatorzy piszą na nią wprost i zatwierdzają wstrzymane wiadomości. Dodaj moderatora albo zmień, kto może pisać na listę."
      : "A moderated list needs at least one moderator: only moderators post to it directly and approve held posts. Add a moderator or change who may post.";
  },
  (a, l) => {
    // invalidListOption on replyto_email: which address, and why (lib/schemas/mailing-list.ts).
    if (typeof a.replyto_email !== "string") return null;
    const given = quote(l, [a.replyto_email]);
    if (a.problem === "uppercase") {
      return l === "pl"
        ? `Adres odpowiedzi trzeba podać małymi literami (podano: ${given}).`
        : `The reply-to address must be given in lowercase (given: ${given}).`;
    }
    return l === "pl"
      ? `Adres odpowiedzi jest nieprawidłowy: podaj pełny adres nazwa@domena (podano: ${given}).`
      : `The reply-to address is invalid: give a full address name@domain (given: ${given}).`;
  },
  (a, l) => {
    // invalidListOption on confirm_url: which address, and why (lib/schemas/mailing-list.ts, confirmUrlProblem).
    if (typeof a.confirm_url !== "string") return null;
    const given = quote(l, [a.confirm_url]);
    if (a.problem === "space") {
      return l === "pl"
        ? `Adres strony potwierdzenia nie może zawierać spacji (podano: ${given}).`
        : `The confirmation page URL must not contain spaces (given: ${given}).`;
    }
    return l === "pl"
      ? `Adres strony potwierdzenia musi zaczynać się od http:// lub https:// (podano: ${given}); zostaw pole puste, jeśli lista nie ma własnej strony.`
      : `The confirmation page URL must start with http:// or https:// (given: ${given}); leave it empty if the list has no page of its own.`;
  },
  (a, l) => {
    // aliasTargetLoop: the round the mail would go.
    const loop = list(a.loop);
    if (!loop) return null;
    const round = loop.map((x) => quote(l, [x])).join(" → ");
    return l === "pl" ? `Pętla: ${round}.` : `Loop: ${round}.`;
  },
  (a, l) => {
    // aliasTargetMissing / invalidAliasTarget: the target that was refused.
    if (typeof a.target !== "string") return null;
    return l === "pl" ? `Podany adres: ${quote(l, [a.target])}.` : `Address given: ${quote(l, [a.target])}.`;
  },
  (a, l) => {
    // listAddressIsList: each refused address with the list it leads to (when the API names it: within the list's
    // own domain), and how many in all when more.
    const nested = list(a.leads_to_list) as { address?: unknown; list?: unknown }[] | null;
    if (!nested) return null;
    const pairs = nested
      .map((n) => (n.list === undefined ? quote(l, [n.address]) : `${quote(l, [n.address])} → ${quote(l, [n.list])}`))
      .join(", ");
    const total = num(a.count);
    const more =
      total === null
        ? ""
        : l === "pl"
          ? ` (wszystkich: ${formatNumber(total, l)})`
          : ` (${formatNumber(total, l)} in all)`;
    return l === "pl" ? `Prowadzi do listy: ${pairs}${more}.` : `Leads to a list: ${pairs}${more}.`;
  },
  (a, l) => {
    if (typeof a.start_date !== "string" || typeof a.end_date !== "string") return null;
    const d = (iso: string) => formatDate(iso, l);
    return l === "pl"
      ? `Początek: ${d(a.start_date)}, koniec: ${d(a.end_date)}.`
      : `Start: ${d(a.start_date)}, end: ${d(a.end_date)}.`;
  },
];

/** YYYY-MM-DD as the panel shows dates: DD.MM.RRRR in Polish, YYYY-MM-DD in English; anything else as is. */
export function formatDate(iso: string, locale: Locale): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  return locale === "pl" ? `${m[3]}.${m[2]}.${m[1]}` : iso;
}

/** The sentence(s) the attributes of an error add, or "" when they add nothing. */
export function errorDetailText(attributes: Attributes | undefined, locale: Locale): string {
  if (!attributes) return "";
  return pieces
    .map((p) => p(attributes, locale))
    .filter(Boolean)
    .join(" ");
}
