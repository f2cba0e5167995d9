import "server-only";
// CSV export of a postmaster's table (accounts, aliases, lists): every record the current search matches, in the
// table's order, streamed. The rows are read through the same listX functions the API lists with, one page of
// 1,000 at a time as the client reads (a ReadableStream's pull), so a 100,000-account domain exports in the memory
// of one page, and the search means exactly what it means in the table.
//
// Format: ";"-separated (what Excel expects where the decimal separator is a comma, as in Polish), CRLF lines,
// UTF-8 with a BOM so Excel recognises it; `encoding=windows-1250` gives Excel's older Polish code page instead
// (a character it lacks becomes "?"). A cell starting with = + - @ or a tab is prefixed with ' so that a
// description cannot run as a formula when opened (CSV injection).
import type { Db } from "@/db/client";
import type { DomainRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import type { Locale } from "@/lib/i18n";
import { fieldLabel, fieldValue } from "@/lib/i18n/field-words";
import type { PageEnvelope, PageQuery } from "@/lib/schemas/page-query";
import { listAccounts, parseAccountListQuery } from "./accounts";
import { listAliases, parseAliasListQuery } from "./aliases";
import { listMailingLists, parseMailingListQuery } from "./mailing-lists";

export const EXPORT_RESOURCES = ["accounts", "aliases", "lists"] as const;
export type ExportResource = (typeof EXPORT_RESOURCES)[number];
export type ExportEncoding = "utf-8" | "windows-1250";

const PAGE = 1000;

type Item = Record<string, string>;
type Words = Record<Locale, string>;
interface ExportSpec {
  list: (db: Db, d: DomainRow, q: PageQuery) => Promise<PageEnvelope<unknown>>;
  parse: (q: URLSearchParams, d: DomainRow) => PageQuery;
  /** The record's fields in the file's column order. */
  columns: readonly string[];
}
/**
 * The export's own column words, the one place where a header is not the field's label in lib/i18n/field-words.ts
 * (which the audit log says). Every other column is headed with that label, so the two cannot drift apart.
 * - `fields`: list items' fields that field-words does not name (no form edits them, so no audit entry says them).
 * - `short`: the table's short column words where field-words has the form's longer label (a spreadsheet column is
 *   as narrow as the table's): "Wygasa", not "Data wygaśnięcia"; "Odpowiedzi do", not "Odpowiedzi trafiają do". Per
 *   language: the English table says "Replies go to", as field-words does, so the English header does too.
 * export.test.ts fails when an entry here stops differing from field-words, or field-words starts naming a `fields` one.
 */
export const COLUMN_WORDS = {
  fields: {
    email: { pl: "Adres", en: "Address" },
    usage_bytes: { pl: "Zajęte (bajty)", en: "Used (bytes)" },
    usage: { pl: "Zajętość", en: "Usage" },
    creation_date: { pl: "Utworzone", en: "Created" },
    last_auth_date: { pl: "Ostatnie logowanie", en: "Last sign-in" },
  },
  short: {
    expiration_date: { pl: "Wygasa", en: "Expires" },
    replyto_mode: { pl: "Odpowiedzi do" },
  },
} satisfies { fields: Record<string, Words>; short: Record<string, Partial<Words>> };
const OWN_WORDS: Record<string, Partial<Words>> = { ...COLUMN_WORDS.fields, ...COLUMN_WORDS.short };

/** A column's header in `locale`: the export's own word (COLUMN_WORDS) or the field's label in the panel. */
const columnHeader = (field: string, locale: Locale) => OWN_WORDS[field]?.[locale] ?? fieldLabel(field, locale);

const spec: Record<ExportResource, ExportSpec> = {
  // "email" first in each: its header "Adres"/"Address" is one the bulk import skips (lib/client/account-rows.ts).
  accounts: {
    list: listAccounts,
    parse: parseAccountListQuery,
    columns: [
      "email",
      "description",
      "capacity",
      "usage_bytes",
      "usage",
      "blocked",
      "creation_date",
      "expiration_date",
      "last_auth_date",
    ],
  },
  aliases: { list: listAliases, parse: parseAliasListQuery, columns: ["email", "target"] },
  lists: {
    list: listMailingLists,
    parse: parseMailingListQuery,
    columns: ["email", "description", "privacy_mode", "replyto_mode", "autosubscribe_enabled"],
  },
};

/** The file's header row for `resource` in `locale`. */
export const exportHeaders = (resource: ExportResource, locale: Locale): string[] =>
  spec[resource].columns.map((c) => columnHeader(c, locale));

/** The table's query (search, sort, sort_dir) as the export reads it: its own pages of 1,000 (500.130 on a bad one). */
export function parseExportQuery(resource: ExportResource, tableQuery: URLSearchParams, domain: DomainRow): PageQuery {
  const query = new URLSearchParams();
  for (const key of ["search", "sort", "sort_dir"]) {
    const v = tableQuery.get(key);
    if (v !== null) query.set(key, v);
  }
  query.set("size", String(PAGE));
  return spec[resource].parse(query, domain);
}

/** One CSV field: quoted when it holds the separator, a quote or a line break; formula starts defused. */
export function csvField(value: string): string {
  const v = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export const csvLine = (fields: string[]) => `${fields.map(csvField).join(";")}\r\n`;

// Windows-1250 from the platform's own WHATWG table (TextDecoder), reversed once: no hand-written code page.
let cp1250: Map<string, number> | null = null;
export function encodeWindows1250(text: string): Uint8Array {
  if (!cp1250) {
    cp1250 = new Map();
    const decoder = new TextDecoder("windows-1250");
    for (let b = 0x80; b <= 0xff; b++) {
      const c = decoder.decode(new Uint8Array([b]));
      if (c !== "\ufffd") cp1250.set(c, b);
    }
  }
  const out = new Uint8Array(text.length);
  let n = 0;
  for (const c of text) {
    const code = c.codePointAt(0)!;
    out[n++] = code < 0x80 ? code : (cp1250.get(c) ?? 0x3f);
  }
  return out.subarray(0, n);
}

/**
 * The file's name: domain, resource, date and, for Windows-1250, the encoding, so both downloads can sit side by side
 * ("example.org-accounts-2026-11-25.csv", "example.org-accounts-2026-11-25-windows-1250.csv").
 */
export const exportFileName = (domain: string, resource: ExportResource, encoding: ExportEncoding = "utf-8") =>
  `${domain}-${resource}-${new Date().toISOString().slice(0, 10)}${encoding === "utf-8" ? "" : `-${encoding}`}.csv`;

/**
 * The CSV of `resource` in `domain` for the table's query (parseExportQuery), as a stream of bytes in `encoding`,
 * its header row and coded values ("tak" for blocked 1, "moderowana" for privacy_mode 1) in the panel's `locale`.
 * The first page is read before the stream starts.
 */
export async function exportCsv(
  db: Db,
  domain: DomainRow,
  resource: ExportResource,
  query: PageQuery,
  encoding: ExportEncoding = "utf-8",
  locale: Locale = "pl",
): Promise<ReadableStream<Uint8Array>> {
  const { list, columns } = spec[resource];
  const headers = exportHeaders(resource, locale);
  const pageAt = (page: number) => list(db, domain, { ...query, page, size: PAGE });
  const first = await pageAt(0);
  const utf8 = new TextEncoder();
  const encode = (text: string) => (encoding === "windows-1250" ? encodeWindows1250(text) : utf8.encode(text));
  let page = 0;
  let pending: PageEnvelope<unknown> | null = first;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encode(`${encoding === "utf-8" ? "\ufeff" : ""}${csvLine(headers)}`));
      },
      async pull(controller) {
        const envelope = pending ?? (await pageAt(page));
        pending = null;
        const items = Object.values(envelope.result_data) as Item[];
        if (items.length > 0)
          controller.enqueue(
            encode(items.map((r) => csvLine(columns.map((c) => String(fieldValue(c, r[c] ?? "", locale))))).join("")),
          );
        page++;
        if (items.length < PAGE) controller.close();
      },
    },
    // One page at a time: the next is read only when the client has taken the last.
    { highWaterMark: 1 },
  );
}

export function parseExportResource(raw: string): ExportResource {
  if (!(EXPORT_RESOURCES as readonly string[]).includes(raw)) throw apiError("endpointNotFound");
  return raw as ExportResource;
}

export function parseExportEncoding(raw: string | null): ExportEncoding {
  if (raw === null || raw === "" || raw === "utf-8") return "utf-8";
  if (raw === "windows-1250") return "windows-1250";
  throw apiError("invalidQuery", "encoding");
}
