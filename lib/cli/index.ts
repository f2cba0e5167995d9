// The operator CLI (contract §1): `npm run --silent cli -- <command>`. Exit 0 on success; on failure one line on
// stderr: exit 2 for wrong usage (unknown command or option, missing or bad value), 1 for anything else.
// Runs with the react-server condition so the server modules' `server-only` guard allows it.
import { getDb, getReadyDb } from "@/db/client";
import { databaseEngine } from "@/lib/config.mjs";
import { describeError, FailedWithReport, UsageError } from "./args";
import { ownsConnection, runCommand } from "./commands";

/**
 * Writes a line and waits until the stream has handed it on: process.exit drops what a pipe has not taken yet (a
 * slow reader got the first 64 KiB of a 2,000-domain `domain list`, and exit status 0). A reader gone (`| head`)
 * ends the wait too.
 */
function writeLine(stream: NodeJS.WriteStream, text: string | undefined): Promise<void> {
  if (!text) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once("error", () => resolve());
    stream.write(`${text}\n`, () => resolve());
  });
}

try {
  // On PostgreSQL the pool is opened and the database migrated first; the SQLite file only when a command uses it
  // (wrong usage creates no file).
  if (databaseEngine() === "postgres" && !ownsConnection(process.argv.slice(2))) await getReadyDb();
  const output = await runCommand(() => getDb(), process.argv.slice(2));
  await writeLine(process.stdout, output);
  process.exit(0);
} catch (err) {
  if (err instanceof FailedWithReport) await writeLine(process.stdout, err.output);
  await writeLine(process.stderr, `error: ${describeError(err)}`);
  process.exit(err instanceof UsageError ? 2 : 1);
}
