// `domain remove` against whichever engine the process was configured for (DATABASE_URL or DATABASE_PATH, set before
// the services are imported): other domains' catchalls of type 2 and 3 into the removed domain are switched off
// (audited), its accounts leave the forwards of the customer's other accounts, other domains' aliases keep their
// targets; a domain bigger than one batch goes a batch of accounts per transaction, and each mailbox is recorded for
// removal on every host that may hold it. Used by lib/cli/domain-remove*.test.ts.
import { expect, vi } from "vitest";
import { sql } from "drizzle-orm";

export async function runDomainRemoval(): Promise<void> {
  const { getReadyDb } = await import("@/db/client");
  const { dialectOf } = await import("@/db/dialect");
  const { addDomain } = await import("@/lib/server/resources/new-domain");
  const { getDomainOrThrow, toDomainRecord, updateDomain } = await import("@/lib/server/resources/domains");
  const { createAccount, getAccountOrThrow } = await import("@/lib/server/resources/accounts");
  const { createAlias } = await import("@/lib/server/resources/aliases");
  const { listAudit } = await import("@/lib/server/resources/audit");
  const { runCommand } = await import("@/lib/cli/commands");
  const db = await getReadyDb();
  const domain = (name: string) => getDomainOrThrow(db, name);

  const q1 = await addDomain(db, "q1.example.com", "Haslo-123", {});
  for (const name of ["q2.example.com", "q3.example.com", "xq1.example.com"])
    await addDomain(db, name, "Haslo-123", {}, q1.customerId!);
  await createAccount(db, q1, "ann", { password: "Haslo-123" });
  await createAccount(db, await domain("xq1.example.com"), "ann", { password: "Haslo-123" });
  // q2 delivers its unknown addresses to the same names in q1, q3 to an account of q1; xq1 to q2 (stays).
  await updateDomain(db, await domain("q2.example.com"), { catchall_type: 3, catchall_address: "q1.example.com" });
  await updateDomain(db, await domain("q3.example.com"), { catchall_type: 2, catchall_address: "ann@q1.example.com" });
  await updateDomain(db, await domain("xq1.example.com"), { catchall_type: 3, catchall_address: "q2.example.com" });
  const q2 = await domain("q2.example.com");
  await createAccount(db, q2, "bob", {
    password: "Haslo-123",
    forwards: ["ann@q1.example.com", "ann@xq1.example.com", "out@elsewhere.test"],
  });
  await createAlias(db, q2, "al", { target: "ann@q1.example.com" });

  // The operator is told which catchalls went.
  expect(await runCommand(db, ["domain", "remove", "q1.example.com", "--yes"])).toBe(
    "Domain q1.example.com removed with all its accounts, aliases and lists.\n" +
      "Catchall switched off (it delivered into q1.example.com): q2.example.com, q3.example.com",
  );

  const aliasMap = await dialectOf(db).all<{ address: string; destination: string }>(
    db,
    sql`SELECT address, destination FROM mail_alias_map WHERE destination LIKE ${"%@q1.example.com"} ORDER BY address`,
  );
  // The alias is q2's own (contract §9: kept); no catchall key leads into q1 any more.
  expect(aliasMap).toEqual([{ address: "al@q2.example.com", destination: "ann@q1.example.com" }]);
  for (const name of ["q2.example.com", "q3.example.com"]) {
    const record = await toDomainRecord(db, await domain(name));
    expect([record.catchall_type, record.catchall_address]).toEqual([0, ""]);
    // The record read back is accepted whole again (the panel's domain form sends it so).
    await updateDomain(db, await domain(name), record);
  }
  expect((await domain("xq1.example.com")).catchallAddress).toBe("q2.example.com");
  expect((await getAccountOrThrow(db, await domain("q2.example.com"), "bob")).forwards).toEqual([
    "ann@xq1.example.com",
    "out@elsewhere.test",
  ]);

  // Each switched-off catchall and the forward taken out are audited as their domain's changes.
  const entries = (d: string) => listAudit(db, { domain: d }).then((r) => r.entries);
  const [q3Entry] = await entries("q3.example.com");
  expect([q3Entry?.resource, q3Entry?.action, q3Entry?.changes]).toEqual([
    "domain",
    "update",
    { catchall_type: { old: 2, new: 0 }, catchall_address: { old: "ann@q1.example.com", new: "" } },
  ]);
  const q2Entries = (await entries("q2.example.com")).map((e) => [e.resource, e.action, e.names, e.changes]);
  expect(q2Entries.slice(0, 2)).toEqual(
    expect.arrayContaining([
      [
        "domain",
        "update",
        ["q2.example.com"],
        { catchall_type: { old: 3, new: 0 }, catchall_address: { old: "q1.example.com", new: "" } },
      ],
      [
        "account",
        "update",
        ["bob"],
        { forwards: { old_count: 3, new_count: 2, added: [], removed: ["ann@q1.example.com"] } },
      ],
    ]),
  );
}

