// The sending limit's count on PostgreSQL, on a private cluster (e2e/support/pg-cluster.ts): many policy services
// counting one login at once, each statement on its own connection as on several mail hosts, never pass the limit.
import { describe, expect, it, vi } from "vitest";
import { servicesOnPrivatePgCluster } from "@/e2e/support/services-on";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

servicesOnPrivatePgCluster();

/** The modules a case needs (imported once the cluster's DATABASE_URL is set) and a domain with its send_limit. */
async function domainWithLimit(name: string, sendLimit: number) {
  const { getReadyDb } = await import("@/db/client");
  const { dialectOf } = await import("@/db/dialect");
  const { sql } = await import("drizzle-orm");
  const { addDomain } = await import("@/lib/server/resources/new-domain");
  const { SendLimit } = await import("./send-limit");
  const db = await getReadyDb();
  await addDomain(db, name, "Limit-pass1", { sendLimit });
  return { db, dialectOf, sql, SendLimit, login: `postmaster@${name}` };
}

describe("PostgreSQL", () => {
  it("40 recipients of one login counted at once by 4 policy services against a limit of 10 accept exactly 10", async () => {
    const { db, dialectOf, sql, SendLimit, login } = await domainWithLimit("race.test", 10);
    const services = Array.from({ length: 4 }, () => new SendLimit(db));
    const now = 1_800_000_000_000;
    // A first count of the minute before, so that both the earlier minutes and the current one's row are read.
    expect(await services[0]!.count(login, now - 60_000)).toEqual({ allowed: true });
    const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => services[i % 4]!.count(login, now)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(9);
    expect(decisions.filter((d) => !d.allowed)).toEqual(Array(31).fill({ allowed: false, limit: 10 }));
    const [row] = await dialectOf(db).all<{ n: number }>(
      db,
      sql`SELECT sum(recipients)::integer AS n FROM send_counts WHERE login = ${login}`,
    );
    expect(row!.n).toBe(10);
  });
});

describe("PostgreSQL, across a minute's end", () => {
  it("a count still in flight in one minute is seen by a count of the next: the hour never passes the limit", async () => {
    const { db, dialectOf, sql, SendLimit, login } = await domainWithLimit("minute.test", 3);
    const m = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
    const limit = new SendLimit(db);
    // Two of the hour's three, a minute before.
    for (let i = 0; i < 2; i++) expect(await limit.count(login, m - 60_000)).toEqual({ allowed: true });
    // The third, counted by one mail host in the last moment of minute m and not yet committed (held open here)...
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let counted!: () => void;
    const inFlight = new Promise<void>((resolve) => (counted = resolve));
    const first = dialectOf(db).transaction(db, async (tx) => {
      const decision = await new SendLimit(tx).count(login, m + 59_999);
      counted();
      await held;
      return decision;
    });
    await inFlight;
    // ...while another host counts a fourth in the first moment of minute m + 1.
    let settled = false;
    const second = limit.count(login, m + 60_000).finally(() => (settled = true));
    const waiting = async () =>
      (
        await dialectOf(db).all<{ n: number }>(
          db,
          sql`SELECT count(*)::integer AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`,
        )
      )[0]!.n;
    // The second either has answered already or waits for the first's lock.
    await vi.waitFor(async () => expect(settled || (await waiting()) > 0).toBe(true), { timeout: 10_000 });
    release();
    expect(await first).toEqual({ allowed: true });
    expect(await second).toEqual({ allowed: false, limit: 3 });
    const [row] = await dialectOf(db).all<{ n: number }>(
      db,
      sql`SELECT sum(recipients)::integer AS n FROM send_counts WHERE login = ${login}`,
    );
    expect(row!.n).toBe(3);
  });
});
