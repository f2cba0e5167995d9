// Greylisting's two stores follow one rule (a new triplet waits the delay, its retry passes, later ones pass at
// once), and `mailserver policy` picks its store without creating a state file where no database is.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";
import { DatabaseGreylist, Greylist, openGreylist, type GreylistStore } from "./greylist";

vi.mock("server-only", () => ({}));

let dir: string;
let db: Db;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-greylist-"));
  db = openDatabase(path.join(dir, "mail.db"));
});

afterAll(() => {
  db?.$client.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const T0 = 1_800_000_000_000;

describe.each([
  ["a file of the host", () => new Greylist(path.join(dir, "greylist.db"))],
  ["the database's table", () => new DatabaseGreylist(db)],
] as [string, () => GreylistStore][])("greylisting in %s", (_name, open) => {
  it("defers a new triplet for the delay, passes its retry after it, and later messages at once", async () => {
    const g = open();
    const t = `client-${_name.length}`;
    expect(await g.check(t, "s@x.test", "r@y.test", 300, T0)).toBe(300);
    expect(await g.check(t, "s@x.test", "r@y.test", 300, T0 + 100_000)).toBe(200);
    // Another recipient is another triplet.
    expect(await g.check(t, "s@x.test", "other@y.test", 300, T0 + 100_000)).toBe(300);
    expect(await g.check(t, "s@x.test", "r@y.test", 300, T0 + 300_000)).toBe(0);
    expect(await g.check(t, "s@x.test", "r@y.test", 300, T0 + 301_000)).toBe(0);
    g.close();
  });

  it("forgets a passed triplet 35 days after its last message, a pending one a day after its attempt", async () => {
    const DAY = 86_400_000;
    const now = T0 + 100 * DAY;
    const t = (name: string) => [`expiry-${_name.length}`, `${name}@x.test`, "r@y.test"] as const;
    const g = open();
    // Passed 36 and 10 days ago (a retry five minutes after the first attempt), pending since 2 days and 1 hour ago.
    for (const [name, at] of [
      ["passed-long-ago", now - 36 * DAY],
      ["passed-lately", now - 10 * DAY],
    ] as const) {
      await g.check(...t(name), 300, at - 300_000);
      expect(await g.check(...t(name), 300, at)).toBe(0);
    }
    await g.check(...t("pending-long-ago"), 300, now - 2 * DAY);
    await g.check(...t("pending-lately"), 300, now - 3_600_000);
    g.close();
    // A store's first check expires what is due.
    const later = open();
    await later.check("someone", "else@x.test", "r@y.test", 300, now);
    // A forgotten triplet is deferred as new; a kept one passes (the pending one has waited long enough).
    expect(await later.check(...t("passed-long-ago"), 300, now)).toBe(300);
    expect(await later.check(...t("passed-lately"), 300, now)).toBe(0);
    expect(await later.check(...t("pending-long-ago"), 300, now)).toBe(300);
    expect(await later.check(...t("pending-lately"), 300, now)).toBe(0);
    later.close();
  });
});

describe("the store `mailserver policy` opens", () => {
  it("on SQLite without --state: greylist.db beside the database; with no database there, an error and no file", () => {
    const missing = path.join(dir, "nowhere", "mail.db");
    expect(() => openGreylist(() => db, undefined, { postgres: false, databasePath: missing })).toThrow(
      /does not exist/,
    );
    expect(fs.existsSync(path.dirname(missing))).toBe(false);
    const g = openGreylist(() => db, undefined, { postgres: false, databasePath: path.join(dir, "mail.db") });
    expect(g).toBeInstanceOf(Greylist);
    g.close();
    expect(fs.existsSync(path.join(dir, "greylist.db"))).toBe(true);
  });

  it("on PostgreSQL without --state, and with --state database: the shared table; --state <file>: that file", () => {
    expect(
      openGreylist(() => db, undefined, { postgres: true, databasePath: path.join(dir, "none.db") }),
    ).toBeInstanceOf(DatabaseGreylist);
    expect(
      openGreylist(() => db, "database", { postgres: false, databasePath: path.join(dir, "none.db") }),
    ).toBeInstanceOf(DatabaseGreylist);
    const file = path.join(dir, "own", "state.db");
    const g = openGreylist(() => db, file, { postgres: true, databasePath: path.join(dir, "none.db") });
    expect(g).toBeInstanceOf(Greylist);
    g.close();
    expect(fs.existsSync(file)).toBe(true);
  });

  it("the CLI refuses to start without the database file and leaves nothing behind", async () => {
    const missing = path.join(dir, "absent", "mail.db");
    const saved = process.env.DATABASE_PATH;
    process.env.DATABASE_PATH = missing;
    try {
      await expect(
        runCommand(() => openDatabase(missing), ["mailserver", "policy", "--listen", "127.0.0.1:0"]),
      ).rejects.toThrow(/does not exist/);
    } finally {
      if (saved === undefined) delete process.env.DATABASE_PATH;
      else process.env.DATABASE_PATH = saved;
    }
    expect(fs.existsSync(path.dirname(missing))).toBe(false);
  });
});
