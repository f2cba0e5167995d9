// Dovecot's auth policy requests (lib/mailserver/last-login.ts) name an IPv4 client IPv4-mapped when Dovecot listens
// on [::]: the failures count against the same address budget as the API's and the panel's, and last_auth_ip records
// the IPv4 address. Before, ::ffff:198.51.100.1 and ::ffff:c633:6401 were two more budgets beside 198.51.100.1.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { accounts, loginThrottle } from "@/db/schema";
import { createAccount } from "@/lib/server/resources/accounts";
import { addDomain } from "@/lib/server/resources/new-domain";
import { mailAuthPolicy } from "./last-login";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

const D = "mapped.example";
let dir: string;
let db: Db;

beforeAll(async () => {
  // Read once per process (lib/server/env.ts): set before anything reads them.
  Object.assign(process.env, { SCRYPT_COST: "1024", AUTH_MAX_FAILURES: "100", AUTH_ADDRESS_MAX_FAILURES: "3" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "last-login-"));
  db = openDatabase(path.join(dir, "t.db"));
  const domain = await addDomain(db, D, "Admin-pass1", {});
  await createAccount(db, domain, "user", { password: "User-pass1" });
});

afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("records an IPv4-mapped client's login as its IPv4 address", async () => {
  const answer = await mailAuthPolicy(db, "report", {
    login: `user@${D}`,
    remote: "::ffff:c000:0201",
    success: true,
  });
  expect(answer.status).toBe(0);
  const [row] = await db
    .select({ ip: accounts.lastAuthIp })
    .from(accounts)
    .where(eq(accounts.email, `user@${D}`));
  expect(row?.ip).toBe("192.0.2.1");
});

it("counts failures from every form of one IPv4 address against one budget", async () => {
  const forms = ["::ffff:198.51.100.1", "::ffff:c633:6401", "198.51.100.1"];
  for (const [i, remote] of forms.entries())
    await mailAuthPolicy(db, "report", { login: `nobody${i}@${D}`, remote, success: false });
  // The per-address rows (email ''): one, for the IPv4 address, its budget of 3 spent (locked: failures slowed).
  const rows = await db
    .select({ ip: loginThrottle.clientIp, lockedUntil: loginThrottle.lockedUntil })
    .from(loginThrottle)
    .where(eq(loginThrottle.email, ""));
  expect(rows.map((r) => r.ip)).toEqual(["198.51.100.1"]);
  expect(rows[0]!.lockedUntil).toBeGreaterThan(Date.now());
});
