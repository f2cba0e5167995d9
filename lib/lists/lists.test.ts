// Mailing lists end to end on the sandbox (lib/mailserver/sandbox): real Postfix, Dovecot, Rspamd and Redis
// configured by `mailserver config`, the list service as the sandbox's component listening on LMTP, mail sent
// over SMTP to the MX port and read from the subscribers' maildirs.
import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { errorCatalog } from "@/lib/errors/catalog";
import { runCommand } from "@/lib/cli/commands";
import { createAccount, deleteAccounts } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import {
  createMailingList,
  getListOrThrow,
  listRecord,
  updateMailingLists,
} from "@/lib/server/resources/mailing-lists";
import { approveHeldPosts, listModeration } from "@/lib/server/resources/list-moderation";
import {
  closeTestDatabase,
  mailTestsOnPostgres,
  missingMailPackages,
  newMailTestRoot,
  openTestDatabase,
  readMessages,
  run,
  settleMail,
  smtpSend,
  startMailSystem,
  waitFor,
  type MailTestLayout,
} from "@/lib/mailserver/testing/mail-daemons";
import { writeDnsRecords } from "@/lib/mailserver/sandbox/dns-server";
import { maildirNew } from "@/lib/mailserver/sandbox/outbound-sink";
import type { ListService } from "./service";
import { listStore } from "./store";

vi.mock("server-only", () => ({}));

const missing = missingMailPackages();
if (missing.length)
  console.warn(`list tests SKIPPED: Debian packages missing: ${missing.join(" ")} (bash .ci/system-packages.sh)`);

const A = "alpha.test";
const at = (name: string) => `${name}@${A}`;
const PW = "Test-pass1";

let l: MailTestLayout;
let db: Db;
let service: ListService;
let root: string;
const publicUrl = () => l.sandbox.info.lists_url;
/** The list service's log lines (the sandbox writes them to logs/lists.log). */
const log = () => {
  const file = path.join(l.logs, "lists.log");
  return fs.existsSync(file)
    ? fs
        .readFileSync(file, "utf8")
        .split("\n")
        .map((line) => line.replace(/^\S+ /, ""))
    : [];
};

const domain = () => getDomainOrThrow(db, A);
let counter = 0;
/** A unique subject, so each test looks only for its own messages. */
const unique = (what: string) => `${what}-${++counter}-${Date.now()}`;

function message(from: string, to: string, subject: string, extra = "", body = "Treść testowa.\n") {
  return (
    `From: Nadawca <${from}>\nTo: <${to}>\nSubject: ${subject}\nMessage-ID: <${subject.replace(/\W/g, "")}@client.test>\n` +
    `Date: ${new Date().toUTCString()}\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n${extra}\n${body}`
  );
}
const post = (from: string, list: string, subject: string, extra = "", envelope = from) =>
  smtpSend(l.ports.smtp, envelope, [at(list)], message(from, at(list), subject, extra));

/** A post sent through the submission port, logged in as its From (how members' posts are authenticated). */
async function postAs(from: string, list: string, subject: string) {
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: l.ports.submission,
    secure: false,
    ignoreTLS: true,
    auth: { user: from, pass: PW },
    name: "client.mailadmin.test",
  });
  try {
    await transport.sendMail({
      envelope: { from, to: [at(list)] },
      raw: message(from, at(list), subject).replace(/\r?\n/g, "\r\n"),
    });
  } finally {
    transport.close();
  }
}

