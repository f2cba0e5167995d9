// How many statements a GET of one account, and a list page of a small domain, send to PostgreSQL once the process is
// warm: the route handlers themselves, called as Next calls them, with every query of the pool's connections counted.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";

vi.mock("server-only", () => ({}));

let cluster: PgCluster;
const sent: string[] = [];
// Kept to be called with each client as `this` (and put back after the tests).
// eslint-disable-next-line @typescript-eslint/unbound-method
const query = pg.Client.prototype.query;

beforeAll(async () => {
  cluster = await startPgCluster();
  // Before any module reads it: db/schema.ts and db/client.ts pick PostgreSQL from it.
  process.env.DATABASE_URL = cluster.url;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; name?: string };
    sent.push(typeof first === "string" ? first : (first.text ?? first.name ?? "?"));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
}, 120_000);

afterAll(async () => {
  pg.Client.prototype.query = query;
  const { closeDb } = await import("@/db/client");
  await closeDb();
  await cluster?.stop();
  delete process.env.DATABASE_URL;
});

describe("GET one account on PostgreSQL", () => {
  it("is one round trip once the caller is verified, and still obeys a lock set elsewhere", async () => {
    const { getReadyDb } = await import("@/db/client");
    const { addDomain } = await import("@/lib/server/resources/new-domain");
    const { createAccount } = await import("@/lib/server/resources/accounts");
    const { createAlias } = await import("@/lib/server/resources/aliases");
    const { dbGeneration } = await import("@/lib/server/store/db-generation");
    const { sha1Hex } = await import("@/lib/server/caller/password");
    const { PEER_ADDRESS_HEADER } = await import("@/lib/server/http/client-address");
    const { GET } = await import("@/app/api/v1/emails/[domain]/[name]/route");
    const db = await getReadyDb();
    const domain = await addDomain(db, "trips.example.com", "Postmaster1", {});
    await createAccount(db, domain, "jan", { password: "Jan-pass1", description: "Jan" });
    await createAlias(db, domain, "kontakt", { target: "jan@trips.example.com" });
    // Reuse starts once the listening connection is up (an event: it answers LISTEN).
    await vi.waitFor(() => expect(dbGeneration(db)).not.toBeNull(), { timeout: 10_000, interval: 20 });

    const basic = `Basic ${Buffer.from(`postmaster@trips.example.com:${sha1Hex("Postmaster1")}`).toString("base64")}`;
    const send = () =>
      GET(
        new Request("http://127.0.0.1/api/v1/emails/trips.example.com/jan", {
          headers: { authorization: basic, [PEER_ADDRESS_HEADER]: "127.0.0.1" },
        }),
        {
          params: Promise.resolve({ domain: "trips.example.com", name: "jan" }),
        },
      );
    const get = async () => {
      const res = await send();
      expect(res.status).toBe(200);
      return (await res.json()) as { name: string; aliases: string[] };
    };
    await get(); // verifies the password, records the login, fills the caches
    // Warm once the announcements of those writes have arrived (on a busy host they may come after the next GET).
    await vi.waitFor(
      async () => {
        sent.length = 0;
        const body = await get();
        expect(body.name).toBe("jan");
        expect(body.aliases).toEqual(["kontakt@trips.example.com"]);
        expect(sent).toHaveLength(1);
      },
      { timeout: 10_000, interval: 50 },
    );

    // The throttle rows are reused too, until a change is announced: a lock written by another process is obeyed.
    const other = new pg.Client({ connectionString: cluster.url });
    await other.connect();
    try {
      await other.query(
        "INSERT INTO login_throttle (client_ip, email, failures, lockouts, locked_until, last_failure) VALUES ('*', $1, 0, 1, $2, $3)",
        ["postmaster@trips.example.com", Date.now() + 600_000, Date.now()],
      );
      await vi.waitFor(async () => expect(((await (await send()).json()) as { code: string }).code).toBe("403.1"), {
        timeout: 10_000,
        interval: 20,
      });
      await other.query("DELETE FROM login_throttle");
      await vi.waitFor(async () => expect((await send()).status).toBe(200), { timeout: 10_000, interval: 20 });
    } finally {
      await other.end();
    }
  }, 120_000);
});

describe("the list page of a small domain on PostgreSQL", () => {
  it("is one round trip once the caller is verified, and answers what the domain holds now", async () => {
    const { getReadyDb } = await import("@/db/client");
    const { addDomain } = await import("@/lib/server/resources/new-domain");
    const { createAccount, prehashPassword } = await import("@/lib/server/resources/accounts");
    const { dbGeneration } = await import("@/lib/server/store/db-generation");
    const { sha1Hex } = await import("@/lib/server/caller/password");
    const { PEER_ADDRESS_HEADER } = await import("@/lib/server/http/client-address");
    const { GET } = await import("@/app/api/v1/emails/[domain]/route");
    const db = await getReadyDb();
    const domain = await addDomain(db, "small.example.com", "Postmaster1", {});
    // One password hashed once: the accounts' passwords play no part here.
    const body = { password: "Jan-pass1" };
    const hashed = await prehashPassword(body);
    for (let i = 1; i < 20; i++) await createAccount(db, domain, i % 4 === 0 ? `kowal${i}` : `user${i}`, body, hashed);
    await vi.waitFor(() => expect(dbGeneration(db)).not.toBeNull(), { timeout: 10_000, interval: 20 });

    const basic = `Basic ${Buffer.from(`postmaster@small.example.com:${sha1Hex("Postmaster1")}`).toString("base64")}`;
    const list = async (query: string) => {
      const res = await GET(
        new Request(`http://127.0.0.1/api/v1/emails/small.example.com${query}`, {
          headers: { authorization: basic, [PEER_ADDRESS_HEADER]: "127.0.0.1" },
        }),
        { params: Promise.resolve({ domain: "small.example.com" }) },
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { result_info: { total: number; fetched: number }; result_data: object };
      return { total: body.result_info.total, names: Object.keys(body.result_data) };
    };
    await list(""); // verifies the password, records the login, fills the caches
    const kowal = ["kowal12", "kowal16", "kowal4", "kowal8"];
    const users = [9, 7, 6, 5, 3, 2, 19, 18, 17, 15, 14, 13, 11, 10, 1].map((i) => `user${i}`);
    const desc = [...users, "postmaster", ...[...kowal].reverse()];
    const cases: [string, { total: number; names: string[] }][] = [
      ["?search=kowal&sort=name", { total: 4, names: kowal }],
      ["?sort=name&sort_dir=desc&size=20", { total: 20, names: desc }],
      ["", { total: 20, names: expect.arrayContaining(["postmaster", ...kowal]) as string[] }],
      ["?search=kowal&page=1", { total: 4, names: [] }],
      ["?search=nobody", { total: 0, names: [] }],
    ];
    for (const [query, expected] of cases) {
      await vi.waitFor(
        async () => {
          sent.length = 0;
          expect(await list(query)).toEqual(expected);
          expect(sent, sent.join("\n")).toHaveLength(1);
        },
        { timeout: 10_000, interval: 50 },
      );
    }

    // Deleted by another process: the next page and its total follow at once (they are not reused).
    const other = new pg.Client({ connectionString: cluster.url });
    await other.connect();
    try {
      await other.query("DELETE FROM accounts WHERE email = 'kowal4@small.example.com'");
      expect(await list("?search=kowal&sort=name")).toEqual({ total: 3, names: ["kowal12", "kowal16", "kowal8"] });
    } finally {
      await other.end();
    }
  }, 120_000);
});
