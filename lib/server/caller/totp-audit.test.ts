// Two-step sign-in's rules and the audit log, on a real SQLite file: the operator's requirement, set-up with the
// first code, no code accepted twice, recovery codes spent once, no switching off while required; and the audit
// entries those and an account's changes leave (one per change, passwords never in them, CLI as the actor).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { addDomain } from "@/lib/server/resources/new-domain";
import { createAccount, getAccountOrThrow, updateAccounts } from "../resources/accounts";
import { auditSince, listAudit, trimAudit, withAuditActor } from "../resources/audit";
import type { Principal } from "./auth";
import { getDomainOrThrow } from "../resources/domains";
import {
  beginSetup,
  confirmSetup,
  disable,
  secondStepNeeded,
  setRequire2fa,
  TwoFactorError,
  twoFactorState,
  verifySecondFactor,
} from "./totp";
import { base32Decode, totpAt } from "./totp-code";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

let dir: string;
let db: Db;
const D = "example.com";

beforeAll(async () => {
  Object.assign(process.env, {
    SCRYPT_COST: "1024",
    TOTP_ENCRYPTION_KEY: "0f".repeat(32),
    SMS_SECRET_KEY: "1e".repeat(32),
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "totp-audit-"));
  db = openDatabase(path.join(dir, "t.db"));
  await addDomain(db, D, "S3cret!pass", {});
});
afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const postmaster = async () => getAccountOrThrow(db, await getDomainOrThrow(db, D), "postmaster");
const reason = async (fn: () => Promise<unknown>) => {
  try {
    await fn();
  } catch (err) {
    return err instanceof TwoFactorError ? err.reason : String(err);
  }
  return "accepted";
};

describe("two-step sign-in", () => {
  it("required by the operator: set-up first, then codes; never the same code twice; recovery codes once", async () => {
    expect(await secondStepNeeded(db, await postmaster())).toBe("none");
    await setRequire2fa(db, (await postmaster()).domainId, D, true);
    expect(await secondStepNeeded(db, await postmaster())).toBe("setup");

    const t0 = Date.UTC(2026, 10, 25, 12, 0, 0);
    const setup = await beginSetup(db, await postmaster());
    expect(setup.qrSvg).toMatch(/^<svg[^>]*>.*<path/s);
    expect(setup.uri).toContain(`secret=${setup.secret}`);
    const stored = db.$client.prepare("SELECT secret FROM account_totp").pluck().get() as string;
    expect(stored).not.toContain(setup.secret);
    const key = base32Decode(setup.secret);
    expect(
      await reason(async () =>
        confirmSetup(db, await postmaster(), "000000" === totpAt(key, t0) ? "111111" : "000000", t0),
      ),
    ).toBe("badSetupCode");
    const codes = await confirmSetup(db, await postmaster(), totpAt(key, t0), t0);
    expect(codes).toHaveLength(10);
    expect(await secondStepNeeded(db, await postmaster())).toBe("code");

    // The set-up's code, or any earlier one, is spent ("already used", not "wrong"); the next step's code works once.
    expect(await reason(async () => verifySecondFactor(db, await postmaster(), totpAt(key, t0), t0))).toBe("codeUsed");
    expect(await verifySecondFactor(db, await postmaster(), totpAt(key, t0 + 30_000), t0 + 30_000)).toBe("totp");
    expect(
      await reason(async () => verifySecondFactor(db, await postmaster(), totpAt(key, t0 + 30_000), t0 + 30_000)),
    ).toBe("codeUsed");
    expect(await verifySecondFactor(db, await postmaster(), codes[0]!.toUpperCase(), t0)).toBe("recovery");
    expect(await reason(async () => verifySecondFactor(db, await postmaster(), codes[0]!, t0))).toBe("badCode");
    expect(await twoFactorState(db, await postmaster())).toMatchObject({
      enabled: true,
      required: true,
      recoveryLeft: 9,
    });

    expect(await reason(async () => disable(db, await postmaster(), codes[1]!, "127.0.0.1", t0))).toBe("required");
    await setRequire2fa(db, (await postmaster()).domainId, D, false);
    await disable(db, await postmaster(), codes[1]!, "127.0.0.1", t0);
    expect(await twoFactorState(db, await postmaster())).toMatchObject({ enabled: false, recoveryLeft: 0 });
  });
});