/** The inbox and the Spam folder (Rspamd may file a test message with odd headers as spam: still delivered). */
const mailOf = (email: string) => [...readMessages(l, email), ...readMessages(l, email, "Spam")];
const withSubject = (email: string, subject: string) => mailOf(email).filter((m) => m.includes(subject));
const received = (email: string, subject: string) => withSubject(email, subject).length > 0;
/** The first message whose decoded Subject contains `subject` (subjects with Polish letters are encoded words). */
async function waitReceived(email: string, subject: string): Promise<string> {
  const end = Date.now() + 30_000;
  for (;;) {
    for (const raw of mailOf(email)) if ((await simpleParser(raw)).subject?.includes(subject)) return raw;
    if (Date.now() > end) throw new Error(`timed out waiting for ${subject} for ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits until the mail system has moved past everything sent so far (the list service answers LMTP only after handing every copy over). */
const settle = () => settleMail(l, at("znacznik"), 60_000);

/** Messages in the sandbox's outbound Maildir (mail to other servers: a bounce to an outside sender) holding `text`. */
const outboundWith = (text: string) => maildirNew(l.outbound).filter((f) => fs.readFileSync(f, "utf8").includes(text));
const maillog = () => fs.readFileSync(path.join(l.logs, "postfix.log"), "utf8");
const header = (raw: string, name: string) =>
  new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, "im").exec(raw)?.[1]?.replace(/\r?\n[ \t]+/g, " ");
const text = async (raw: string) => (await simpleParser(raw)).text ?? "";
const linkIn = async (raw: string, re: RegExp) => re.exec(await text(raw))?.[0] ?? "";
const members = async (list: string) => listRecord(db, await domain(), await getListOrThrow(db, await domain(), list));

async function seed() {
  await runCommand(db, ["domain", "add", A, "--postmaster-password", PW]);
  for (const name of ["jan", "ewa", "anna", "obcy", "marta", "piotr", "zofia", "karol"])
    await createAccount(db, await domain(), name, { password: PW });
  await createAccount(db, await domain(), "znacznik", {
    password: PW,
    spam_enabled: 0,
    spam_rbl_enabled: 0,
    spam_spf_enabled: 0,
  });
  const subs = [at("jan"), at("ewa")];
  const mods = [at("anna")];
  const d = await domain();
  await createMailingList(db, d, "otwarta", {
    privacy_mode: 0,
    description: "Lista otwarta żółć",
    accounts: subs,
    moderators: mods,
  });
  await createMailingList(db, d, "moderowana", {
    privacy_mode: 1,
    description: "Moderowana",
    accounts: subs,
    moderators: mods,
  });
  await createMailingList(db, d, "kierowana", {
    privacy_mode: 1,
    replyto_catchall: 1,
    replyto_email: at("marta"),
    accounts: [at("jan")],
    moderators: mods,
  });
  await createMailingList(db, d, "zamknieta", { privacy_mode: 2, accounts: subs, moderators: mods });
  await createMailingList(db, d, "odpowiedz1", { replyto_mode: 1, accounts: subs });
  await createMailingList(db, d, "odpowiedz2", { replyto_mode: 2, replyto_email: at("marta"), accounts: subs });
  await createMailingList(db, d, "zapisy", {
    autosubscribe_enabled: 1,
    accounts: [at("jan")],
    subscribe_request_mail_subject: "Chcesz na {{list}}?",
    subscribe_request_mail_body: "Adres {{address}} prosi o zapis na {{description}}. Kliknij: {{confirm_link}}",
    subscribe_mail_subject: "Jesteś na {{list}}",
    subscribe_mail_body: "Witaj {{address}} na {{description}}.",
    unsubscribe_request_mail_subject: "Odchodzisz z {{list}}?",
    unsubscribe_request_mail_body: "Potwierdź wypisanie {{address}}: {{confirm_link}}",
    unsubscribe_mail_subject: "Żegnaj z {{list}}",
    unsubscribe_mail_body: "Adres {{address}} wypisany.",
    description: "Zapisy pocztą",
  });
  await createMailingList(db, d, "domyslna", { autosubscribe_enabled: 1, accounts: [at("jan")] });
  await createMailingList(db, d, "zewnetrzna", {
    autosubscribe_enabled: 1,
    confirm_url: "https://www.example.test/potwierdz?lista=1",
  });
  await createMailingList(db, d, "bezzapisow", { accounts: [at("jan")] });
  // An address of a hosted domain that does not exist: Postfix bounces the copy to the list's VERP address.
  await createMailingList(db, d, "odbicia", { accounts: [at("jan"), at("nikt")] });
}

describe.skipIf(missing.length > 0)("the list service with real Postfix and Dovecot", () => {
  beforeAll(async () => {
    root = newMailTestRoot("mailadmin-lists-");
    process.env.DATABASE_PATH = path.join(root, "db", "mail.db");
    db = await openTestDatabase(process.env.DATABASE_PATH);
    await seed();
    // SPF and DMARC for mail from 127.0.0.1 too: the DMARC-aligned poster's test.
    l = await startMailSystem(root, { authChecksForLoopback: true });
    service = l.sandbox.listService!;
    // The big-list test's subscribers live in a domain whose mail Postfix throws away.
    const transport = run("postconf", ["-c", l.postfix, "-h", "transport_maps"]).trim();
    run("postconf", ["-c", l.postfix, "-e", `transport_maps = ${transport}, inline:{ sink.test=discard: }`]);
    run("postfix", ["-c", l.postfix, "reload"]);
  }, 300_000);

  afterAll(async () => {
    if (process.env.LIST_TEST_LOG) console.log(log().join("\n"));
    await l?.sandbox.stop();
    await closeTestDatabase(db);
    if (root && !process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(root, { recursive: true, force: true });
  });

  describe("who may post", () => {
    it("open list (0): an outsider, a subscriber and a moderator all reach every subscriber", async () => {
      const subjects = {
        obcy: unique("open-outsider"),
        jan: unique("open-subscriber"),
        anna: unique("open-moderator"),
      };
      for (const [who, subject] of Object.entries(subjects)) await post(at(who), "otwarta", subject);
      for (const subject of Object.values(subjects)) {
        await waitReceived(at("jan"), subject);
        await waitReceived(at("ewa"), subject);
      }
      await settle();
      expect(received(at("anna"), subjects.obcy)).toBe(false); // a moderator is not a subscriber
    });

    it("moderated list (1): a moderator's (authenticated) post goes out; a subscriber's and an outsider's are held and each moderator notified", async () => {
      const direct = unique("mod-moderator");
      const bySubscriber = unique("mod-subscriber");
      const byOutsider = unique("mod-outsider");
      await postAs(at("anna"), "moderowana", direct);
      await postAs(at("jan"), "moderowana", bySubscriber);
      await post(at("obcy"), "moderowana", byOutsider);
      await waitReceived(at("ewa"), direct);
      await waitReceived(at("anna"), `Do moderacji: ${bySubscriber}`);
      await waitReceived(at("anna"), `Do moderacji: ${byOutsider}`);
      await settle();
      expect(received(at("ewa"), bySubscriber)).toBe(false);
      expect(received(at("jan"), byOutsider)).toBe(false);
      const held = (await listModeration(db, await domain(), "moderowana")).held.map((h) => h.subject);
      expect(held).toEqual(expect.arrayContaining([bySubscriber, byOutsider]));
    });

    it("a forged From is an outsider's: the moderator's address from another server's envelope is held, not sent", async () => {
      const forged = unique("forged-moderator");
      // The MX port, no login, no DMARC for alpha.test: nothing vouches for the From.
      await post(at("anna"), "moderowana", forged, "", "attacker@evil.example");
      await waitReceived(at("anna"), `Do moderacji: ${forged}`);
      await settle();
      expect(received(at("jan"), forged)).toBe(false);
      expect(received(at("ewa"), forged)).toBe(false);
      expect((await listModeration(db, await domain(), "moderowana")).held.map((h) => h.subject)).toContain(forged);
      // A header the sender wrote itself vouches for nothing: Rspamd removes it.
      const claimed = unique("forged-header");
      await post(at("anna"), "moderowana", claimed, `X-Mailadmin-Poster: ${at("anna")}\n`, "attacker@evil.example");
      await waitReceived(at("anna"), `Do moderacji: ${claimed}`);
      // Logged in as someone else: still not the moderator.
      const other = unique("forged-login");
      const { default: nodemailer } = await import("nodemailer");
      const t = nodemailer.createTransport({
        host: "127.0.0.1",
        port: l.ports.submission,
        secure: false,
        ignoreTLS: true,
        auth: { user: at("obcy"), pass: PW },
      });
      await t.sendMail({
        envelope: { from: at("obcy"), to: [at("moderowana")] },
        raw: message(at("anna"), at("moderowana"), other),
      });
      t.close();
      await waitReceived(at("anna"), `Do moderacji: ${other}`);
      await settle();
      expect(received(at("ewa"), claimed)).toBe(false);
      expect(received(at("ewa"), other)).toBe(false);
    });

    it("a DMARC-aligned pass authenticates the From: another server's moderator posts directly from the MX port", async () => {
      writeDnsRecords(l.dnsRecords, {
        "zewn.test": { TXT: ["v=spf1 ip4:127.0.0.1 -all"] },
        "_dmarc.zewn.test": { TXT: ["v=DMARC1; p=reject"] },
      });
      try {
        await createMailingList(db, await domain(), "dmarcowa", {
          privacy_mode: 1,
          accounts: [at("jan")],
          moderators: ["redaktor@zewn.test"],
        });
        const aligned = unique("dmarc-pass");
        await post("redaktor@zewn.test", "dmarcowa", aligned);
        await waitReceived(at("jan"), aligned);
        expect((await listModeration(db, await domain(), "dmarcowa")).held).toHaveLength(0);
      } finally {
        writeDnsRecords(l.dnsRecords, {});
      }
    });

    it("moderated list with replyto_catchall: a subscriber's post goes to replyto_email only, an outsider's is held", async () => {
      const bySubscriber = unique("catchall-subscriber");
      const byOutsider = unique("catchall-outsider");
      await postAs(at("jan"), "kierowana", bySubscriber);
      await post(at("obcy"), "kierowana", byOutsider);
      await waitReceived(at("marta"), bySubscriber);
      await waitReceived(at("anna"), `Do moderacji: ${byOutsider}`);
      await settle();
      expect(received(at("jan"), bySubscriber)).toBe(false);
      expect(received(at("marta"), byOutsider)).toBe(false);
    });

    it("closed list (2): subscribers and moderators post; an outsider is refused in the SMTP session (5xx at end of DATA), no bounce", async () => {
      const bySubscriber = unique("closed-subscriber");
      const byModerator = unique("closed-moderator");
      const byOutsider = unique("closed-outsider");
      await postAs(at("ewa"), "zamknieta", bySubscriber);
      await postAs(at("anna"), "zamknieta", byModerator);
      // Another server's sender (its bounce would land in the outbound Maildir), and a subscriber's From forged.
      await expect(post("obcy@elsewhere.test", "zamknieta", byOutsider)).rejects.toThrow(
        /^SMTP: 5\d\d 5\.7\.1 Only subscribers may post to this list/,
      );
      const forged = unique("closed-forged");
      await expect(post(at("ewa"), "zamknieta", forged, "", "obcy@elsewhere.test")).rejects.toThrow(
        /^SMTP: 5\d\d 5\.7\.1 Only subscribers/,
      );
      await waitReceived(at("jan"), bySubscriber);
      await waitReceived(at("jan"), byModerator);
      await settle();
      expect(outboundWith(byOutsider)).toEqual([]);
      expect(outboundWith(forged)).toEqual([]);
      expect(received(at("ewa"), byOutsider)).toBe(false);
      expect(received(at("anna"), byOutsider)).toBe(false);
      expect((await listModeration(db, await domain(), "zamknieta")).held).toHaveLength(0);
      // Postfix never queued them: no queue file, so nothing to return.
      expect(maillog()).toMatch(/reject: END-OF-MESSAGE|milter-reject: END-OF-MESSAGE/);
    });
  });

  describe("moderation", () => {
    async function holdOne(what: string) {
      const subject = unique(what);
      await post(at("obcy"), "moderowana", subject);
      const notice = await waitReceived(at("anna"), `Do moderacji: ${subject}`);
      const body = await text(notice);
      const approve = /http:\/\/\S+\/moderate\/\S+\?action=approve/.exec(body)![0];
      const reject = /http:\/\/\S+\/moderate\/\S+\?action=reject/.exec(body)![0];
      return { subject, approve, reject };
    }

    it("the moderator's approve link: a GET (a link scanner) only shows the button; the POST sends the post out", async () => {
      const { subject, approve } = await holdOne("approve-link");
      const page = await fetch(approve);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<button");
      await service.pump();
      await settle();
      expect(received(at("jan"), subject)).toBe(false);
      expect((await listModeration(db, await domain(), "moderowana")).held.some((h) => h.subject === subject)).toBe(
        true,
      );
      const done = await fetch(approve.split("?")[0]!, {
        method: "POST",
        body: new URLSearchParams({ action: "approve" }),
      });
      expect(done.status).toBe(200);
      await waitReceived(at("jan"), subject);
      await waitReceived(at("ewa"), subject);
      expect((await listModeration(db, await domain(), "moderowana")).held.some((h) => h.subject === subject)).toBe(
        false,
      );
      // Used up: the same link again is gone.
      expect((await fetch(approve)).status).toBe(410);
    });

    it("the moderator's reject link deletes the post; nobody receives it", async () => {
      const { subject, reject } = await holdOne("reject-link");
      const done = await fetch(reject.split("?")[0]!, {
        method: "POST",
        body: new URLSearchParams({ action: "reject" }),
      });
      expect(done.status).toBe(200);
      await service.pump();
      await settle();
      expect(received(at("jan"), subject)).toBe(false);
      expect((await listModeration(db, await domain(), "moderowana")).held.some((h) => h.subject === subject)).toBe(
        false,
      );
    });

    it("approval through the panel's service (the database) is picked up and sent", async () => {
      const { subject } = await holdOne("approve-panel");
      const id = (await listModeration(db, await domain(), "moderowana")).held.find((h) => h.subject === subject)!.id;
      await approveHeldPosts(db, await domain(), "moderowana", [id]);
      await waitReceived(at("ewa"), subject);
    });
  });

  describe("headers of every copy", () => {
    it("From is the list with its description, List-* headers, Precedence, the poster in X-Original-From, VERP envelope", async () => {
      const subject = unique("headers");
      await post(
        at("obcy"),
        "otwarta",
        subject,
        "Reply-To: <elsewhere@outside.test>\nList-Id: <other.list.test>\nDKIM-Signature: v=1; a=rsa-sha256; d=x; b=abc\n",
      );
      const raw = await waitReceived(at("jan"), subject);
      expect(header(raw, "From")).toMatch(new RegExp(`^=\\?UTF-8\\?Q\\?Lista_otwarta_.*\\?= <${at("otwarta")}>$`));
      expect((await simpleParser(raw)).from?.value[0]).toEqual({ name: "Lista otwarta żółć", address: at("otwarta") });
      expect(header(raw, "Reply-To")).toBe(`<${at("otwarta")}>`);
      expect(header(raw, "X-Original-From")).toBe(`Nadawca <${at("obcy")}>`);
      expect(header(raw, "List-Id")).toBe(`${header(raw, "From")!.replace(/<.*>$/, "")}<otwarta.${A}>`);
      expect(header(raw, "List-Post")).toBe(`<mailto:${at("otwarta")}>`);
      expect(header(raw, "List-Help")).toBe(`<${publicUrl()}/lists/otwarta%40${A}>`);
      // RFC 8058: the copy's own one-click link (the next describe block checks what it does).
      expect(header(raw, "List-Unsubscribe")).toMatch(
        new RegExp(`^<mailto:${at("otwarta")}\\?subject=unsubscribe>, <${publicUrl()}/unsubscribe/[\\w.-]+>$`),
      );
      expect(header(raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      expect(raw.match(/^List-Unsubscribe:/gim)).toHaveLength(1);
      expect(header(raw, "Precedence")).toBe("list");
      expect(header(raw, "Return-Path")).toBe(`<otwarta-bounces+jan=${A}@${A}>`);
      expect(raw).not.toMatch(/^DKIM-Signature:/im);
      expect(raw.match(/^List-Id:/gim)).toHaveLength(1);
      expect(header(raw, "Subject")).toBe(subject);
    });

    it.each([
      ["printable ASCII", `<security@c.test> "`, `"<security@c.test> \\"" <%s>`],
      ["non-ASCII", `Zespół <security@c.test> "`, `=?UTF-8?Q?`],
    ])(
      "a description (%s) with quotes and angle brackets: From and List-Id parse to the list's own address in Python's email and mailparser",
      async (_kind, description, start) => {
        const name = _kind === "non-ASCII" ? "podrobka2" : "podrobka";
        await createMailingList(db, await domain(), name, { description, accounts: [at("jan")] });
        const subject = unique(`forged-description-${name}`);
        await post(at("obcy"), name, subject);
        const raw = await waitReceived(at("jan"), subject);
        const parsed = await simpleParser(raw);
        expect(parsed.from?.value).toEqual([{ name: description, address: at(name) }]);
        const file = path.join(root, `${name}.eml`);
        fs.writeFileSync(file, raw);
        // Python's parser both ways: the modern header registry and the classic parseaddr mail readers use.
        const py = run("python3", [
          "-c",
          `import email, email.policy, email.utils, json, sys
raw = open(sys.argv[1], "rb").read()
m = email.message_from_bytes(raw, policy=email.policy.default)
a = m["From"].addresses
c = email.message_from_bytes(raw)
print(json.dumps({"modern": [[x.display_name, x.addr_spec] for x in a],
  "classic": email.utils.getaddresses(c.get_all("From")),
  "list_id": email.utils.parseaddr(c["List-Id"]),
  "list_id_name": str(email.header.make_header(email.header.decode_header(c["List-Id"])))}))`,
          file,
        ]);
        const got = JSON.parse(py) as {
          modern: string[][];
          classic: string[][];
          list_id: string[];
          list_id_name: string;
        };
        expect(got.modern).toEqual([[description, at(name)]]);
        expect(got.classic.map((x) => x[1])).toEqual([at(name)]);
        expect(got.list_id[1]).toBe(`${name}.${A}`);
        expect(got.list_id_name.endsWith(`<${name}.${A}>`)).toBe(true);
        // mailparser keeps every List-* header under "list": the id is the list's, and no address came out of the phrase.
        const list = parsed.headers.get("list") as { id?: { id?: string; mail?: string } } | undefined;
        expect(list?.id?.id).toBe(`${name}.${A}`);
        expect(list?.id?.mail).toBeUndefined();
        // How it is written: one quoted-string, or encoded words covering the whole name.
        expect(header(raw, "From")!.startsWith(start.replace("%s", at(name)))).toBe(true);
      },
    );

    it.each([
      ["odpowiedz1", 1, `Nadawca <${at("obcy")}>`],
      ["odpowiedz2", 2, `<${at("marta")}>`],
      ["otwarta", 0, `<${at("otwarta")}>`],
    ])("replyto_mode on %s (%i): Reply-To is %s", async (list, _mode, expected) => {
      const subject = unique(`replyto-${list}`);
      await post(at("obcy"), list, subject);
      const raw = await waitReceived(at("ewa"), subject);
      expect(header(raw, "Reply-To")).toBe(expected);
    });
  });

  describe("one-click unsubscription (RFC 8058)", () => {
    /** The https link of a copy's List-Unsubscribe. */
    const oneClickLink = (raw: string) =>
      /<(http:\/\/[^>]+\/unsubscribe\/[^>]+)>/.exec(header(raw, "List-Unsubscribe") ?? "")?.[1] ?? "";
    const oneClick = (link: string, body: BodyInit = new URLSearchParams({ "List-Unsubscribe": "One-Click" })) =>
      fetch(link, { method: "POST", body });

    it("every copy has its own link; a GET changes nothing; a POST of List-Unsubscribe=One-Click unsubscribes exactly that subscriber", async () => {
      const subs = [at("jan"), at("ewa"), at("zofia"), at("karol")];
      await createMailingList(db, await domain(), "jednoklik", { accounts: subs });
      const subject = unique("one-click");
      await post(at("obcy"), "jednoklik", subject);
      const links = new Map<string, string>();
      for (const who of subs) {
        const raw = await waitReceived(who, subject);
        expect(header(raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
        links.set(who, oneClickLink(raw));
      }
      expect(new Set(links.values()).size).toBe(subs.length);
      for (const link of links.values()) expect(link.startsWith(`${publicUrl()}/unsubscribe/`)).toBe(true);

      // A link scanner (or the subscriber's browser) opening the link: the confirmation page, nobody unsubscribed.
      const page = await fetch(links.get(at("jan"))!);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Potwierdź wypisanie");
      expect(html).toContain('name="List-Unsubscribe" value="One-Click"');
      expect((await members("jednoklik")).accounts).toEqual(subs);

      // A POST without the one-click field does nothing.
      expect((await fetch(links.get(at("ewa"))!, { method: "POST" })).status).toBe(400);
      expect((await members("jednoklik")).accounts).toEqual(subs);

      // The one click (urlencoded, as mail programs send it): at once, only ewa.
      const done = await oneClick(links.get(at("ewa"))!);
      expect(done.status).toBe(200);
      expect((await members("jednoklik")).accounts).toEqual([at("jan"), at("zofia"), at("karol")]);
      await waitReceived(at("ewa"), `Wypisano z listy ${at("jednoklik")}`);
      // multipart/form-data, RFC 8058's SHOULD: the same.
      const form = new FormData();
      form.set("List-Unsubscribe", "One-Click");
      expect((await oneClick(links.get(at("zofia"))!, form)).status).toBe(200);
      expect((await members("jednoklik")).accounts).toEqual([at("jan"), at("karol")]);
      // Again: still done, nothing else changes.
      expect((await oneClick(links.get(at("ewa"))!)).status).toBe(200);
      expect((await members("jednoklik")).accounts).toEqual([at("jan"), at("karol")]);
    });

    it("a forged token, or one of another list or address, is refused", async () => {
      await createMailingList(db, await domain(), "inna-lista", { accounts: [at("jan")] });
      const subject = unique("forged");
      await post(at("obcy"), "jednoklik", subject);
      const link = oneClickLink(await waitReceived(at("jan"), subject));
      const [id, address, mac] = link.split("/").pop()!.split(".");
      const other = String((await getListOrThrow(db, await domain(), "inna-lista")).id);
      const forged = [
        `${other}.${address}.${mac}`, // the same signature for another list
        `${id}.${Buffer.from(at("karol")).toString("base64url")}.${mac}`, // ... for another subscriber
        `${id}.${address}.${mac!.slice(0, -2)}${mac!.endsWith("AA") ? "BB" : "AA"}`, // a changed signature
        `${id}.${address}`,
      ];
      for (const token of forged) {
        expect((await fetch(`${publicUrl()}/unsubscribe/${token}`)).status).toBe(410);
        expect((await oneClick(`${publicUrl()}/unsubscribe/${token}`)).status).toBe(410);
      }
      expect((await members("inna-lista")).accounts).toEqual([at("jan")]);
      expect((await members("jednoklik")).accounts).toEqual([at("jan"), at("karol")]);
    });
  });

  describe("subscription by mail", () => {
    it("SUBSCRIBE with the list's templates: never broadcast; a scanner's GET subscribes nobody; the POST does, with the welcome", async () => {
      const marker = unique("sub");
      await smtpSend(
        l.ports.smtp,
        at("piotr"),
        [at("zapisy")],
        message(at("piotr"), at("zapisy"), "  SubScribe ", "", `${marker}\n`),
      );
      const request = await waitReceived(at("piotr"), `Chcesz na ${at("zapisy")}?`);
      const body = await text(request);
      expect(body).toContain(`Adres ${at("piotr")} prosi o zapis na Zapisy pocztą. Kliknij: ${publicUrl()}/confirm/`);
      const link = await linkIn(request, /http:\/\/\S+\/confirm\/[\w-]+/);
      await settle();
      expect(mailOf(at("jan")).some((m) => m.includes(marker))).toBe(false);
      expect((await members("zapisy")).accounts).not.toContain(at("piotr"));

      const scanned = await fetch(link);
      expect(scanned.status).toBe(200);
      expect(await scanned.text()).toContain("Potwierdź zapis");
      expect((await members("zapisy")).accounts).not.toContain(at("piotr"));

      expect((await fetch(link, { method: "POST" })).status).toBe(200);
      expect((await members("zapisy")).accounts).toContain(at("piotr"));
      const welcome = await waitReceived(at("piotr"), `Jesteś na ${at("zapisy")}`);
      expect(await text(welcome)).toContain(`Witaj ${at("piotr")} na Zapisy pocztą.`);
      // Single use.
      expect((await fetch(link, { method: "POST" })).status).toBe(410);
    });

    it("UNSUBSCRIBE with the list's templates", async () => {
      await smtpSend(l.ports.smtp, at("jan"), [at("zapisy")], message(at("jan"), at("zapisy"), "unsubscribe"));
      const request = await waitReceived(at("jan"), `Odchodzisz z ${at("zapisy")}?`);
      const link = await linkIn(request, /http:\/\/\S+\/confirm\/[\w-]+/);
      expect((await members("zapisy")).accounts).toContain(at("jan"));
      expect((await fetch(link, { method: "POST" })).status).toBe(200);
      expect((await members("zapisy")).accounts).not.toContain(at("jan"));
      await waitReceived(at("jan"), `Żegnaj z ${at("zapisy")}`);
    });

    it("SUBSCRIBE and UNSUBSCRIBE with the Polish defaults", async () => {
      await smtpSend(l.ports.smtp, at("zofia"), [at("domyslna")], message(at("zofia"), at("domyslna"), "SUBSCRIBE"));
      const request = await waitReceived(at("zofia"), `Potwierdź zapis na listę ${at("domyslna")}`);
      expect((await fetch(await linkIn(request, /http:\/\/\S+\/confirm\/[\w-]+/), { method: "POST" })).status).toBe(
        200,
      );
      await waitReceived(at("zofia"), `Witamy na liście ${at("domyslna")}`);
      expect((await members("domyslna")).accounts).toContain(at("zofia"));
      await smtpSend(l.ports.smtp, at("zofia"), [at("domyslna")], message(at("zofia"), at("domyslna"), "UNSUBSCRIBE"));
      const again = await waitReceived(at("zofia"), `Potwierdź wypisanie z listy ${at("domyslna")}`);
      expect((await fetch(await linkIn(again, /http:\/\/\S+\/confirm\/[\w-]+/), { method: "POST" })).status).toBe(200);
      await waitReceived(at("zofia"), `Wypisano z listy ${at("domyslna")}`);
      expect((await members("domyslna")).accounts).not.toContain(at("zofia"));
    });

    it("confirm_url: the link is the list's own page with the token; its POST to this service confirms", async () => {
      await smtpSend(
        l.ports.smtp,
        at("karol"),
        [at("zewnetrzna")],
        message(at("karol"), at("zewnetrzna"), "subscribe"),
      );
      const request = await waitReceived(at("karol"), `Potwierdź zapis na listę ${at("zewnetrzna")}`);
      const link = await linkIn(request, /https:\/\/www\.example\.test\/potwierdz\?lista=1&token=[\w-]+/);
      expect(link).not.toBe("");
      const token = new URL(link).searchParams.get("token")!;
      expect(
        (await fetch(`${publicUrl()}/confirm`, { method: "POST", body: new URLSearchParams({ token }) })).status,
      ).toBe(200);
      expect((await members("zewnetrzna")).accounts).toEqual([at("karol")]);
    });

    it("an expired token subscribes nobody", async () => {
      const list = await getListOrThrow(db, await domain(), "domyslna");
      const made = await listStore(db).requestToken(list.id, "subscribe", at("karol"), -1000);
      const token = "token" in made ? made.token : "";
      expect((await fetch(`${publicUrl()}/confirm/${token}`)).status).toBe(410);
      expect((await fetch(`${publicUrl()}/confirm/${token}`, { method: "POST" })).status).toBe(410);
      expect((await members("domyslna")).accounts).not.toContain(at("karol"));
    });

    it("SUBSCRIBE to a list without autosubscribe is refused in the SMTP session (5xx at end of DATA), not broadcast, no bounce", async () => {
      const marker = unique("nosub");
      await expect(
        smtpSend(
          l.ports.smtp,
          "karol@elsewhere.test",
          [at("bezzapisow")],
          message("karol@elsewhere.test", at("bezzapisow"), "subscribe", "", `${marker}\n`),
        ),
      ).rejects.toThrow(/^SMTP: 5\d\d 5\.7\.1 This list does not take subscriptions by mail/);
      await settle();
      expect(outboundWith(marker)).toEqual([]);
      expect(mailOf(at("jan")).some((m) => m.includes(marker))).toBe(false);
    });
  });

  describe("the list's page (List-Help): confirmation requests are limited", () => {
    const ask = (list: string, address: string, action = "subscribe") =>
      fetch(`${publicUrl()}/lists/${encodeURIComponent(at(list))}`, {
        method: "POST",
        body: new URLSearchParams({ address, action }),
      });
    const refusal = async (res: Response, key: "listRequestPending" | "listRequestBudget") => {
      expect(res.status).toBe(errorCatalog[key].status);
      const html = await res.text();
      expect(html).toContain(`data-code="${errorCatalog[key].code}"`);
      expect(html).toContain(errorCatalog[key].message);
    };

    it("40 requests for one address at once send one mail; the others are refused with the catalog's error", async () => {
      await createMailingList(db, await domain(), "strona", { autosubscribe_enabled: 1, description: "Strona listy" });
      const answers = await Promise.all(Array.from({ length: 40 }, () => ask("strona", at("marta"))));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of answers.filter((r) => r.status !== 200)) await refusal(r, "listRequestPending");
      await waitReceived(at("marta"), `Potwierdź zapis na listę ${at("strona")}`);
      await settle();
      const requests = await Promise.all(mailOf(at("marta")).map((raw) => simpleParser(raw)));
      expect(requests.filter((m) => m.subject === `Potwierdź zapis na listę ${at("strona")}`)).toHaveLength(1);
      // An unsubscription request is a request too: still pending for this address and list.
      await refusal(await ask("strona", at("marta"), "unsubscribe"), "listRequestPending");
    });

    it("one client address gets a few requests an hour over all lists, then the catalog's error", async () => {
      // The first test's request used one of the five.
      for (const n of [1, 2, 3, 4]) expect((await ask("strona", `adres${n}@sink.test`)).status).toBe(200);
      await refusal(await ask("strona", "adres5@sink.test"), "listRequestBudget");
      await refusal(await ask("zapisy", "adres6@sink.test"), "listRequestBudget");
      await settle();
    });
  });

  describe("bounces and loops", () => {
    it("a bounce comes back to the VERP address and is recorded for that subscriber", async () => {
      await post(at("obcy"), "odbicia", unique("bounce"));
      const bounces = await waitFor(
        "the bounce row",
        async () => {
          const rows = (await listModeration(db, await domain(), "odbicia")).bounces;
          return rows.length ? rows : undefined;
        },
        30_000,
      );
      expect(bounces).toEqual([expect.objectContaining({ address: at("nikt"), count: 1 })]);
      expect(bounces[0]!.last_reason).toMatch(/550 5\.1\.1 <nikt@alpha\.test>/);
    });

    it.each([
      ["this list's List-Id", `List-Id: Lista <otwarta.${A}>\n`, "loop (this list's List-Id)", undefined],
      ["Auto-Submitted", "Auto-Submitted: auto-replied\n", "Auto-Submitted", undefined],
      ["a bounce address", "", "sent from a bounce address", `inna-bounces+x=y.test@${A}`],
    ])("a message carrying %s is not sent to the list again", async (_what, extra, reason, envelope) => {
      const subject = unique("loop");
      await post(at("obcy"), "otwarta", subject, extra, envelope);
      await waitFor("the discard in the log", () => maillog().includes(`Discarded: ${reason}`), 30_000);
      await settle();
      expect(received(at("jan"), subject)).toBe(false);
      expect(received(at("ewa"), subject)).toBe(false);
    });
  });

  it("deleting an account removes it from the domain's lists as subscriber and moderator", async () => {
    await createAccount(db, await domain(), "odchodzi", { password: PW });
    await updateMailingLists(db, await domain(), ["otwarta", "moderowana"], {
      accounts: [at("jan"), at("ewa"), at("odchodzi")],
      moderators: [at("anna"), at("odchodzi")],
    });
    await deleteAccounts(db, await domain(), ["odchodzi"]);
    for (const list of ["otwarta", "moderowana"]) {
      expect((await members(list)).accounts).toEqual([at("jan"), at("ewa")]);
      expect((await members(list)).moderators).toEqual([at("anna")]);
    }
  });

  // On PostgreSQL (`npm run test:mail:pg`) only with MAIL_PG_BIG_LIST=1: its minutes are Postfix's queue, not the
  // database's (docs/lists.md, Tests).
  it.skipIf(mailTestsOnPostgres() && !process.env.MAIL_PG_BIG_LIST)(
    "a post to 10,000 subscribers is handed to Postfix in bounded memory",
    async () => {
      const d = await domain();
      const accounts = Array.from({ length: 10_000 }, (_, i) => `s${String(i).padStart(5, "0")}@sink.test`);
      await createMailingList(db, d, "duza", { accounts });
      const body = `${"Długa linia treści listu do wielu odbiorców. ".repeat(20)}\n`.repeat(200); // ~190 KB
      const subject = unique("big");
      const rss: number[] = [];
      const before = process.memoryUsage().rss;
      const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 50);
      const start = Date.now();
      await smtpSend(l.ports.smtp, at("obcy"), [at("duza")], message(at("obcy"), at("duza"), subject, "", body));
      // 10,000 messages of ~190 KB each through Postfix's queue (one per subscriber): minutes on a busy host.
      await waitFor(
        "the big post handed over",
        () => log().find((x) => x === `${at("duza")}: distributed to 10000 subscribers`),
        1_000_000,
      );
      const seconds = (Date.now() - start) / 1000;
      clearInterval(sampler);
      const peakGrowthMb = (Math.max(...rss, before) - before) / 1024 / 1024;
      console.log(
        `10,000-subscriber post (~190 KB) handed to Postfix in ${seconds.toFixed(1)} s; peak RSS growth ${peakGrowthMb.toFixed(1)} MB`,
      );
      expect(peakGrowthMb).toBeLessThan(100);
      // Postfix had its answer at once (the post stored), not after the copies: its LMTP timeout never applies.
      expect(maillog()).toContain("status=sent (250 2.0.0 Queued for 10000 subscribers)");
      // One message per subscriber (its own List-Unsubscribe), each with its own VERP sender.
      await waitFor(
        "10,000 submissions in the log",
        () =>
          maillog().match(/from=<duza-bounces\+s\d{5}=sink\.test@alpha\.test>, size=\d+, nrcpt=1 /g)?.length === 10_000,
        120_000,
      );
    },
    1_200_000,
  );
});
