// mailserver check's "quota_clone writes usage back" line with several mail hosts (docs/mail-hosts.md): run on a host
// that is not the account's, its doveadm save went into a local copy, made a stray Maildir there, and the copy's
// quota_clone overwrote the owner's usage with 0 bytes, 0 messages, reported as a pass. It must refuse such an
// account before touching anything. doveadm is faked: the calls are recorded, none writes a usage row. On SQLite, or
// on a private PostgreSQL cluster with TEST_DATABASE=postgres.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { servicesOnPrivatePgCluster, servicesOnTempSqlite } from "@/e2e/support/services-on";
import { onPostgres } from "@/e2e/support/test-database";
import type { Db } from "@/db/client";
import type * as CheckModule from "./check";
import type * as RunToolModule from "./run-tool";

vi.mock("server-only", () => ({}));

const doveadm = vi.hoisted(() => ({ calls: [] as string[][] }));
vi.mock("./run-tool", async (importOriginal) => ({
  ...(await importOriginal<typeof RunToolModule>()),
  runTool: (command: string, args: string[]) => {
    doveadm.calls.push([command, ...args]);
    return "";
  },
}));

if (onPostgres()) servicesOnPrivatePgCluster();
else servicesOnTempSqlite();

let db: Db;
let check: typeof CheckModule;
const USAGE = { bytes: 123_456, messages: 7 };

beforeAll(async () => {
  db = await (await import("@/db/client")).getReadyDb();
  check = await import("./check");
  const { addDomain } = await import("@/lib/server/resources/new-domain");
  const { createAccount } = await import("@/lib/server/resources/accounts");
  const { setAccountMailHost, setDomainMailHost, setMailHost } = await import("./mail-hosts");
  const { mailQuota } = await import("@/db/schema");
  await setMailHost(db, "imap1", { address: "192.0.2.1" });
  await setMailHost(db, "imap2", { address: "192.0.2.2" });
  const placed = await addDomain(db, "placed.test", "Admin-pass1", {}, undefined, { mailHost: null });
  await setDomainMailHost(db, placed.id, "imap2");
  const unplaced = await addDomain(db, "unplaced.test", "Admin-pass1", {}, undefined, { mailHost: null });
  for (const name of ["owner", "boss"]) await createAccount(db, placed, name, { password: "Konto-pass1" });
  await createAccount(db, unplaced, "jan", { password: "Konto-pass1" });
  await setAccountMailHost(db, "boss@placed.test", "imap1");
  await db.insert(mailQuota).values({ username: "owner@placed.test", ...USAGE });
});
beforeEach(() => void (doveadm.calls = []));

const writeBack = (account: string, hostName: string | undefined) =>
  check.quotaWriteBack(onPostgres() ? undefined : db, {
    account,
    hostName,
    postgresUrl: process.env.DATABASE_URL,
    quotaWaitMs: 200,
  })();
const usageOf = async (email: string) => {
  const { mailQuota } = await import("@/db/schema");
  const { eq } = await import("drizzle-orm");
  const [row] = await db
    .select({ bytes: mailQuota.bytes, messages: mailQuota.messages })
    .from(mailQuota)
    .where(eq(mailQuota.username, email));
  return row;
};

describe("quota_clone writes usage back, with several mail hosts", () => {
  it("refuses an account whose domain is placed on another host, naming its host and what to do, writing nothing", async () => {
    expect(await writeBack("owner@placed.test", "imap1")).toEqual({
      ok: false,
      detail:
        "owner@placed.test's mailbox lives on mail host imap2, not on this host (imap1, MAIL_HOST_NAME): a doveadm " +
        "save here would create a stray copy and overwrite its usage, so nothing was written; check with a test " +
        "account of this host (one with no mail of its own: account set-mail-host <email> --mail-host imap1 moves " +
        "where its mail goes, not the mail), or run it on imap2",
    });
    expect(doveadm.calls).toEqual([]);
    expect(await usageOf("owner@placed.test")).toEqual(USAGE);
  });

  it("refuses an account placed by itself on another host than its domain's, and one checked on a host with no name", async () => {
    expect(await writeBack("boss@placed.test", "imap2")).toMatchObject({
      ok: false,
      detail: expect.stringMatching(
        /^boss@placed\.test's mailbox lives on mail host imap1, not on this host \(imap2,/,
      ) as string,
    });
    expect(await writeBack("owner@placed.test", undefined)).toMatchObject({
      ok: false,
      detail: expect.stringMatching(
        /^owner@placed\.test's mailbox lives on mail host imap2, and this host has no MAIL_HOST_NAME .* set MAIL_HOST_NAME=<this host's name> in \/etc\/mailadmin\/service\.env, or run the check on imap2$/,
      ) as string,
    });
    expect(doveadm.calls).toEqual([]);
    expect(await usageOf("owner@placed.test")).toEqual(USAGE);
  });

  it("saves and expunges for an account placed on this host, or on none", async () => {
    for (const [account, host] of [
      ["owner@placed.test", "imap2"],
      ["boss@placed.test", "imap1"],
      ["jan@unplaced.test", "imap1"],
      ["jan@unplaced.test", undefined],
    ] as const) {
      doveadm.calls = [];
      // The fake doveadm writes no usage row: the line fails after its wait, having gone ahead.
      expect(await writeBack(account, host)).toMatchObject({
        ok: false,
        detail: expect.stringMatching(new RegExp(`^no usage row for ${account.replace(".", "\\.")} after`)) as string,
      });
      expect(doveadm.calls.map((c) => [c[0], c[1], c[3]])).toEqual([
        ["doveadm", "save", account],
        ["doveadm", "expunge", account],
      ]);
    }
  });
});
