// The sending limit's count on PostgreSQL, on a private cluster (e2e/support/pg-cluster.ts): many policy services
// counting one login at once, each statement on its own connection as on several mail hosts, never pass the limit.
import { describe, expect, it, vi } from "vitest";
import { servicesOnPrivatePgCluster } from "@/e2e/support/services-on";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

servicesOnPrivatePgCluster();

describe("PostgreSQL", () => {
  it("40 recipients of one login counted at once by 4 policy services against a limit of 10 accept exactly 10", async () => {
    const { getReadyDb } = await import("@/db/client");
    const { dialectOf } = await import("@/db/dialect");
    const { sql } = await import("drizzle-orm");
    const { addDomain } = await import("@/lib/server/resources/new-domain");
    const { SendLimit } = await import("./send-limit");
    const db = await getReadyDb();
    await addDomain(db, "race.test", "Race-pass1", { sendLimit: 10 });
    const login = "postmaster@race.test";
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