describe("audit log", () => {
  it("records who changed what with old and new values, one entry per change, never a password", async () => {
    // The entries after the newest one so far: the test above may have written one in this very millisecond.
    const lastId = (await auditSince(db, 0))[0]?.id ?? 0;
    const domain = await getDomainOrThrow(db, D);
    await withAuditActor({ actor: `postmaster@${D}`, clientIp: "192.0.2.7", via: "api" }, async () => {
      await createAccount(db, domain, "ala", { password: "Tajne-haslo1", capacity: 10, sms_password_1: "SmsTajne1" });
      await createAccount(db, domain, "ola", { password: "Tajne-haslo2", capacity: 10 });
    });
    const principal = { account: await postmaster(), domain: D, isPostmaster: true } as unknown as Principal;
    await withAuditActor({ actor: `postmaster@${D}`, clientIp: "192.0.2.8", via: "panel" }, async () => {
      await updateAccounts(db, principal, domain, ["ala", "ola"], { blocked: 1 });
      // Unchanged: no entry.
      await updateAccounts(db, principal, domain, ["ala", "ola"], { blocked: 1 });
      await updateAccounts(db, principal, domain, ["ala"], {
        password: "Nowe-haslo3",
        password_retype: "Nowe-haslo3",
        capacity: 20,
      });
    });
    const entries = (await auditSince(db, 0)).filter((e) => e.id > lastId).reverse();
    const all = JSON.stringify(entries);
    for (const secret of ["Tajne-haslo1", "Tajne-haslo2", "SmsTajne1", "Nowe-haslo3"])
      expect(all).not.toContain(secret);
    expect(entries.map((e) => [e.action, e.resource, e.names.join(","), e.via, e.clientIp])).toEqual([
      ["create", "account", "ala", "api", "192.0.2.7"],
      ["create", "account", "ola", "api", "192.0.2.7"],
      ["update", "account", "ala,ola", "panel", "192.0.2.8"],
      ["update", "account", "ala", "panel", "192.0.2.8"],
    ]);
    expect(entries[0]!.changes).toMatchObject({
      password: { changed: true },
      sms_password_1: { changed: true },
      capacity: { old: null, new: 10 },
    });
    expect(entries[2]!.changes).toEqual({ blocked: { old: 0, new: 1 } });
    expect(entries[3]!.changes).toEqual({ password: { changed: true }, capacity: { old: 10, new: 20 } });
    expect(entries.every((e) => e.actor === `postmaster@${D}` && e.domain === D)).toBe(true);

    // Outside a request: the operator's CLI. Search and paging; retention.
    await setRequire2fa(db, domain.id, D, true);
    const [cli] = (await auditSince(db, Date.now() - 5_000)).filter((e) => e.resource === "domain");
    expect(cli).toMatchObject({ actor: "cli", via: "cli", changes: { require_2fa: { old: 0, new: 1 } } });
    expect((await listAudit(db, { domain: D, search: "ola" })).total).toBe(2);
    expect((await listAudit(db, { domain: D, search: "192.0.2.8", size: 1, page: 1 })).entries).toHaveLength(1);
    expect((await listAudit(db, { domain: "other.example", search: "ola" })).total).toBe(0);
    const total = (await listAudit(db, {})).total;
    expect(await trimAudit(db, 1, Date.now() + 2 * 86_400_000)).toBe(total);
    expect((await listAudit(db, {})).total).toBe(0);
  });
});
