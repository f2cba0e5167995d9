// The operator CLI (contract §1): `npm run --silent cli -- <command>`. Exit 0 on success; on failure one line on
// stderr and exit 1. Runs with the react-server condition so the server modules' `server-only` guard allows it.
import { getDb } from "@/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { runCommand } from "./commands";

try {
  const output = runCommand(getDb(), process.argv.slice(2));
  if (output) console.log(output);
  process.exit(0);
} catch (err) {
  const message =
    err instanceof ApiError
      ? `${err.message}${err.source ? ` (${err.source})` : ""} [${err.toBody().code}]`
      : err instanceof Error
        ? err.message
        : String(err);
  console.error(`error: ${message.split("\n")[0]}`);
  process.exit(1);
}
