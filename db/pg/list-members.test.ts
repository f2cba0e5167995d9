// The list-member statements (lib/server/store/list-members.ts) on PostgreSQL: rows as arrays, the member version
// moved by the triggers, pages in (position, address) order, inside a transaction and outside one.
import { describe, expect, it, vi } from "vitest";
import { servicesOnPrivatePgCluster } from "@/e2e/support/services-on";

vi.mock("server-only", () => ({}));

servicesOnPrivatePgCluster();

describe("list-member statements on PostgreSQL", () => {
  it("add, read in order, page and remove members, in batches; the version moves with each change", async () => {
    const { getReadyDb } = await import("@/db/client");
    const { withTransaction } = await import("@/db/transaction");
    const { addDomain } = await import("@/lib/server/resources/new-domain");
    const { createMailingList, getListOrThrow } = await import("@/lib/server/resources/mailing-lists");
    const { listMemberStatements } = await import("@/lib/server/store/list-members");
    const db = await getReadyDb();
    const domain = await addDomain(db, "members.test", "Members-pass1", {});
    await createMailingList(db, domain, "team", {});
    const list = await getListOrThrow(db, domain, "team");
    const members = listMemberStatements(db);
    const before = (await members.version(list.id)) ?? 0;

    await withTransaction(db, async (tx) => {
      const s = listMemberStatements(tx);
      await s.addAll(list.id, "subscriber", ["a@adr.pl", "b@adr.pl", "c@adr.pl"], 1);
      await s.addAll(list.id, "moderator", ["m@adr.pl"], 1);
      await s.addAll(list.id, "moderator", [], 2);
    });
    const version = await members.version(list.id);
    expect(typeof version).toBe("number");
    expect(version).toBeGreaterThan(before);

    expect(await members.ordered(list.id, "moderator")).toEqual(["m@adr.pl"]);
    expect((await members.current(list.id, "subscriber")).sort()).toEqual([
      ["a@adr.pl", 1],
      ["b@adr.pl", 2],
      ["c@adr.pl", 3],
    ]);
    expect(await members.subscriberPage(list.id, 1, "a@adr.pl", 10)).toEqual([
      ["b@adr.pl", 2],
      ["c@adr.pl", 3],
    ]);
    expect(await members.subscriberPage(list.id, 0, "", 1)).toEqual([["a@adr.pl", 1]]);

    await withTransaction(db, (tx) => listMemberStatements(tx).removeAll(list.id, "subscriber", ["b@adr.pl"]));
    await members.removeAll(list.id, "subscriber", ["nobody@adr.pl"]);
    expect((await members.version(list.id))!).toBeGreaterThan(version!);
    expect(await members.ordered(list.id, "subscriber")).toEqual(["a@adr.pl", "c@adr.pl"]);

    // More than one statement's batch: positions run on across batches, and a removal spans batches too.
    const many = Array.from({ length: 12_001 }, (_, i) => `u${i}@adr.pl`);
    await withTransaction(db, (tx) => listMemberStatements(tx).addAll(list.id, "subscriber", many, 10));
    const all = await members.current(list.id, "subscriber");
    expect(all.length).toBe(12_003);
    expect(new Map(all).get("u0@adr.pl")).toBe(10);
    expect(new Map(all).get("u12000@adr.pl")).toBe(12_010);
    // As a list's PUT does before a removal this big (prepareRemovals): on statistics that still count the list as
    // nearly empty the removal compares every address with every member.
    const { dialectOf } = await import("@/db/dialect");
    await dialectOf(db).analyze(db, "list_members");
    await members.removeAll(list.id, "subscriber", many);
    expect(await members.ordered(list.id, "subscriber")).toEqual(["a@adr.pl", "c@adr.pl"]);
    expect(await members.version(list.id + 1000)).toBeUndefined();
  });

  it("replacing the members of a list filled moments ago is not slower than filling it (the planner's statistics refreshed first)", async () => {
    const { getReadyDb } = await import("@/db/client");
    const { addDomain } = await import("@/lib/server/resources/new-domain");
    const { createMailingList, updateMailingLists } = await import("@/lib/server/resources/mailing-lists");
    const db = await getReadyDb();
    const domain = await addDomain(db, "fresh-list.test", "Members-pass1", {});
    await createMailingList(db, domain, "nowa", {});
    const addresses = (prefix: string) => Array.from({ length: 30_000 }, (_, i) => `${prefix}${i}@adr.pl`);
    let started = performance.now();
    await updateMailingLists(db, domain, ["nowa"], { accounts: addresses("a") });
    const fill = performance.now() - started;
    // Before, PostgreSQL still counted the list as empty, and compared each of the 30,000 removed addresses with
    // every member (a nested loop): 10 to 20 times the fill's time (95 s for 50,000 on a loaded host).
    started = performance.now();
    const [updated] = await updateMailingLists(db, domain, ["nowa"], { accounts: addresses("b") });
    const replace = performance.now() - started;
    expect((await updated!.record()).accounts).toEqual(addresses("b"));
    expect(replace).toBeLessThan(4 * fill);
  }, 300_000);
});
