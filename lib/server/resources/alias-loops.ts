import "server-only";
// An alias whose mail would come back to it: the mail server refuses mail to it at RCPT (expansionLoops in
// lib/mailserver/policy/destination.ts), so the API refuses to make it, asking the same expansion.
import type { Db } from "@/db/client";
import { apiError } from "@/lib/errors/api-error";
import { expansionLoop } from "@/lib/mailserver/policy/destination";

/**
 * 500.368 (aliasTargetLoop) naming the round when mail to the alias `email` would come back to it. Call inside the
 * write's transaction once the alias rows are written, so that the expansion sees them; the throw rolls them back.
 * A loop elsewhere that the alias only leads into is not its own and is left to the mail server.
 */
export async function assertNoAliasLoop(
  db: Db,
  email: string,
  source: string,
  attributes: Record<string, unknown>,
): Promise<void> {
  const round = await expansionLoop(db, email);
  // Past Postfix's limits the expansion gives up without a round (the first address again at the end).
  if (!round || round.length < 2 || round[0] !== round.at(-1)) return;
  const at = round.indexOf(email);
  if (at < 0) return;
  const loop = [...round.slice(at, -1), ...round.slice(0, at), email];
  throw apiError("aliasTargetLoop", source, { ...attributes, loop });
}
