import "server-only";
// The `mailserver` command group of the operator CLI.
import path from "node:path";
import type { Db } from "@/db/client";
import { databasePath } from "@/db/client";
import { stringOption, type Args } from "@/lib/cli/args";
import { DEFAULT_CONFIG_OPTIONS, writeMailServerConfig } from "./config";
import { runHousekeeping } from "./housekeeping";

export const MAILSERVER_USAGE = `  mailserver config --out <dir> [--maildir-root <dir>] [--mail-user U] [--mail-group G] [--db-group G] [--lmtp <transport>]
  mailserver housekeeping [--doveadm <path>] [--dovecot-config <file>]`;

export function runMailServerCommand(db: Db, action: string, args: Args): string {
  if (action === "config") {
    const out = stringOption(args, "out");
    if (!out) throw new Error(`missing --out\n${MAILSERVER_USAGE}`);
    const option = (name: string, fallback: string) => stringOption(args, name) ?? fallback;
    const files = writeMailServerConfig({
      outDir: path.resolve(out),
      databasePath: databasePath(),
      maildirRoot: path.resolve(option("maildir-root", DEFAULT_CONFIG_OPTIONS.maildirRoot)),
      mailUser: option("mail-user", DEFAULT_CONFIG_OPTIONS.mailUser),
      mailGroup: option("mail-group", DEFAULT_CONFIG_OPTIONS.mailGroup),
      dbGroup: option("db-group", DEFAULT_CONFIG_OPTIONS.dbGroup),
      lmtp: option("lmtp", DEFAULT_CONFIG_OPTIONS.lmtp),
    });
    return `Wrote ${files.length} files; read ${path.join(path.resolve(out), "README.md")}.`;
  }
  if (action === "housekeeping") {
    const config = stringOption(args, "dovecot-config");
    const doveadm = [stringOption(args, "doveadm") ?? "doveadm", ...(config ? ["-c", config] : [])];
    const report = runHousekeeping(db, { doveadm });
    return [...report.expunged.map((l) => `expunge ${l}`), ...report.warned.map((l) => `warned ${l}`)].join("\n") || "nothing to do";
  }
  throw new Error(`unknown command: mailserver ${action}\n${MAILSERVER_USAGE}`);
}
