// `demo`: a domain to try the panel and the API with, and the logins to use.
import type { Db } from "@/db/client";
import { sha1Hex, verifyDigest } from "@/lib/server/caller/password";
import { createAccount, findAccount, recordUsage } from "@/lib/server/resources/accounts";
import { createAlias } from "@/lib/server/resources/aliases";
import { findDomain } from "@/lib/server/resources/domains";
import { createMailingList } from "@/lib/server/resources/mailing-lists";
import { addDomain } from "@/lib/server/resources/new-domain";

export const DEMO_DOMAIN = "demo.example.com";
export const DEMO_POSTMASTER_PASSWORD = "Demo-admin1";
export const DEMO_USER_PASSWORD = "Demo-user1";

const PEOPLE = [
  ["anna.kowalska", "Anna Kowalska, księgowość", 2048, 612],
  ["jan.nowak", "Jan Nowak, sprzedaż", 1024, 310],
  ["piotr.wisniewski", "Piotr Wiśniewski, IT", 4096, 3900],
  ["maria.wojcik", "Maria Wójcik, kadry", 1024, 95],
  ["biuro", "Skrzynka biura", 8192, 5200],
  ["faktury", "Faktury przychodzące", 2048, 1800],
] as const;

export async function seedDemo(db: Db): Promise<string> {
  const existing = await findDomain(db, DEMO_DOMAIN);
  if (existing) {
    // Someone may have changed a demo password (or removed the account) since: printing it then would mislead.
    const still = async (name: string, password: string) => {
      const account = await findAccount(db, existing, name);
      if (!account) return "(the account no longer exists)";
      return verifyDigest(sha1Hex(password), account.passwordHash) ? password : "(changed since the demo was seeded)";
    };
    return logins(
      "The demo domain already exists.",
      await still("postmaster", DEMO_POSTMASTER_PASSWORD),
      await still("jan.nowak", DEMO_USER_PASSWORD),
    );
  }
  // On no mail host, as before hosts existed: a demo for a first look, not a customer's mail to keep in one place.
  const domain = await addDomain(db, DEMO_DOMAIN, DEMO_POSTMASTER_PASSWORD, {}, undefined, { mailHost: null });
  for (const [name, description, capacity, usedMb] of PEOPLE) {
    await createAccount(db, domain, name, { password: DEMO_USER_PASSWORD, description, capacity });
    await recordUsage(db, `${name}@${DEMO_DOMAIN}`, usedMb * 1024 * 1024, Math.round(usedMb * 12));
  }
  await createAlias(db, domain, "kontakt", { target: `biuro@${DEMO_DOMAIN}` });
  await createAlias(db, domain, "info", { target: `biuro@${DEMO_DOMAIN}` });
  await createAlias(db, domain, "ania", { target: `anna.kowalska@${DEMO_DOMAIN}` });
  await createMailingList(db, domain, "wszyscy", {
    description: "Wszyscy pracownicy",
    accounts: PEOPLE.map(([name]) => `${name}@${DEMO_DOMAIN}`),
    moderators: [`biuro@${DEMO_DOMAIN}`],
  });
  await createMailingList(db, domain, "ogloszenia", {
    description: "Ogłoszenia firmowe",
    privacy_mode: 1,
    moderators: [`biuro@${DEMO_DOMAIN}`],
  });
  return logins(`Demo domain ${DEMO_DOMAIN} created.`, DEMO_POSTMASTER_PASSWORD, DEMO_USER_PASSWORD);
}

function logins(headline: string, postmasterPassword: string, userPassword: string): string {
  return [
    headline,
    `  Domain administrator: postmaster@${DEMO_DOMAIN}  password: ${postmasterPassword}`,
    `  Ordinary account:     jan.nowak@${DEMO_DOMAIN}  password: ${userPassword}`,
  ].join("\n");
}
