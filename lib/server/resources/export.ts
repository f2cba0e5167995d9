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
import type { ListEnvelope } from "@/lib/schemas/list-query";
import { listAccounts } from "./accounts";
import { listAliases } from "./aliases";
import { listMailingLists } from "./mailing-lists";

export const EXPORT_RESOURCES = ["accounts", "aliases", "lists"] as const;
export type ExportResource = (typeof EXPORT_RESOURCES)[number];
export type ExportEncoding = "utf-8" | "windows-1250";

const PAGE = 1000;

type Item = Record<string, string>;
const spec: Record<ExportResource, { list: (db: Db, d: DomainRow, q: URLSearchParams) => ListEnvelope<unknown>; columns: string[] }> = {
  accounts: {
    list: listAccounts,
    columns: ["email", "description", "capacity", "usage_bytes", "usage", "blocked", "creation_date", "expiration_date", "last_auth_date"],
  },
  aliases: { list: listAliases, columns: ["email", "target"] },
  lists: { list: listMailingLists, columns: ["email", "description", "privacy_mode", "replyto_mode", "autosubscribe_enabled"] },
};

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

/** The file's name: domain, resource and date ("example.org-accounts-2026-11-25.csv"). */
export const exportFileName = (domain: string, resource: ExportResource) =>
  `${domain}-${resource}-${new Date().toISOString().slice(0, 10)}.csv`;

/**
 * The CSV of `resource` in `domain` for the table's query (search, sort, sort_dir; page and size are the export's
 * own), as a stream of bytes in `encoding`. A bad query fails here, before the stream starts (500.130).
 */
export function exportCsv(
  db: Db,
  domain: DomainRow,
  resource: ExportResource,
  tableQuery: URLSearchParams,
  encoding: ExportEncoding = "utf-8",
): ReadableStream<Uint8Array> {
  const { list, columns } = spec[resource];
  const query = new URLSearchParams();
  for (const key of ["search", "sort", "sort_dir"]) {
    const v = tableQuery.get(key);
    if (v !== null) query.set(key, v);
  }
  query.set("size", String(PAGE));
  const pageAt = (page: number) => {
    query.set("page", String(page));
    return list(db, domain, query);
  };
  const first = pageAt(0); // validates the query before anything is sent
  const utf8 = new TextEncoder();
  const encode = (text: string) => (encoding === "windows-1250" ? encodeWindows1250(text) : utf8.encode(text));
  let page = 0;
  let pending: ListEnvelope<unknown> | null = first;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encode(`${encoding === "utf-8" ? "\ufeff" : ""}${csvLine(columns)}`));
      },
      pull(controller) {
        const envelope = pending ?? pageAt(page);
        pending = null;
        const items = Object.values(envelope.result_data) as Item[];
        if (items.length > 0) controller.enqueue(encode(items.map((r) => csvLine(columns.map((c) => String(r[c] ?? "")))).join("")));
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