/** A domain bigger than a batch, and the hosts its mailboxes are recorded for. */
export async function runBigDomainRemoval(): Promise<void> {
  const { getReadyDb } = await import("@/db/client");
  const { dialectOf } = await import("@/db/dialect");
  const { accounts, mailHosts, removedMailboxes } = await import("@/db/schema");
  const { addDomain } = await import("@/lib/server/resources/new-domain");
  const { createAccount } = await import("@/lib/server/resources/accounts");
  const { getDomainOrThrow, removeDomain } = await import("@/lib/server/resources/domains");
  const { asc, eq, like } = await import("drizzle-orm");
  const db = await getReadyDb();
  const recorded = async (domain: string) =>
    (
      await db
        .select({ email: removedMailboxes.email, host: removedMailboxes.host })
        .from(removedMailboxes)
        .where(like(removedMailboxes.email, `%@${domain}`))
    )
      .map((r) => `${r.email} ${r.host ?? "-"}`)
      .sort();

  // A batch of 2 over five accounts: the accounts each transaction found when it began.
  const big = await addDomain(db, "duza.test", "Admin-pass1", {});
  for (const name of ["a1", "a2", "a3", "a4", "a5"]) await createAccount(db, big, name, { password: "Konto-pass1" });
  const names = async () =>
    (
      await db
        .select({ name: accounts.name })
        .from(accounts)
        .where(eq(accounts.domainId, big.id))
        .orderBy(asc(accounts.id))
    ).map((r) => r.name);
  const dialect = dialectOf(db);
  const transaction = dialect.transaction.bind(dialect);
  const seen: string[][] = [];
  const spy = vi.spyOn(dialect, "transaction").mockImplementation(async (d, fn) => {
    seen.push(await names());
    return transaction(d, fn);
  });
  await removeDomain(db, await getDomainOrThrow(db, "duza.test"), 2);
  spy.mockRestore();
  expect(seen).toEqual([
    ["postmaster", "a1", "a2", "a3", "a4", "a5"],
    ["postmaster", "a3", "a4", "a5"],
    ["postmaster", "a5"],
  ]);
  expect(await names()).toEqual([]);
  // On a single mail host (no host registered) each has one record, for whichever host runs `mailserver events`.
  expect(await recorded("duza.test")).toEqual(
    ["a1", "a2", "a3", "a4", "a5", "postmaster"].map((n) => `${n}@duza.test -`),
  );

  // With hosts registered, a mailbox placed on none is served by each and may have a copy on each: a record per host.
  await db.insert(mailHosts).values([
    { name: "imap2", address: "10.0.0.2" },
    { name: "imap3", address: "10.0.0.3" },
  ]);
  const unplaced = await addDomain(db, "bez-hosta.test", "Admin-pass1", {}, undefined, { mailHost: null });
  await createAccount(db, unplaced, "wyjatek", { password: "Konto-pass1" });
  await db.update(accounts).set({ mailHost: "imap3" }).where(eq(accounts.email, "wyjatek@bez-hosta.test"));
  await removeDomain(db, await getDomainOrThrow(db, "bez-hosta.test"));
  expect(await recorded("bez-hosta.test")).toEqual([
    "postmaster@bez-hosta.test imap2",
    "postmaster@bez-hosta.test imap3",
    "wyjatek@bez-hosta.test imap3",
  ]);
}
