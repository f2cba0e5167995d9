// `db backup` on SQLite: the copy is readable by its owner only from its first byte, not just once it is finished
// (with umask 022 the unfinished copy, every password hash in it, was 0644 until the end).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { backupDatabase, restoreDatabase } from "./backup";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "backup-mode-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("db backup (SQLite)", () => {
  it("writes the copy 0600 from the start, whatever the umask", async () => {
    const source = new Database(path.join(dir, "mail.db"));
    for (const table of ["domains", "accounts", "aliases", "mailing_lists"])
      source.exec(`CREATE TABLE ${table} (x TEXT)`);
    const modes: (number | string)[] = [];
    // The real source, its backup watched: the copy's mode when SQLite starts writing into it (before, SQLite created it
    // with the umask's mode).
    const watched = Object.create(source) as Database.Database;
    watched.backup = (dest, options) => {
      modes.push(fs.existsSync(dest) ? fs.statSync(dest).mode & 0o777 : "not created yet");
      return source.backup(dest, options);
    };
    const umask = process.umask(0o022);
    try {
      const report = await backupDatabase(watched, path.join(dir, "copy.db"));
      expect(fs.statSync(report.file).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(umask);
      source.close();
    }
    expect(modes).toEqual([0o600]);
  });
});

describe("db restore (SQLite)", () => {
  it("a file that is missing or a folder is named in one line, as any file argument is", () => {
    expect(() => restoreDatabase(path.join(dir, "missing.db"), path.join(dir, "target.db"))).toThrow(
      `cannot read ${path.join(dir, "missing.db")}: there is no such file`,
    );
    expect(() => restoreDatabase(dir, path.join(dir, "target.db"))).toThrow(
      `cannot read ${dir}: it is a folder, not a file`,
    );
    expect(fs.existsSync(path.join(dir, "target.db"))).toBe(false);
  });
});
