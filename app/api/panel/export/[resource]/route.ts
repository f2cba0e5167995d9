// GET /api/panel/export/<accounts|aliases|lists>?search=&sort=&sort_dir=&encoding=utf-8|windows-1250: the records of
// the postmaster's domain that the table's search matches, as a CSV download (lib/server/resources/export.ts), streamed,
// its header row in the panel's language (the locale cookie).
import { requestLocale } from "@/lib/i18n/server";
import { domainForAdmin } from "@/lib/server/caller/access";
import {
  exportCsv,
  exportFileName,
  parseExportEncoding,
  parseExportQuery,
  parseExportResource,
} from "@/lib/server/resources/export";
import { ok, withApi } from "@/lib/server/http/http";

export const GET = withApi(async ({ db, principal, params, query }) => {
  const domain = await domainForAdmin(db, principal, principal.domain);
  const resource = parseExportResource(params.resource!);
  const encoding = parseExportEncoding(query.get("encoding"));
  return ok(
    await exportCsv(db, domain, resource, parseExportQuery(resource, query, domain), encoding, await requestLocale()),
    200,
    {
      "content-type": `text/csv; charset=${encoding}`,
      "content-disposition": `attachment; filename="${exportFileName(domain.name, resource, encoding)}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  );
});
export * from "@/lib/server/http/read-only-route";
