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
import { fieldValue } from "@/lib/i18n/field-words";
import type { PageEnvelope, PageQuery } from "@/lib/schemas/page-query";
import { listAccounts, parseAccountListQuery } from "./accounts";
import { listAliases, parseAliasListQuery } from "./aliases";
import { listMailingLists, parseMailingListQuery } from "./mailing-lists";

export const EXPORT_RESOURCES = ["accounts", "aliases", "lists"] as const;
export type ExportResource = (typeof EXPORT_RESOURCES)[number];
export type ExportEncoding = "utf-8" | "windows-1250";

const PAGE = 1000;

type Item = Record<string, string>;
type Locale = "pl" | "en";
/** The record's fields in the file's column order, each with its column header in the panel's languages. */
type Headers = Record<string, Record<Locale, string>>;
interface ExportSpec {
  list: (db: Db, d: DomainRow, q: PageQuery) => Promise<PageEnvelope<unknown>>;
  parse: (q: URLSearchParams, d: DomainRow) => PageQuery;
  headers: Headers;
}
// "Adres"/"Address" first: a header the bulk import skips (lib/client/account-rows.ts).
const ADDRESS_AND_DESCRIPTION: Headers = {
  email: { pl: "Adres", en: "Address" },
  description: { pl: "Opis", en: "Description" },
};
const ACCOUNT_HEADERS: Headers = {
  ...ADDRESS_AND_DESCRIPTION,
  capacity: { pl: "Pojemność (MB)", en: "Capacity (MB)" },
  usage_bytes: { pl: "Zajęte (bajty)", en: "Used (bytes)" },
  usage: { pl: "Zajętość", en: "Usage" },
  blocked: { pl: "Zablokowane", en: "Blocked" },
  creation_date: { pl: "Utworzone", en: "Created" },
  expiration_date: { pl: "Wygasa", en: "Expires" },
  last_auth_date: { pl: "Ostatnie logowanie", en: "Last sign-in" },
};
const ALIAS_HEADERS: Headers = { email: ADDRESS_AND_DESCRIPTION.email!, target: { pl: "Cel", en: "Target" } };
const LIST_HEADERS: Headers = {
  ...ADDRESS_AND_DESCRIPTION,
  privacy_mode: { pl: "Prywatność", en: "Privacy" },
  replyto_mode: { pl: "Odpowiedzi do", en: "Replies to" },
  autosubscribe_enabled: { pl: "Zapis przez SUBSCRIBE", en: "SUBSCRIBE by mail" },
};
const spec: Record<ExportResource, ExportSpec> = {
  accounts: { list: listAccounts, parse: parseAccountListQuery, headers: ACCOUNT_HEADERS },
  aliases: { list: listAliases, parse: parseAliasListQuery, headers: ALIAS_HEADERS },
  lists: { list: listMailingLists, parse: parseMailingListQuery, headers: LIST_HEADERS },
};

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
  const columns = Object.keys(spec[resource].headers);
  const headers = Object.values(spec[resource].headers).map((h) => h[locale]);
  const { list } = spec[resource];
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
