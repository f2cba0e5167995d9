// Guesses sent all at once, on a real SQLite file: each digest checked is counted against the account's lock before
// its check, so a burst gets no more checks than the lock allows, and the right password sent at the end of the
// burst finds the lock. Before, every guess of the burst passed the lock (read when the request started) and was
// checked, and the right one signed in.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import type { ApiError } from "@/lib/errors/api-error";
import { createAccount } from "@/lib/server/resources/accounts";
import { addDomain } from "@/lib/server/resources/new-domain";
import { env } from "../env";
import { authenticate } from "./auth";
import { lockedFor } from "./login-throttle";
import { proveCurrentPassword } from "./own-password";
import { panelLogin } from "./panel-login";
import { sha1Hex } from "./password";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

const D = "burst.example";
const PASSWORD = "Right-pass1";
const BURST = 30;
let dir: string;
let db: Db;

beforeAll(async () => {
  // Read once per process (lib/server/env.ts): set before anything reads them.
  Object.assign(process.env, { SCRYPT_COST: "1024", AUTH_MAX_FAILURES: "4", AUTH_ADDRESS_MAX_FAILURES: "1000" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "concurrent-guesses-"));
  db = openDatabase(path.join(dir, "t.db"));
  const domain = await addDomain(db, D, "Admin-pass1", {});
  for (const name of ["api", "panel", "change", "known", "parallel"])
    await createAccount(db, domain, name, { password: PASSWORD });
});

afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Attempt = (password: string, ip: string) => Promise<unknown>;
const outcome = (attempt: Promise<unknown>) =>
  attempt.then(
    (r) => (r === "wrongCurrent" ? "badCredentials" : "signed in"),
    (err: ApiError) => err.key,
  );

/** BURST wrong guesses and then the right password, all sent before any is answered, each from its own address. */
async function burst(attempt: Attempt) {
  const all = await Promise.all(
    [...Array.from({ length: BURST }, (_, i) => `Wrong-${i}1`), PASSWORD].map((p, i) =>
      outcome(attempt(p, `192.0.2.${i + 1}`)),
    ),
  );
  return { guesses: all.slice(0, BURST), right: all[BURST] };
}

describe("guesses sent at once", () => {
  const cases: [string, string, Attempt][] = [
    ["/api/v1 (Basic)", "api", (p, ip) => authenticate(db, { email: `api@${D}`, digest: sha1Hex(p) }, ip)],
    [
      "the panel's sign-in",
      "panel",
      (p, ip) => panelLogin(db, { email: `panel@${D}`, digest: sha1Hex(p), password: p }, ip, null),
    ],
    ["the panel's password change", "change", (p, ip) => proveCurrentPassword(db, `change@${D}`, ip, p)],
  ];
  it.each(cases)(
    "%s: no more are checked than the lock allows, and the right password after them is refused",
    async (_, name, attempt) => {
      const { guesses, right } = await burst(attempt);
      expect(guesses.filter((a) => a !== "badCredentials" && a !== "tooManyFailures")).toEqual([]);
      const checked = guesses.filter((a) => a === "badCredentials").length;
      expect(checked).toBeGreaterThanOrEqual(1);
      expect(checked).toBeLessThanOrEqual(env().AUTH_MAX_FAILURES);
      expect(right).toBe("tooManyFailures");
      expect(await lockedFor(db, `${name}@${D}`)).toBeGreaterThan(0);
    },
  );

  it("the right password sent on many connections at once, nothing cached yet, signs in on every one", async () => {
    // One check, the others wait for it: before, each counted as a guess and those past the lock got 403.1.
    const email = `parallel@${D}`;
    const all = await Promise.all(
      Array.from({ length: 3 * env().AUTH_MAX_FAILURES }, () =>
        outcome(authenticate(db, { email, digest: sha1Hex(PASSWORD) }, "198.51.100.2")),
      ),
    );
    expect(all).toEqual(all.map(() => "signed in"));
    expect(await lockedFor(db, email)).toBe(0);
  });

  it("the right password alone signs in and leaves nothing counted (the reservation is taken back)", async () => {
    const email = `known@${D}`;
    expect(await outcome(authenticate(db, { email, digest: sha1Hex(PASSWORD) }, "198.51.100.1"))).toBe("signed in");
    expect(db.$client.prepare("SELECT * FROM login_throttle WHERE email = ?").all(email)).toEqual([]);
  });
});
