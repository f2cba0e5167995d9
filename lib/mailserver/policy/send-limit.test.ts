// The sending limit as the policy service applies it at RCPT (the question Postfix asks every client first), on a
// fake clock: a signed-in sender's recipients over a rolling hour against its domain's send_limit.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase, type Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
import { withTransaction } from "@/db/transaction";
import { runCommand } from "@/lib/cli/commands";
import { createAccount } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { Greylist } from "./greylist";
import { SendLimit } from "./send-limit";
import { SpamPolicy, type PolicyRequest } from "./spam-policy";

vi.mock("server-only", () => ({}));

const D = "limited.test";
const PW = "Send-pass1";
/** A minute's start, so that the window's edges are whole minutes from it. */
const T0 = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
const MIN = 60_000;

let dir: string;
let db: Db;
let greylist: Greylist;
let clock = T0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-send-limit-"));
  db = openDatabase(path.join(dir, "mail.db"));
  greylist = new Greylist(path.join(dir, "greylist.db"));
  await runCommand(db, ["domain", "add", D, "--postmaster-password", PW]);
  for (const name of ["alice", "bob", "carol", "dave", "erin"])
    await createAccount(db, await getDomainOrThrow(db, D), name, { password: PW });
});

afterAll(() => {
  greylist?.close();
  db?.$client.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const newPolicy = () =>
  new SpamPolicy({
    db,
    greylist,
    greylistDelayS: 300,
    rblZones: [],
    defaults: { rbl: 0, spf: 0, greylist: 0 },
    now: () => clock,
  });
let policy: SpamPolicy;
beforeAll(() => void (policy = newPolicy()));

/** Postfix's first question at RCPT, from a signed-in `login` (or an unauthenticated client when login is ""). */
const rcpt = (login: string, to = "someone@elsewhere.test", p = policy) =>
  p.decide({
    request: "smtpd_access_policy",
    protocol_state: "RCPT",
    policy_context: "quota",
    client_address: "192.0.2.7",
    sender: login || "stranger@outside.test",
    recipient: to,
    sasl_username: login,
  } satisfies PolicyRequest);
const setLimit = (n: number) => runCommand(db, ["domain", "set-limits", D, "--send-limit", String(n)]);

describe("the sending limit of signed-in senders", () => {
  it("new domains get 1,000 recipients per hour", async () => {
    expect((await getDomainOrThrow(db, D)).sendLimit).toBe(1000);
  });

  it("defers the recipient past the limit with 450 4.7.1, counts only what it accepts, and frees each minute an hour on", async () => {
    await setLimit(3);
    const alice = `alice@${D}`;
    clock = T0;
    expect(await rcpt(alice)).toEqual({ action: "DUNNO", rule: "none" });
    expect(await rcpt(alice)).toEqual({ action: "DUNNO", rule: "none" });
    clock = T0 + 30 * MIN;
    expect(await rcpt(alice)).toEqual({ action: "DUNNO", rule: "none" });
    const refused = await rcpt(alice);
    expect(refused).toEqual({
      action: `450 4.7.1 ${alice} has reached its sending limit of 3 recipients per hour; try again later`,
      rule: "send-limit",
    });
    // A client retrying through the hour: refused every time, and its retries do not count.
    for (let i = 0; i < 5; i++) expect((await rcpt(alice)).rule).toBe("send-limit");
    clock = T0 + 59 * MIN + 59_999;
    expect((await rcpt(alice)).rule).toBe("send-limit");
    // An hour after the first two, they have left the window; the one sent at +30 min has not.
    clock = T0 + 60 * MIN;
    expect((await rcpt(alice)).rule).toBe("none");
    expect((await rcpt(alice)).rule).toBe("none");
    expect((await rcpt(alice)).rule).toBe("send-limit");
    clock = T0 + 90 * MIN;
    expect((await rcpt(alice)).rule).toBe("none");
    expect((await rcpt(alice)).rule).toBe("send-limit");
  });

  it("counts each account on its own and never an unauthenticated client, nor the login's case twice", async () => {
    await setLimit(2);
    clock = T0 + 200 * MIN;
    expect((await rcpt(`bob@${D}`)).rule).toBe("none");
    expect((await rcpt(`BOB@${D}`)).rule).toBe("none");
    expect((await rcpt(`bob@${D}`)).rule).toBe("send-limit");
    expect((await rcpt(`carol@${D}`)).rule).toBe("none");
    for (let i = 0; i < 5; i++) expect((await rcpt("", `bob@${D}`)).rule).toBe("none");
  });

  it("applies a changed limit at the next recipient: raised, lowered, 0 for none", async () => {
    await setLimit(1);
    clock = T0 + 300 * MIN;
    const dave = `dave@${D}`;
    expect((await rcpt(dave)).rule).toBe("none");
    expect((await rcpt(dave)).action).toMatch(/ limit of 1 recipient per hour;/);
    await setLimit(2);
    expect((await rcpt(dave)).rule).toBe("none");
    expect((await rcpt(dave)).rule).toBe("send-limit");
    await setLimit(0);
    for (let i = 0; i < 20; i++) expect((await rcpt(dave)).rule).toBe("none");
    // Recipients are counted while unlimited too, so a limit set later meets the real hour.
    await setLimit(10);
    const refused = await rcpt(dave);
    expect(refused.action).toMatch(/^450 4\.7\.1 .* limit of 10 recipients per hour/);
  });

  it("keeps the count in the database: another policy service (a restart, another mail host) sees it", async () => {
    await setLimit(2);
    clock = T0 + 400 * MIN;
    const erin = `erin@${D}`;
    expect((await rcpt(erin)).rule).toBe("none");
    expect((await rcpt(erin, undefined, newPolicy())).rule).toBe("none");
    expect((await rcpt(erin, undefined, newPolicy())).rule).toBe("send-limit");
  });

  it("forgets the minutes that have left the window: a policy service's first count deletes them", async () => {
    const rows = () => dialectOf(db).all<{ minute: number }>(db, sql`SELECT minute FROM send_counts ORDER BY minute`);
    expect(await rows()).toContainEqual({ minute: (T0 + 400 * MIN) / MIN });
    clock = T0 + 1000 * MIN;
    expect((await rcpt(`alice@${D}`, undefined, newPolicy())).rule).toBe("none");
    expect(await rows()).toEqual([{ minute: (T0 + 1000 * MIN) / MIN }]);
  });

  it("waits behind another write of its own process (greylisting kept in the database) instead of failing", async () => {
    // SQLite: a write outside withTransaction while the process's write connection holds the lock busy-waits on the
    // event loop the holder needs, and fails after the busy timeout (db/sqlite/dialect.ts).
    await setLimit(5);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const other = withTransaction(db, async (tx) => {
      await dialectOf(tx).run(tx, sql`UPDATE domains SET send_limit = send_limit WHERE name = ${D}`);
      entered();
      await held;
    });
    await inside;
    const counting = new SendLimit(db).count(`dave@${D}`, T0 + 1500 * MIN);
    release();
    await other;
    expect(await counting).toEqual({ allowed: true });
  });

  it("holds at most the last hour at every count, also when a policy service counts few recipients", async () => {
    const rows = () => dialectOf(db).all<{ minute: number }>(db, sql`SELECT minute FROM send_counts ORDER BY minute`);
    const quiet = newPolicy();
    for (let hour = 0; hour < 4; hour++) {
      clock = T0 + 2000 * MIN + hour * 90 * MIN;
      expect((await rcpt(`carol@${D}`, undefined, quiet)).rule).toBe("none");
      expect(await rows()).toEqual([{ minute: clock / MIN }]);
    }
  });
});
