// The newest migration that creates mail_sieve_scripts holds db/sieve-scripts-view.ts's rendering for its engine, so
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
      .filter((text) => text.includes("CREATE VIEW mail_sieve_scripts"))
      .at(-1);
    // After a change to the template, add a migration per engine: DROP VIEW mail_sieve_scripts, then this text.
    expect(newest).toContain(sieveScriptsView(engine));
  });
});
