// The list service's LMTP handling of held posts and copies over a real database (whichever engine the process was
// configured for, as list-store-checks.ts), with stand-ins for Postfix: a sendmail script that records the service's
// own messages and fails once for a recipient when told to, and an SMTP server that takes the copies and refuses some
// recipients at RCPT. Used by lib/lists/lmtp-posts.test.ts (SQLite) and db/pg/list-lmtp.test.ts (PostgreSQL).
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ListSubscriptions } from "@/lib/lists/subscriptions";

/** One LMTP transaction: the answers to each RCPT's delivery at the end of DATA (or its refusal at RCPT). */
export function lmtpDeliver(port: number, from: string, rcpts: string[], message: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const c = net.connect(port, "127.0.0.1");
    const data = `${message.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..")}\r\n.\r\n`;
    const steps = ["LHLO client.test\r\n", `MAIL FROM:<${from}>\r\n`, ...rcpts.map((r) => `RCPT TO:<${r}>\r\n`)];
    steps.push("DATA\r\n", data);
    let seen = "";
    let finals = 0;
    c.on("data", (d) => {
      seen += d.toString();
      const lines = seen.split("\r\n").filter((line) => /^\d{3} /.test(line));
      while (finals < lines.length) {
        finals++;
        const next = steps.shift();
        if (next !== undefined) c.write(next);
        else if (finals === 4 + 2 * rcpts.length) {
          // Greeting, LHLO, MAIL, each RCPT, DATA's 354, then one answer per recipient.
          c.end("QUIT\r\n");
          resolve(lines.slice(-rcpts.length));
        }
      }
    });
    c.on("error", reject);
  });
}

/** The cases, on the engine the file configured (services-on.ts), with the stand-ins on `ports` (29100-29199). */
export function listLmtpCases(ports: { lmtp: number; lmtp2: number; smtp: number }): void {
  let teardown = async () => {};
  let world: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    world = await setUp(ports);
    teardown = () => world.close();
  });
  afterAll(() => teardown());

  it("a held post whose notice fails (451) is held once, at Postfix's retry in any process, by a new link", async () => {
    const { lmtp, lmtp2, failOnce, held, post, notices, approveLink, store } = world;
    // A notice that fails after the post is stored: the post is not kept, 451.
    const retried = post("obcy@x.test", "ponowiona");
    failOnce("mod2@x.test");
    expect(await lmtpDeliver(lmtp, "obcy@x.test", ["moderowana@lmtp.test"], retried)).toEqual([
      expect.stringMatching(/^451 /),
    ]);
    expect((await held()).filter((h) => h.subject === "ponowiona")).toHaveLength(0);
    const [first] = await notices("mod1@x.test", "ponowiona");
    expect(await notices("mod2@x.test", "ponowiona")).toHaveLength(0);
    expect(await store.heldByToken(approveLink(first!)!)).toBeUndefined();
    // Postfix's retry (the same bytes), here through another process of the service: held once, every moderator
    // told, by one new link.
    expect(await lmtpDeliver(lmtp2, "obcy@x.test", ["moderowana@lmtp.test"], retried)).toEqual([
      "250 2.0.0 Held for moderation",
    ]);
    expect((await held()).filter((h) => h.subject === "ponowiona")).toHaveLength(1);
    const [, second] = await notices("mod1@x.test", "ponowiona");
    const [toMod2] = await notices("mod2@x.test", "ponowiona");
    expect(approveLink(toMod2!)).toBe(approveLink(second!));
    expect((await store.heldByToken(approveLink(second!)!))?.subject).toBe("ponowiona");

    // An attempt whose answer was lost (the service stopped after storing the post): found held, not stored again.
    expect(await lmtpDeliver(lmtp, "obcy@x.test", ["moderowana@lmtp.test"], retried)).toEqual([
      "250 2.0.0 Held for moderation",
    ]);
    expect((await held()).filter((h) => h.subject === "ponowiona")).toHaveLength(1);
    const [third] = await notices("mod2@x.test", "ponowiona").then((n) => n.slice(1));
    expect((await store.heldByToken(approveLink(third!)!))?.subject).toBe("ponowiona");
    expect(await store.heldByToken(approveLink(second!)!)).toBeUndefined();
  });

  it("the moderators' notice says whether the From was proven (a DMARC-aligned pass or a login)", async () => {
    const { lmtp, notices, post } = world;
    // Rspamd's poster header names the From when a DMARC-aligned check passed or the client logged in as it.
    await lmtpDeliver(
      lmtp,
      "szef@firma.test",
      ["moderowana@lmtp.test"],
      post("szef@firma.test", "potwierdzony", "X-Mailadmin-Poster: szef@firma.test\n"),
    );
    await lmtpDeliver(lmtp, "szef@firma.test", ["moderowana@lmtp.test"], post("szef@firma.test", "podrobiony"));
    const [proven] = await notices("mod1@x.test", "potwierdzony");
    const [claimed] = await notices("mod1@x.test", "podrobiony");
    expect(proven).toContain(
      "Wiadomość od szef@firma.test do listy moderowana@lmtp.test czeka na decyzję moderatora.\n",
    );
    expect(proven).toMatch(
      /^Nadawca potwierdzony: wiadomość wysłano po zalogowaniu na ten adres albo przeszła kontrolę DMARC/m,
    );
    expect(proven).not.toContain("NIEPOTWIERDZONY");
    expect(claimed).toMatch(/^Nadawca NIEPOTWIERDZONY: .* mógł zostać podrobiony\.$/m);
  });

  it("the LMTP answer counts only the copies Postfix took, not one refused at RCPT", async () => {
    const { lmtp, post, copies, logged, listModeration, db, domain } = world;
    // "Distributed to N": the copies Postfix took, not one it refused at RCPT (recorded as a bounce instead).
    expect(await lmtpDeliver(lmtp, "obcy@x.test", ["otwarta@lmtp.test"], post("obcy@x.test", "rozeslana"))).toEqual([
      "250 2.0.0 Distributed to 2 subscribers",
    ]);
    expect(
      copies
        .filter((c) => c.raw.includes("rozeslana"))
        .map((c) => c.to)
        .sort(),
    ).toEqual(["a@x.test", "b@x.test"]);
    expect(logged).toContain("otwarta@lmtp.test: distributed to 2 subscribers (1 refused by Postfix)");
    expect((await listModeration(db, domain, "otwarta")).bounces).toEqual([
      expect.objectContaining({ address: "nikt@x.test", count: 1 }),
    ]);
  });
}

