// On PostgreSQL a process reuses the verified caller and the domain row between requests (db/pg/change-listener.ts):
// a change committed by another process (here a second pool, writing as the CLI or another host would) must take
// effect on the first request after its announcement arrives: a changed password, a blocked account, a deleted domain.
// (No request waits on the database before it reads its caches, so a request racing the announcement may still see
// the old rows, as one that read just before the commit would.)
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { servicesOnPrivatePgCluster } from "@/e2e/support/services-on";

vi.mock("server-only", () => ({}));

servicesOnPrivatePgCluster();

let other: pg.Pool;
beforeAll(() => {
  other = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  // pool.end() resolves before its clients' sockets have closed, and the cluster stops right after: a client still
  // closing then gets the server's FATAL 57P01, which an 'error' listener must take (it was an uncaught error).
  other.on("error", () => {});
});
afterAll(async () => {
  await other.end();
});

describe("PostgreSQL caches follow other processes' commits", () => {
  it("a changed password, a blocked account and a deleted domain take effect once announced", async () => {
    const { getReadyDb } = await import("@/db/client");
    const { dbGeneration } = await import("@/lib/server/store/db-generation");
    const { addDomain } = await import("@/lib/server/resources/new-domain");
    const { createAccount } = await import("@/lib/server/resources/accounts");
    const { findDomain } = await import("@/lib/server/resources/domains");
    const { authenticate } = await import("@/lib/server/caller/auth");
    const { hashPassword, sha1Hex } = await import("@/lib/server/caller/password");
    const db = await getReadyDb();
    const domain = await addDomain(db, "stamp.test", "Stamp-pass1", {});
    await createAccount(db, domain, "jan", { password: "Stamp-pass1" });
    await createAccount(db, domain, "ewa", { password: "Stamp-pass1" });
    // Reuse starts once the listening connection is up.
    await vi.waitFor(() => expect(dbGeneration(db)).not.toBeNull());

    // Announcements already on their way must not pass for the next write's: a test connection listens too, and an
    // announcement of its own, once heard there, has been sent after every earlier one.
    const heard: string[] = [];
    const listening = await other.connect();
    listening.on("notification", (n) => heard.push(n.payload ?? ""));
    await listening.query("LISTEN data_changed");
    let tags = 0;
    const settled = async () => {
      const tag = `settled ${++tags}`;
      const before = dbGeneration(db);
      await other.query(`NOTIFY data_changed, '${tag}'`);
      await vi.waitFor(() => {
        expect(heard).toContain(tag);
        expect(dbGeneration(db)).not.toBe(before);
      });
    };
    /** Another process's write, and the moment its announcement has reached this one. */
    const elsewhere = async (text: string, values: unknown[] = []) => {
      await settled();
      const before = dbGeneration(db);
      await other.query(text, values);
      await vi.waitFor(() => expect(dbGeneration(db)).not.toBe(before));
    };
    const login = (email: string, password: string) =>
      authenticate(db, { email, digest: sha1Hex(password) }, "192.0.2.1");
    await expect(login("jan@stamp.test", "Stamp-pass1")).resolves.toMatchObject({ domain: "stamp.test" });
    expect((await findDomain(db, "stamp.test"))?.name).toBe("stamp.test");

    // The rows are reused: a change that is not announced (triggers off) is not seen while the stamp stays where it
    // was. The sign-ins' own earlier writes are announced too, and their announcements may still be on their way (the
    // stamp then moves when they arrive, and the rows are read again): so the check is made in a round in which
    // nothing arrived between the sign-in that kept the rows and the one that reused them.
    // (An account's update also updates its domain's counters, so every announcing trigger is turned off.)
    const notifying = async (on: boolean) => {
      for (const [table, trigger] of [
        ["accounts", "accounts_notify_change"],
        ["accounts", "accounts_notify_update"],
        ["domains", "domains_notify_change"],
      ])
        await other.query(`ALTER TABLE ${table} ${on ? "ENABLE" : "DISABLE"} TRIGGER ${trigger}`);
    };
    let reused = false;
    for (let round = 0; round < 20 && !reused; round++) {
      await login("jan@stamp.test", "Stamp-pass1");
      const kept = dbGeneration(db);
      await notifying(false);
      await other.query("UPDATE accounts SET description = $1 WHERE email = 'jan@stamp.test'", [`unseen ${round}`]);
      await notifying(true);
      const seen = (await login("jan@stamp.test", "Stamp-pass1")).account.description;
      if (dbGeneration(db) !== kept) continue;
      expect(seen).not.toBe(`unseen ${round}`);
      reused = true;
    }
    expect(reused).toBe(true);

    // A password changed by another process: the old one is refused, the new one accepted, once it is announced.
    await elsewhere("UPDATE accounts SET password_hash = $1 WHERE email = 'jan@stamp.test'", [
      hashPassword("Stamp-pass2"),
    ]);
    await expect(login("jan@stamp.test", "Stamp-pass1")).rejects.toMatchObject({ key: "badCredentials" });
    await expect(login("jan@stamp.test", "Stamp-pass2")).resolves.toMatchObject({ domain: "stamp.test" });

    // Blocked by another process.
    await expect(login("ewa@stamp.test", "Stamp-pass1")).resolves.toMatchObject({ domain: "stamp.test" });
    await elsewhere("UPDATE accounts SET blocked = 1 WHERE email = 'ewa@stamp.test'");
    await expect(login("ewa@stamp.test", "Stamp-pass1")).rejects.toMatchObject({ key: "badCredentials" });

    // The domain deleted by another process: gone for the domain lookup and for sign-in.
    await expect(login("jan@stamp.test", "Stamp-pass2")).resolves.toMatchObject({ domain: "stamp.test" });
    await elsewhere("DELETE FROM domains WHERE name = 'stamp.test'");
    expect(await findDomain(db, "stamp.test")).toBeUndefined();
    await expect(login("jan@stamp.test", "Stamp-pass2")).rejects.toMatchObject({ key: "badCredentials" });
    listening.release();
  });
});
