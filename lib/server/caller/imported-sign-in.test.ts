// The panel's first sign-in of an account brought by `account import`, under a flood, on a real SQLite file: each
// check of the imported hash is counted against the account's lock before it runs, so wrong passwords sent at once
// get no more checks than the lock allows; a sign-in past the process's short line of checks is answered "try again"
// without a check and without counting.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";
import type { ApiError } from "@/lib/errors/api-error";
import { importedCheckPlace, MAX_IMPORTED_CHECKS_IN_LINE } from "@/lib/mailserver/imported-hashes";
import { sha512Crypt } from "@/lib/mailserver/sha512-crypt";
import { getAccountOrThrow } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { addDomain } from "@/lib/server/resources/new-domain";
import { env } from "../env";
import { lockedFor } from "./login-throttle";
import { panelLogin } from "./panel-login";
import { API_HASH_AT_FIRST_SIGN_IN, sha1Hex } from "./password";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

const D = "moved.example";
const PASSWORD = "Old-pass1";
let dir: string;
let db: Db;

beforeAll(async () => {
  // Read once per process (lib/server/env.ts): set before anything reads them.
  Object.assign(process.env, { SCRYPT_COST: "1024", AUTH_MAX_FAILURES: "4", AUTH_ADDRESS_MAX_FAILURES: "100" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "imported-sign-in-"));
  db = openDatabase(path.join(dir, "t.db"));
  await addDomain(db, D, "Admin-pass1", {});
  // A SHA-crypt hash with more rounds than Dovecot's default, as an old system may have stored.
  const hash = `{SHA512-CRYPT}${sha512Crypt(PASSWORD, "saltsalt", 20_000)}`;
  const file = path.join(dir, "accounts.jsonl");
  fs.writeFileSync(
    file,
    ["flooded", "queued"].map((name) => JSON.stringify({ email: `${name}@${D}`, password_hash: hash })).join("\n"),
  );
  expect(await runCommand(db, ["account", "import", file])).toMatch(/^2 created/m);
});

afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const answer = (email: string, password: string, ip: string) =>
  panelLogin(db, { email, digest: sha1Hex(password), password }, ip, null).then(
    () => "signed in",
    (err: ApiError) => err.key,
  );
const stillImported = async (name: string) =>
  (await getAccountOrThrow(db, await getDomainOrThrow(db, D), name)).passwordHash === API_HASH_AT_FIRST_SIGN_IN;

describe("an imported account's first panel sign-in", () => {
  it("wrong passwords sent at once, each with its own digest, from many addresses: no more are checked than the lock allows; the lock then refuses the right one", async () => {
    const max = env().AUTH_MAX_FAILURES;
    const email = `flooded@${D}`;
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => answer(email, "x", `192.0.2.${i + 1}`)));
    // Checked and wrong: badCredentials. Not checked: tooManyFailures, the lock reached by the attempts counted
    // before them, or no place in the line of checks. Before the count came first, all 12 were checked.
    expect(burst.filter((a) => a !== "badCredentials" && a !== "tooManyFailures")).toEqual([]);
    const checked = burst.filter((a) => a === "badCredentials").length;
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(max);
    // One at a time until the lock: the attempts counted add up to the lock's number exactly (one refused for want
    // of a place counted nothing).
    let more = 0;
    for (
      let a = await answer(email, "x", "198.51.100.1");
      a !== "tooManyFailures";
      a = await answer(email, "x", "198.51.100.1")
    ) {
      expect(a).toBe("badCredentials");
      more += 1;
    }
    expect(checked + more).toBe(max);
    expect(await lockedFor(db, email)).toBeGreaterThan(0);
    expect(await answer(email, PASSWORD, "203.0.113.1")).toBe("tooManyFailures");
    expect(await stillImported("flooded")).toBe(true);
  });

  it("past the line of checks a sign-in is answered 'try again' (403.1, retry_after 1), not checked and not counted; with room again the right password signs in", async () => {
    const email = `queued@${D}`;
    const held = Array.from({ length: MAX_IMPORTED_CHECKS_IN_LINE }, () => importedCheckPlace()!);
    expect(importedCheckPlace()).toBeUndefined();
    const refused = await panelLogin(db, { email, digest: sha1Hex(PASSWORD), password: PASSWORD }, "192.0.2.50", null)
      .then(() => undefined)
      .catch((err: ApiError) => err);
    expect(refused).toMatchObject({ key: "tooManyFailures", attributes: { retry_after: 1 } });
    const counted = db.$client.prepare("SELECT * FROM login_throttle WHERE email = ?").all(email);
    expect(counted).toEqual([]);
    expect(await stillImported("queued")).toBe(true);
    for (const place of held) place.release();
    expect(await answer(email, PASSWORD, "192.0.2.50")).toBe("signed in");
    expect(await stillImported("queued")).toBe(false);
  });
});
