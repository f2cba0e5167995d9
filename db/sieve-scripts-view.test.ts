// The newest migration that creates (or replaces) mail_sieve_scripts holds db/sieve-scripts-view.ts's rendering for its engine, so
// the view Dovecot reads is the one written there.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sieveScriptsView, type Engine } from "@/db/sieve-scripts-view";

const folders: Record<Engine, string> = { sqlite: "db/sqlite/migrations", pg: "db/pg/migrations" };

describe.each(["sqlite", "pg"] as const)("mail_sieve_scripts on %s", (engine) => {
  it("is created by the newest migration exactly as rendered", () => {
    const newest = fs
      .readdirSync(folders[engine])
      .filter((file) => file.endsWith(".sql"))
      .sort()
      .map((file) => fs.readFileSync(path.join(folders[engine], file), "utf8"))
      .filter((text) => /CREATE (OR REPLACE )?VIEW mail_sieve_scripts/.test(text))
      .at(-1);
    // After a change to the template, add a migration per engine: on SQLite DROP VIEW mail_sieve_scripts, then this
    // text; on PostgreSQL this text alone (CREATE OR REPLACE keeps the mail role's grant).
    expect(newest).toContain(sieveScriptsView(engine));
  });
});
