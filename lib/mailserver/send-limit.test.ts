// The sending limit in real mail (docs/mail-server.md, "Sending limit"): the sandbox's Postfix asks the policy service
// at each RCPT of a signed-in submission, and past the domain's send_limit in the policy service's rolling hour (its
// clock moved by the test) the recipient gets 450 4.7.1 while the ones before it are delivered.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";
import { createAccount } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import {
  closeTestDatabase,
  missingMailPackages,
  newMailTestRoot,
  openTestDatabase,
  readMessages,
  settleMail,
  smtpTry,
  startMailSystem,
  type MailTestLayout,
} from "./testing/mail-daemons";

vi.mock("server-only", () => ({}));
vi.setConfig({ testTimeout: 120_000 });
// Outside senders in this file have no SPF record and the sandbox lists no loopback client; greylisting is off.
process.env.SPAM_GREYLIST_DEFAULT = "0";

/** The domain whose accounts send, with a limit of 3 recipients per hour. */
const D = "limited.test";
/** Where they send to: hosted here, so that each delivery can be read. */
const R = "readers.test";
const PW = "Limit-pass1";
const SENDER = `sender@${D}`;
const COLLEAGUE = `colleague@${D}`;
const MARKER = `marker@${R}`;

let root: string;
let db: Db;
let l: MailTestLayout;
/** The policy service's clock: the real one plus what the tests move it on by. */
let offsetMs = 0;
let counter = 0;

function message(from: string, to: string[], subject: string) {
  return (
    `From: <${from}>\nTo: ${to.map((t) => `<${t}>`).join(", ")}\nSubject: ${subject}\n` +
    `Message-ID: <${subject}.${counter++}@client.test>\nDate: ${new Date().toUTCString()}\n\nA test message.\n`
  );
}
/** A message from a signed-in `login` over the submission port (SMTP AUTH). */
const submit = (login: string, to: string[], subject: string) =>
  smtpTry(l.ports.submission, login, to, message(login, to, subject), { user: login, pass: PW });
/** A message from another provider's client through the MX port. */
const fromOutside = (to: string[], subject: string) =>
  smtpTry(l.ports.smtp, "someone@outside.test", to, message("someone@outside.test", to, subject));
const settle = () => settleMail(l, MARKER);
const received = (email: string, subject: string) =>
  readMessages(l, email).some((m) => m.includes(`Subject: ${subject}\n`) || m.includes(`Subject: ${subject}\r\n`));
const readers = (...names: string[]) => names.map((n) => `${n}@${R}`);

const missing = missingMailPackages();
if (missing.length) console.warn(`sending limit tests SKIPPED: Debian packages missing: ${missing.join(" ")}`);

describe.skipIf(missing.length > 0)("the sending limit of signed-in senders in real mail", () => {
  beforeAll(async () => {
    root = newMailTestRoot("mailadmin-send-limit-");
    db = await openTestDatabase(path.join(root, "db", "mail.db"));
    for (const d of [D, R]) await runCommand(db, ["domain", "add", d, "--postmaster-password", PW]);
    await runCommand(db, ["domain", "set-limits", D, "--send-limit", "3"]);
    const limited = await getDomainOrThrow(db, D);
    // The sender forwards what it receives: the forward is the server's own mail, not the sender's.
    await createAccount(db, limited, "sender", { password: PW, keep_mail: 1, forwards: [`forwarded@${R}`] });
    await createAccount(db, limited, "colleague", { password: PW });
    const readersDomain = await getDomainOrThrow(db, R);
    for (const name of ["r1", "r2", "r3", "r4", "r5", "r6", "forwarded", "marker"])
      await createAccount(db, readersDomain, name, { password: PW, spam_enabled: 0 });
    l = await startMailSystem(root, {
      defaults: { rbl: 0, spf: 0, greylist: 0 },
      clock: () => Date.now() + offsetMs,
    });
  }, 300_000);

  afterAll(async () => {
    await l?.sandbox.stop();
    await closeTestDatabase(db);
    if (root && !process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it("delivers to a signed-in sender's first 3 recipients in the hour and answers the 4th 450 4.7.1 at RCPT", async () => {
    // Addresses that are nothing here, which Postfix refuses after the policy service's question, are not counted.
    const unknown = await submit(SENDER, [`nobody@${R}`, `ghost@${R}`], "unknown");
    expect(unknown.accepted).toEqual([]);
    expect(unknown.refused.map((r) => r.code)).toEqual([550, 550]);
    const sent = await submit(SENDER, readers("r1", "r2", "r3", "r4"), "first-four");
    expect(sent.accepted).toEqual(readers("r1", "r2", "r3"));
    expect(sent.refused).toHaveLength(1);
    expect(sent.refused[0]).toMatchObject({ address: `r4@${R}`, code: 450 });
    expect(sent.refused[0]!.response).toMatch(
      /^450 4\.7\.1 <r4@readers\.test>: Recipient address rejected: sender@limited\.test has reached its sending limit of 3 recipients per hour; try again later/,
    );
    await settle();
    for (const r of readers("r1", "r2", "r3")) expect(received(r, "first-four"), r).toBe(true);
    expect(received(`r4@${R}`, "first-four")).toBe(false);

    // A new connection later in the hour: still refused, and nothing is accepted, so nothing can bounce.
    const again = await submit(SENDER, readers("r5"), "still-over");
    expect(again.accepted).toEqual([]);
    expect(again.refused.map((r) => r.code)).toEqual([450]);
  });

  it("leaves another account of the domain, mail from outside and the account's forward alone", async () => {
    const colleague = await submit(COLLEAGUE, readers("r4", "r5"), "colleague");
    expect(colleague.accepted).toEqual(readers("r4", "r5"));
    const inbound = await fromOutside([SENDER], "from-outside");
    expect(inbound.accepted).toEqual([SENDER]);
    await settle();
    expect(received(`r4@${R}`, "colleague")).toBe(true);
    expect(received(SENDER, "from-outside")).toBe(true);
    // Its Sieve redirect is the server's own mail: forwarded although the account is over its limit.
    expect(received(`forwarded@${R}`, "from-outside")).toBe(true);
  });

  it("lets the sender send again an hour on, and at once when the operator raises the limit", async () => {
    offsetMs += 3_600_000;
    const later = await submit(SENDER, readers("r4", "r5", "r6", "r1"), "an-hour-on");
    expect(later.accepted).toEqual(readers("r4", "r5", "r6"));
    expect(later.refused.map((r) => r.code)).toEqual([450]);
    await runCommand(db, ["domain", "set-limits", D, "--send-limit", "10"]);
    const raised = await submit(SENDER, readers("r1"), "raised");
    expect(raised.accepted).toEqual(readers("r1"));
    await settle();
    for (const r of readers("r4", "r5", "r6")) expect(received(r, "an-hour-on"), r).toBe(true);
    expect(received(`r1@${R}`, "an-hour-on")).toBe(false);
    expect(received(`r1@${R}`, "raised")).toBe(true);
  });
});
