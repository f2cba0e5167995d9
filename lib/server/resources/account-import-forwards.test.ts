// `account import` (createAccounts) checks a new account's forwards as a single POST does: a forward that leads back
// to the account through an alias left behind in another domain (contract §9 keeps those when an account goes) is
// refused with 500.313, while a forward to another server's address still goes in with the bulk insert.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it, vi } from "vitest";
import { openDatabase } from "@/db/client";
import { mailPasswordHash } from "@/lib/mailserver/sha512-crypt";
import { API_HASH_AT_FIRST_SIGN_IN } from "@/lib/server/caller/password";
import { createAccount, createAccounts, deleteAccounts } from "./accounts";
import { createAlias } from "./aliases";
import { addDomain } from "./new-domain";

vi.mock("server-only", () => ({}));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-import-forwards-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("an imported account's forward back to itself through another domain's alias is refused; other lines go in", async () => {
  process.env.SCRYPT_COST = "1024";
  const db = openDatabase(path.join(dir, "mail.db"));
  const d = await addDomain(db, "d.test", "Admin-pass1", {});
  const e = await addDomain(db, "e.test", "Admin-pass1", {}, d.customerId ?? undefined);
  await createAccount(db, d, "ewa", { password: "Ewa-pass12" });
  await createAlias(db, e, "jn", { target: "ewa@d.test" });
  await deleteAccounts(db, d, ["ewa"]);

  const hashes = { hash: API_HASH_AT_FIRST_SIGN_IN, mailHash: mailPasswordHash("Konto-pass12") };
  const outcomes = await createAccounts(db, d, [
    { name: "ewa", body: { forwards: ["jn@e.test"] }, hashes },
    { name: "ola", body: { forwards: ["ola@daleko.test"] }, hashes },
  ]);
  // Before, created: only lines with aliases were checked, and mail to ewa then went round through jn.
  expect(outcomes.map((o) => [o.name, o.state])).toEqual([
    ["ewa", "failed"],
    ["ola", "created"],
  ]);
  const failed = outcomes[0]!;
  expect(failed.state === "failed" && [failed.error.key, failed.error.attributes]).toEqual([
    "invalidForward",
    { invalid: ["jn@e.test"] },
  ]);
  db.$client.close();
});
