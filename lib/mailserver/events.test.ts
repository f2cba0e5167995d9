// `mailserver events` over real HTTP on a real SQLite file, without the mail daemons: POST /forwarded-mail takes the
// message itself (a forward-only account's Sieve script pipes it there; testing/forwarding/sms.ts has that path with
// the real daemons). Any local process may call the port: only a forward-only account is notified through it, and a
// message with thousands of addresses costs one query to tell list traffic to moderate from mail to announce.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { accounts, smsQueue } from "@/db/schema";
import { createAccount } from "@/lib/server/resources/accounts";
import { createMailingList } from "@/lib/server/resources/mailing-lists";
import { addDomain } from "@/lib/server/resources/new-domain";
import { MAX_ADDRESSES_LOOKED_UP, startMailEvents, type MailEvents } from "./events";
import { smsConfig } from "./sms/config";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

const D = "events.example";
const PW = "Konto-pass1";
/** A number whose notifications are planned but never sent: no HTTP gateway is configured (recorded as failed). */
const sms = (n: number) => ({ sms_phone_number_1: `50123456${n}`, sms_send_to: 0, sms_cnt: 0 });
let dir: string;
let db: Db;
let events: MailEvents;
const logged: string[] = [];
const onLog = new Set<() => void>();

beforeAll(async () => {
  process.env.SCRYPT_COST = "1024";
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mail-events-"));
  db = openDatabase(path.join(dir, "t.db"));
  const domain = await addDomain(db, D, PW, {});
  const forwardOnly = { keep_mail: 0, forwards: ["daleko@outside.test"] };
  await createAccount(db, domain, "fwd", { password: PW, ...forwardOnly, ...sms(1) });
  await createAccount(db, domain, "keeps", { password: PW, forwards: ["daleko@outside.test"], ...sms(2) });
  await createAccount(db, domain, "blokfwd", { password: PW, ...forwardOnly, blocked: 1, ...sms(3) });
  await createAccount(db, domain, "nofwd", { password: PW, keep_mail: 0, ...sms(4) });
  await createMailingList(db, domain, "zarzad", {
    privacy_mode: 1,
    accounts: [`keeps@${D}`],
    moderators: [`fwd@${D}`],
  });
  events = await startMailEvents({
    db,
    doveadm: ["doveadm"],
    sms: smsConfig({ rateLimitPerHour: 0 }),
    transport: { smtp: { host: "127.0.0.1", port: 9 } },
    queueIntervalMs: 3_600_000,
    // No Dovecot here (open-sessions.test.ts has the session check).
    sessionCheckMs: 0,
    log: (line) => {
      logged.push(line);
      for (const wake of onLog) wake();
    },
  });
});

afterAll(async () => {
  await events?.close();
  db?.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The next line the service logs for `user`'s forwarded message (it answers 202 first, then works). */
function nextResult(user: string): Promise<string> {
  const prefix = `forwarded-mail ${user}: `;
  const seen = logged.filter((l) => l.startsWith(prefix)).length;
  return new Promise((resolve) => {
    const check = () => {
      const lines = logged.filter((l) => l.startsWith(prefix));
      if (lines.length > seen) {
        onLog.delete(check);
        resolve(lines[seen]!.slice(prefix.length));
      }
    };
    onLog.add(check);
  });
}

/** POSTs a message as the Sieve script does; the service's result for it. */
async function forwarded(user: string, headers: { from?: string; to: string[]; cc?: string[] }): Promise<string> {
  const result = nextResult(user);
  const list = (addresses: string[]) => addresses.join(",\r\n ");
  const raw = [
    `From: ${headers.from ?? "nadawca@far.test"}`,
    `To: ${list(headers.to)}`,
    ...(headers.cc ? [`Cc: ${list(headers.cc)}`] : []),
    "Subject: Przekazana",
    "",
    "Treść.",
    "",
  ].join("\r\n");
  const res = await fetch(`${events.url}/forwarded-mail`, {
    method: "POST",
    headers: { "content-type": "message/rfc822", "x-mailadmin-user": user, connection: "close" },
    body: raw,
  });
  expect(res.status).toBe(202);
  return result;
}

const rowsOf = async (name: string) => {
  const [a] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, `${name}@${D}`));
  return db.select().from(smsQueue).where(eq(smsQueue.accountId, a!.id));
};

/** The statements on mailing_lists prepared while `run` runs (drizzle prepares each query it sends to SQLite). */
async function listQueries<T>(run: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const prepare = vi.spyOn(db.$client, "prepare");
  try {
    const result = await run();
    const queries = prepare.mock.calls.filter(([sql]) => sql.includes('"mailing_lists"')).length;
    return { result, queries };
  } finally {
    prepare.mockRestore();
  }
}

const far = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}@far.test`);

describe("POST /forwarded-mail", () => {
  it("notifies a forward-only account only: not one that keeps its mail, is blocked, or has no forwards", async () => {
    expect(await forwarded(`keeps@${D}`, { to: [`keeps@${D}`] })).toBe("not a forward-only account");
    expect(await forwarded(`blokfwd@${D}`, { to: [`blokfwd@${D}`] })).toBe("not a forward-only account");
    expect(await forwarded(`nofwd@${D}`, { to: [`nofwd@${D}`] })).toBe("not a forward-only account");
    expect(await forwarded(`nobody@${D}`, { to: [`nobody@${D}`] })).toBe("unknown account");
    for (const name of ["keeps", "blokfwd", "nofwd"]) expect(await rowsOf(name)).toEqual([]);
    // The control: the forward-only account's message is queued (its one number).
    expect(await forwarded(`fwd@${D}`, { to: [`fwd@${D}`] })).toBe("queued 1");
    expect((await rowsOf("fwd")).length).toBe(1);
  });

  it("15,000 distinct addresses in To and Cc: one query on the lists, and the message is announced", async () => {
    const { result, queries } = await listQueries(() =>
      forwarded(`fwd@${D}`, { to: far("to", 7_500), cc: far("cc", 7_500) }),
    );
    expect(result).toBe("queued 1");
    expect(queries).toBe(1);
  });

  it("a moderated list after 7,500 repeats of 40 addresses in To (7,500 more in Cc): one query finds it, a repeat counts once", async () => {
    const repeated = Array.from({ length: 15_000 }, (_, i) => `r${i % 40}@far.test`);
    const { result, queries } = await listQueries(() =>
      forwarded(`fwd@${D}`, { to: [...repeated.slice(0, 7_500), `zarzad@${D}`], cc: repeated.slice(7_500) }),
    );
    expect(result).toBe("list traffic to moderate");
    expect(queries).toBe(1);
  });

  it(`only the first ${MAX_ADDRESSES_LOOKED_UP} distinct addresses are looked up: a moderated list past them is not seen`, async () => {
    const within = [...far("w", MAX_ADDRESSES_LOOKED_UP - 1), `zarzad@${D}`];
    expect(await forwarded(`fwd@${D}`, { to: within })).toBe("list traffic to moderate");
    const past = [...far("p", MAX_ADDRESSES_LOOKED_UP), `zarzad@${D}`];
    expect(await forwarded(`fwd@${D}`, { to: past })).toBe("queued 1");
    // What the list sends its moderator (From the list) is list traffic, even addressed to the account.
    expect(await forwarded(`fwd@${D}`, { from: `zarzad@${D}`, to: [`fwd@${D}`] })).toBe("list traffic to moderate");
    // A message to the account itself is announced, the list beside it or not.
    expect(await forwarded(`fwd@${D}`, { to: [`fwd@${D}`, `zarzad@${D}`] })).toBe("queued 1");
  });
});
