// The operator CLI (contract §1): `npm run --silent cli -- <command>`. Exit 0 on success; on failure one line on
// stderr: exit 2 for wrong usage (unknown command or option, missing or bad value), 1 for anything else.
// Runs with the react-server condition so the server modules' `server-only` guard allows it.
import fs from "node:fs";
import { getDb, getReadyDb } from "@/db/client";
import { databaseEngine, databasePath, databaseUrl } from "@/lib/config.mjs";
import { databaseOpenError, describeError, FailedWithReport, UsageError } from "./args";
import { createsDatabase, runCommand, usesDatabase } from "./commands";

const ignoreError = () => {};

/**
 * Writes a line and waits until the stream has handed it on: process.exit drops what a pipe has not taken yet (a
 * slow reader got the first 64 KiB of a 2,000-domain `domain list`, and exit status 0). A reader gone (`| head`)
 * ends the wait too.
 */
function writeLine(stream: NodeJS.WriteStream, text: string | undefined): Promise<void> {
  if (!text) return Promise.resolve();
  return new Promise((resolve) => {
    const gone = () => resolve();
    stream.once("error", gone);
    stream.write(`${text}\n`, (err) => {
      // One listener per line would pile up over an import's thousands of lines (MaxListenersExceededWarning).
      stream.off("error", gone);
      // A failed write (EPIPE: the reader is gone, `| head`) is followed by the stream's 'error' event, which
      // without a listener ends the process with Node's stack trace: one listener, kept, takes it.
      if (err && !stream.listeners("error").includes(ignoreError)) stream.on("error", ignoreError);
      resolve();
    });
  });
}

try {
  const argv = process.argv.slice(2);
  // On PostgreSQL the pool is opened and the database migrated first, for a command that uses it (not for --help or
  // wrong usage); the SQLite file only when a command uses it (wrong usage creates no file).
  if (databaseEngine() === "postgres" && usesDatabase(argv))
    await getReadyDb().catch((err: unknown) => {
      throw databaseOpenError(databaseUrl()!, err);
    });
  const db = () => {
    const file = databasePath();
    if (databaseEngine() === "sqlite" && !createsDatabase(argv) && !fs.existsSync(file))
      throw new Error(
        `no database at ${file}: set DATABASE_URL (PostgreSQL) or DATABASE_PATH (SQLite) as the service has them, ` +
          "or create it with `npm run db:migrate`",
      );
    return getDb();
  };
  const output = await runCommand(db, argv, (line) => writeLine(process.stdout, line));
  await writeLine(process.stdout, output);
  process.exit(0);
} catch (err) {
  if (err instanceof FailedWithReport) await writeLine(process.stdout, err.output);
  await writeLine(process.stderr, `error: ${describeError(err)}`);
  process.exit(err instanceof UsageError ? 2 : 1);
}
