// The list-member statements (lib/server/store/list-members.ts) on PostgreSQL: rows as arrays, the member version
// moved by the triggers, pages in (position, address) order, inside a transaction and outside one.
import { describe, expect, it, vi } from "vitest";
import { servicesOnPrivatePgCluster } from "@/e2e/support/services-on";

vi.mock("server-only", () => ({}));

servicesOnPrivatePgCluster();

describe("list-member statements on PostgreSQL", () => {
  it("add, read in order, page and remove members; the version moves with each change", async () => {
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

    const added = await withTransaction(db, async (tx) => {
      const s = listMemberStatements(tx);
      let n = 0;
      for (const [address, position] of [
        ["c@adr.pl", 2],
        ["a@adr.pl", 1],
        ["b@adr.pl", 2],
      ] as const)
        n += await s.add(list.id, "subscriber", address, position);
      n += await s.add(list.id, "moderator", "m@adr.pl", 1);
      return n;
    });
    expect(added).toBe(4);
    const version = await members.version(list.id);
    expect(typeof version).toBe("number");
    expect(version).toBeGreaterThan(before);

    expect(await members.ordered(list.id, "moderator")).toEqual(["m@adr.pl"]);
    expect((await members.current(list.id, "subscriber")).sort()).toEqual([
      ["a@adr.pl", 1],
      ["b@adr.pl", 2],
      ["c@adr.pl", 2],
    ]);
    expect(await members.subscriberPage(list.id, 1, "a@adr.pl", 10)).toEqual([
      ["b@adr.pl", 2],
      ["c@adr.pl", 2],
    ]);
    expect(await members.subscriberPage(list.id, 0, "", 1)).toEqual([["a@adr.pl", 1]]);

    const removed = await withTransaction(db, (tx) =>
      listMemberStatements(tx).remove(list.id, "subscriber", "b@adr.pl"),
    );
    expect(removed).toBe(1);
    expect(await members.remove(list.id, "subscriber", "nobody@adr.pl")).toBe(0);
    expect((await members.version(list.id))!).toBeGreaterThan(version!);
    expect((await members.ordered(list.id, "subscriber")).slice(1)).toEqual(["c@adr.pl"]);
    expect(await members.version(list.id + 1000)).toBeUndefined();
  });
});
