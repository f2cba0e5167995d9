// The black lists of the hosted accounts a forward-only account's forwards reach, as the policy service applies them at
// RCPT (the question Postfix asks every client first): refused when every place the message ends up drops it, and a
// dropping account's full mailbox does not refuse it. On SQLite, with a fake Dovecot quota-status service.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";
import { createAccount } from "@/lib/server/resources/accounts";
import { createAlias } from "@/lib/server/resources/aliases";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { Greylist } from "./greylist";
import { SpamPolicy, type PolicyRequest } from "./spam-policy";

vi.mock("server-only", () => ({}));

const D = "forward-black.test";
const PW = "Black-pass1";
const FULL = `pelna@${D}`;

let dir: string;
let db: Db;
let greylist: Greylist;
let quota: net.Server;
let policy: SpamPolicy;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-forward-black-"));
  db = openDatabase(path.join(dir, "mail.db"));
  greylist = new Greylist(path.join(dir, "greylist.db"));
  // Dovecot's quota-status as the policy asks it: FULL has no room, every other mailbox has.
  quota = net.createServer((socket) =>
    socket.on("data", (d) =>
      socket.end(
        d.toString().includes(`recipient=${FULL}\n`) ? "action=552 5.2.2 Mailbox is full\n\n" : "action=OK\n\n",
      ),
    ),
  );
  await new Promise<void>((resolve) => quota.listen(0, "127.0.0.1", resolve));
  await runCommand(db, ["domain", "add", D, "--postmaster-password", PW]);
  const domain = await getDomainOrThrow(db, D);
  const add = (name: string, body: Record<string, unknown> = {}) =>
    createAccount(db, domain, name, { password: PW, ...body });
  const black = { spam_black_list: ["pest@outside.test", "junk.test"], spam_white_list: ["friend@junk.test"] };
  await add("zwykla");
  await add("wybredna", black);
  await add("pelna", black);
  await add("posrednik", { keep_mail: 0, forwards: [`wybredna@${D}`] });
  await createAlias(db, domain, "alias-wybrednej", { target: `wybredna@${D}` });
  await add("tylko-wybredna", { keep_mail: 0, forwards: [`wybredna@${D}`] });
  await add("okrezna", { keep_mail: 0, forwards: [`alias-wybrednej@${D}`, `posrednik@${D}`] });
  await add("wybredna-i-zwykla", { keep_mail: 0, forwards: [`wybredna@${D}`, `zwykla@${D}`] });
  await add("wybredna-i-daleko", { keep_mail: 0, forwards: [`wybredna@${D}`, "daleko@outside.test"] });
  await add("kopia-do-wybrednej", { keep_mail: 1, forwards: [`wybredna@${D}`] });
  await add("do-pelnej", { keep_mail: 0, forwards: [FULL, `zwykla@${D}`] });
  await createAlias(db, domain, "alias-tylko-wybrednej", { target: `tylko-wybredna@${D}` });
  const port = (quota.address() as net.AddressInfo).port;
  policy = new SpamPolicy({
    db,
    greylist,
    greylistDelayS: 300,
    rblZones: [],
    defaults: { rbl: 0, spf: 0, greylist: 0 },
    quotaStatus: { host: "127.0.0.1", port },
  });
});

afterAll(async () => {
  greylist?.close();
  db?.$client.close();
  await new Promise((resolve) => quota?.close(resolve));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const rcpt = (sender: string, name: string) =>
  policy.decide({
    request: "smtpd_access_policy",
    protocol_state: "RCPT",
    policy_context: "quota",
    client_address: "192.0.2.7",
    sender,
    recipient: `${name}@${D}`,
    size: "1000",
  } satisfies PolicyRequest);

describe("forwards to hosted accounts whose black list refuses the sender", () => {
  it("refused at RCPT as the recipient's own black list refuses, when every forward (through aliases and forward-only accounts too) ends at one", async () => {
    for (const sender of ["pest@outside.test", "bulk@junk.test"])
      for (const name of ["tylko-wybredna", "okrezna", "alias-tylko-wybrednej"])
        expect(await rcpt(sender, name)).toEqual({
          action: `REJECT 5.7.1 <${name}@${D}>: the recipient does not accept mail from <${sender}>`,
          rule: "black-list",
        });
  });

  it("accepted when the white list beats the black list, or any place takes it: an account, another server, a copy kept", async () => {
    expect(await rcpt("friend@junk.test", "tylko-wybredna")).toEqual({ action: "DUNNO", rule: "none" });
    expect(await rcpt("someone@outside.test", "tylko-wybredna")).toEqual({ action: "DUNNO", rule: "none" });
    for (const name of ["wybredna-i-zwykla", "wybredna-i-daleko", "kopia-do-wybrednej"])
      expect(await rcpt("pest@outside.test", name)).toEqual({ action: "DUNNO", rule: "none" });
  });

  it("a forward target's full mailbox refuses the message unless its black list drops it there", async () => {
    expect(await rcpt("someone@outside.test", "do-pelnej")).toEqual({
      action: "552 5.2.2 Mailbox is full",
      rule: "quota",
    });
    expect(await rcpt("pest@outside.test", "do-pelnej")).toEqual({ action: "DUNNO", rule: "none" });
  });

  it("an account recipient that keeps its mail and forwards nothing costs no query more than before: 13", async () => {
    const prepare = vi.spyOn(db.$client, "prepare");
    try {
      expect(await rcpt("pest@outside.test", "zwykla")).toEqual({ action: "DUNNO", rule: "none" });
      // Each hosted account a forward reaches costs two more (its domain's and its own lists).
      expect(prepare.mock.calls.length).toBe(13);
    } finally {
      prepare.mockRestore();
    }
  });
});
