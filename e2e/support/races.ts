// The write races (limits and the shared namespace under concurrent writers), run against whichever engine the
// process was configured for (DATABASE_URL or DATABASE_PATH, set before the services are imported): many creates at
// once against a limit, one name taken at once as an account and as an alias, and a catchall set into a domain while
// that domain is removed. Used by lib/server/resources/races*.test.ts and db/pg/races.test.ts.
import { expect } from "vitest";

export async function runRaces(): Promise<void> {
  const { getReadyDb } = await import("@/db/client");
  const { addDomain } = await import("@/lib/server/resources/new-domain");
  const { findDomain, removeDomain, updateDomain } = await import("@/lib/server/resources/domains");
  const { createAccount } = await import("@/lib/server/resources/accounts");
  const { createAlias } = await import("@/lib/server/resources/aliases");
  const { effectiveLimits } = await import("@/lib/server/resources/customers");
  const { nameHolder } = await import("@/lib/server/resources/names");
  const { ApiError } = await import("@/lib/errors/api-error");
  const db = await getReadyDb();

  // 20 concurrent creates against a limit of 10 (the postmaster holds the 11th place) create exactly 10.
  const domain = await addDomain(db, "race.test", "Race-pass1", { accountLimit: 11 });
  const results = await Promise.allSettled(
    Array.from({ length: 20 }, (_, i) => createAccount(db, domain, `u${i}`, { password: "Race-pass1" })),
  );
  const created = results.filter((r) => r.status === "fulfilled").length;
  const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  expect(created).toBe(10);
  expect(refused.map((e) => (e instanceof ApiError ? e.key : String(e)))).toEqual(
    Array(10).fill("accountLimitReached"),
  );
  expect((await effectiveLimits(db, domain)).accountCount).toBe(11);

  // The same name as an account and as an alias at once: one of them gets it, the other is refused (nameTaken).
  const other = await addDomain(db, "names.test", "Race-pass1", {});
  for (let i = 0; i < 10; i++) {
    const name = `x${i}`;
    const pair = await Promise.allSettled([
      createAccount(db, other, name, { password: "Race-pass1" }),
      createAlias(db, other, name, { target: `postmaster@names.test` }),
    ]);
    expect(pair.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failure = pair.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(failure.reason instanceof ApiError ? failure.reason.key : String(failure.reason)).toBe("nameTaken");
    expect(await nameHolder(db, other.id, name)).toBe(pair[0].status === "fulfilled" ? "account" : "alias");
  }

  // A catchall set into a domain while that domain is removed: either the removal sees it and switches it off, or
  // the change finds the domain gone (500.362). Never a catchall left pointing at a name nobody hosts (whoever adds
  // it next would get the mail).
  for (let i = 0; i < 10; i++) {
    const from = await addDomain(db, `from${i}.test`, "Race-pass1", {});
    const into = await addDomain(db, `into${i}.test`, "Race-pass1", {}, from.customerId!);
    const [set] = await Promise.allSettled([
      updateDomain(db, from, { catchall_type: 3, catchall_address: into.name }),
      removeDomain(db, into),
    ]);
    if (set.status === "rejected")
      expect(set.reason instanceof ApiError ? set.reason.key : String(set.reason)).toBe("invalidCatchallAddress");
    expect(await findDomain(db, into.name)).toBeUndefined();
    const after = (await findDomain(db, from.name))!;
    expect([after.catchallType, after.catchallAddress]).toEqual([0, ""]);
  }
}
