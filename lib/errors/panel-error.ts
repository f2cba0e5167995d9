// A refusal that only a panel session can meet (lib/errors/panel-errors.ts): thrown by a service, formatted by the
// one wrapper (lib/server/http/http.ts) like the catalog's errors.
import type { CatalogEntry } from "./catalog";

export class PanelError extends Error {
  constructor(
    readonly entry: CatalogEntry,
    readonly source?: string,
  ) {
    super(entry.message);
    this.name = "PanelError";
  }
}
