// A new domain as the operator adds it (CLI `domain add`, `demo`, tests): the domain row, its postmaster account
// and its DKIM key, in one transaction.
import type { Db } from "@/db/client";
import { apiError } from "@/lib/errors/api-error";
import { withTransaction } from "@/db/transaction";
import { generateDkimKey } from "@/lib/mailserver/dkim";
import { passwordProblems } from "@/lib/schemas/common";
import { createAccount } from "./accounts";
import { getDomainOrThrow, insertDomain, type DomainLimits } from "./domains";

/** Adds a domain with its postmaster account, in one transaction; of a new customer unless `customerId` names one. */
export async function addDomain(
  db: Db,
  name: string,
  postmasterPassword: string,
  limits: DomainLimits,
  customerId?: number,
) {
  if (passwordProblems(postmasterPassword).length) throw apiError("invalidPassword", "--postmaster-password");
  return withTransaction(db, async (tx) => {
    const domain = await insertDomain(tx, name, limits, customerId);
    await createAccount(tx, domain, "postmaster", {
      password: postmasterPassword,
      description: "Administrator domeny",
    });
    // Its DKIM key: `mailserver events` hands it to Rspamd; the TXT record to publish is in `domain dkim show`.
    await generateDkimKey(tx, domain);
    return getDomainOrThrow(tx, name);
  });
}
