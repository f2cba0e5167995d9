// A new domain as the operator adds it (CLI `domain add`, `demo`, tests): the domain row, its postmaster account
// and its DKIM key, in one transaction.
import type { Db } from "@/db/client";
import { apiError } from "@/lib/errors/api-error";
import { withTransaction } from "@/db/transaction";
import { generateDkimKey, newDkimKeyPair, type DkimKeyPair } from "@/lib/mailserver/dkim";
import { passwordProblems } from "@/lib/schemas/common";
import { eq } from "drizzle-orm";
import { accounts, domains } from "@/db/schema";
import { newDomainMailHost } from "@/lib/mailserver/mail-hosts";
import { createAccount, prehashPassword, type Prehashed } from "./accounts";
import { effectiveLimits } from "./customers";
import { getDomainOrThrow, insertDomain, type DomainLimits } from "./domains";

export interface PreparedPostmaster {
  prehashed: Prehashed | undefined;
  keyPair: DkimKeyPair;
}

/**
 * The slow parts of adding a domain, the postmaster password's scrypt hash and the RSA key, made on libuv's thread
 * pool: before the transaction (which then holds no lock for them), and for many domains at once by an import.
 */
export async function preparePostmaster(password: string): Promise<PreparedPostmaster> {
  if (passwordProblems(password).length) throw apiError("invalidPassword", "--postmaster-password");
  const [prehashed, keyPair] = await Promise.all([prehashPassword({ password }), newDkimKeyPair()]);
  return { prehashed, keyPair };
}

/** A new account's capacity when none is given (MB): the column's default. */
const DEFAULT_CAPACITY = accounts.capacity.default as number;

/**
 * The new postmaster's capacity: the default, or all the room the capacity limit in force leaves (the domain's own,
 * or its customer's pool) when that is smaller, so that a domain whose limit is below the default can be added. No
 * room at all (a full pool, a limit of 0): the default, and the capacity limit's refusal, as for any account.
 */
function postmasterCapacity(limits: { capacityLimit: number; capacitySum: number }): number {
  const room = limits.capacityLimit - limits.capacitySum;
  return room >= 1 ? Math.min(DEFAULT_CAPACITY, room) : DEFAULT_CAPACITY;
}

/**
 * Adds a domain with its postmaster account and DKIM key, in one transaction; of a new customer unless `customerId`
 * names one. `prepared` is preparePostmaster(postmasterPassword)'s result when the caller made it already;
 * `mailHost` places its mailboxes on that mail host from the start, null on none; left out, the domain goes on none
 * only while no mail host is set up (newDomainMailHost), else it is refused.
 */
export async function addDomain(
  db: Db,
  name: string,
  postmasterPassword: string,
  limits: DomainLimits,
  customerId?: number,
  o: { prepared?: PreparedPostmaster; mailHost?: string | null } = {},
) {
  const { prehashed, keyPair } = o.prepared ?? (await preparePostmaster(postmasterPassword));
  return withTransaction(db, async (tx) => {
    const domain = await insertDomain(tx, name, limits, customerId);
    const mailHost = await newDomainMailHost(tx, o.mailHost);
    if (mailHost) await tx.update(domains).set({ mailHost }).where(eq(domains.id, domain.id));
    await createAccount(
      tx,
      domain,
      "postmaster",
      {
        password: postmasterPassword,
        description: "Administrator domeny",
        capacity: postmasterCapacity(await effectiveLimits(tx, domain)),
      },
      prehashed,
    );
    // Its DKIM key: `mailserver events` hands it to Rspamd; the TXT record to publish is in `domain dkim show`.
    await generateDkimKey(tx, domain, undefined, keyPair);
    return getDomainOrThrow(tx, name);
  });
}