async function setUp(ports: { lmtp: number; lmtp2: number; smtp: number }) {
  const { getReadyDb } = await import("@/db/client");
  const { addDomain } = await import("@/lib/server/resources/new-domain");
  const { createMailingList } = await import("@/lib/server/resources/mailing-lists");
  const { listModeration } = await import("@/lib/server/resources/list-moderation");
  const { listStore } = await import("@/lib/lists/store");
  const { listDistribution } = await import("@/lib/lists/distribution");
  const { startListLmtp } = await import("@/lib/lists/lmtp");
  const { LIST_SERVICE_DEFAULTS } = await import("@/lib/lists/options");
  const db = await getReadyDb();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lists-lmtp-checks-"));
  const out = path.join(dir, "sent");
  fs.mkdirSync(out);
  // Postfix's sendmail stand-in: `-i -f <from> -- <recipient>`, the message on stdin; a file fail-<recipient> makes
  // the next call for that recipient fail as postdrop would (exit 75), once.
  const sendmail = path.join(dir, "sendmail");
  fs.writeFileSync(
    sendmail,
    `#!/bin/sh
while [ "$1" != "--" ]; do shift; done
rcpt="$2"
if [ -e "${dir}/fail-$rcpt" ]; then rm -f "${dir}/fail-$rcpt"; cat >/dev/null; echo "postdrop: unable to write" >&2; exit 75; fi
cat > "${out}/$rcpt.$(date +%s%N)"
`,
    { mode: 0o755 },
  );
  const failOnce = (rcpt: string) => fs.writeFileSync(path.join(dir, `fail-${rcpt}`), "");
  const sentTo = (rcpt: string) =>
    fs
      .readdirSync(out)
      .filter((f) => f.startsWith(`${rcpt}.`))
      .sort()
      .map((f) => fs.readFileSync(path.join(out, f)));

  // Postfix's SMTP listener for the copies: an address starting with "nikt" is refused for good at RCPT.
  const copies: { to: string; raw: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (address.address.startsWith("nikt"))
        return cb(Object.assign(new Error("5.1.1 <nikt>: Recipient address rejected"), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (d: Buffer) => chunks.push(d));
      stream.on("end", () => {
        for (const r of session.envelope.rcptTo) copies.push({ to: r.address, raw: Buffer.concat(chunks).toString() });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(ports.smtp, "127.0.0.1", resolve));

  const logged: string[] = [];
  const o = {
    ...LIST_SERVICE_DEFAULTS,
    db,
    sendmail,
    lmtp: { host: "127.0.0.1", port: ports.lmtp },
    http: { host: "127.0.0.1", port: 0 },
    publicUrl: "https://listy.example.test",
    smtp: { host: "127.0.0.1", port: ports.smtp },
    smtpConnections: 2,
    spoolDir: path.join(dir, "spool"),
    log: (line: string) => logged.push(line),
  };
  fs.mkdirSync(o.spoolDir);
  const store = listStore(db);
  const distribution = listDistribution(o, store);
  const subscriptions = {} as ListSubscriptions;
  const first = await startListLmtp(o, store, distribution, subscriptions);
  const second = await startListLmtp(
    { ...o, lmtp: { host: "127.0.0.1", port: ports.lmtp2 } },
    store,
    distribution,
    subscriptions,
  );

  const domain = await addDomain(db, "lmtp.test", "Lists-pass1", {});
  await createMailingList(db, domain, "moderowana", {
    privacy_mode: 1,
    accounts: ["sub@x.test"],
    moderators: ["mod1@x.test", "mod2@x.test"],
  });
  await createMailingList(db, domain, "otwarta", { accounts: ["a@x.test", "nikt@x.test", "b@x.test"] });
  const held = async () => (await listModeration(db, domain, "moderowana")).held;
  const post = (from: string, subject: string, extra = "") =>
    `From: <${from}>\nTo: <moderowana@lmtp.test>\nSubject: ${subject}\nMessage-ID: <${subject}@client.test>\n` +
    `Date: Sat, 05 Dec 2026 05:00:00 +0000\n${extra}\nTreść.\n`;
  const notices = async (rcpt: string, subject: string) => {
    const all = await Promise.all(sentTo(rcpt).map((raw) => simpleParser(raw)));
    return all.filter((m) => m.subject === `Do moderacji: ${subject}`).map((m) => m.text ?? "");
  };
  const approveLink = (text: string) => /\/moderate\/([\w-]+)\?action=approve/.exec(text)?.[1];

  return {
    db,
    domain,
    store,
    copies,
    logged,
    listModeration,
    failOnce,
    held,
    post,
    notices,
    approveLink,
    lmtp: ports.lmtp,
    lmtp2: ports.lmtp2,
    async close() {
      for (const server of [first, second]) await new Promise<void>((resolve) => server.close(() => resolve()));
      await distribution.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
