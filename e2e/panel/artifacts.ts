// Where the panel suite leaves what people read after a run: screenshots and the JavaScript-size and Lighthouse
// figures. Per engine, as Playwright's own output folder is, so the SQLite and PostgreSQL runs can go at once.
import path from "node:path";
import { onPostgres } from "../support/test-database";

const RESULTS = path.resolve(import.meta.dirname, "../../test-results");
const suffix = onPostgres() ? "-pg" : "";

/** test-results/screenshots (test-results/screenshots-pg on PostgreSQL). */
export const SCREENSHOTS = path.join(RESULTS, `screenshots${suffix}`);

/** test-results/<name>.json (<name>-pg.json on PostgreSQL). */
export const resultsFile = (name: string) => path.join(RESULTS, `${name}${suffix}.json`);

/**
 * The widths a page is looked at: a phone, the tablets (where the md and lg breakpoints change tables and forms), the
 * common laptop and a wide screen.
 */
export const WIDTHS = [375, 768, 1024, 1280, 1920] as const;
