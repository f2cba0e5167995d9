// Mailing lists end to end on the sandbox (lib/mailserver/sandbox): real Postfix, Dovecot, Rspamd and Redis
// configured by `mailserver config`, the list service as the sandbox's component listening on LMTP, mail sent
// over SMTP to the MX port and read from the subscribers' maildirs.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount, deleteAccounts } from "@/lib/server/resources/accounts";
import { createMailingList, updateMailingLists } from "@/lib/server/resources/mailing-lists";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { runCommand } from "@/lib/cli/commands";
import { listModeration } from "@/lib/server/resources/list-moderation";
import {
  mailTestsOnPostgres,
  missingMailPackages,
  smtpSend,
  smtpTry,
  waitFor,
} from "@/lib/mailserver/testing/mail-daemons";
import {
  A,
  at,
  PW,
  l,
  db,
  log,
  domain,
  unique,
  message,
  post,
  received,
  settle,
  maillog,
  outboundWith,
  verpOf,
  waitReceived,
  members,
  setUp,
  tearDown,
} from "./testing/harness";

import { postingCases } from "./testing/posting";
import { headersAndUnsubscribeCases } from "./testing/headers-unsubscribe";
import { subscriptionCases } from "./testing/subscription";

vi.mock("server-only", () => ({}));

const missing = missingMailPackages();
if (missing.length)
  console.warn(`list tests SKIPPED: Debian packages missing: ${missing.join(" ")} (bash .ci/system-packages.sh)`);

describe.skipIf(missing.length > 0)("the list service with real Postfix and Dovecot", () => {
  beforeAll(setUp, 300_000);
  afterAll(tearDown);

  postingCases();
  headersAndUnsubscribeCases();
  subscriptionCases();

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

    it("a bounce address records only a delivery report (null sender) about a subscriber", async () => {
      const report = (to: string) =>
        `From: <x@elsewhere.test>\nTo: <${to}>\nSubject: Undelivered\n\nDiagnostic-Code: smtp; 550 made up\n`;
      // Anyone's mail to a subscriber's bounce address, and the null sender's about an address that is no subscriber.
      const forged = await verpOf("odbicia", at("jan"));
      const stranger = await verpOf("odbicia", "kto@elsewhere.test");
      await smtpSend(l.ports.smtp, at("obcy"), [forged], report(forged));
      await smtpSend(l.ports.smtp, "", [stranger], report(stranger));
      await waitFor("both answered", () => {
        const m = maillog();
        return m.includes("Discarded: not a delivery report") && m.includes("Discarded: not a subscriber");
      });
      const bounces = (await listModeration(db, await domain(), "odbicia")).bounces.map((b) => b.address);
      expect(bounces).not.toContain(at("jan"));
      expect(bounces).not.toContain("kto@elsewhere.test");
    });

    it("a list's bounce address not of the form <list>-bounces+<user>=<host> is refused at RCPT, and nothing bounces", async () => {
      const malformed = ["foo", "", "=", "a=", "=b"].map((rest) => `odbicia-bounces+${rest}@${A}`);
      const wellFormed = await verpOf("odbicia", "kto@elsewhere.test");
      const subject = unique("malformed-verp");
      const outcome = await smtpTry(
        l.ports.smtp,
        "obcy@elsewhere.test",
        [...malformed, wellFormed],
        message("obcy@elsewhere.test", wellFormed, subject),
      );
      expect(outcome.refused.map((r) => [r.address, r.code])).toEqual(malformed.map((a) => [a, 550]));
      // The policy service's signature check answers before Postfix's lookup (docs/lists.md, How mail reaches it).
      for (const r of outcome.refused) expect(r.response).toMatch(/5\.7\.1 .*not given out by this list/);
      expect(outcome.accepted).toEqual([wellFormed]);
      await waitFor("the well-formed one answered", () => maillog().includes("Discarded: not a delivery report"));
      await settle();
      // Accepted and then refused by the list service ("550 5.1.1 No such list") would return it to the sender.
      expect(outboundWith(subject)).toEqual([]);
      expect(maillog()).not.toContain("No such list");
    });

    it("a bounce address without this list's signature for that subscriber is refused at RCPT; a signed one counts", async () => {
      const signed = await verpOf("odbicia", at("jan"));
      const sig = (address: string) => /-bounces\+([a-z2-7]{16})=/.exec(address)![1]!;
      const forged = [
        // The unsigned form every copy carried before.
        `odbicia-bounces+jan=${A}@${A}`,
        // Another subscriber's signature, another list's, and one character changed.
        `odbicia-bounces+${sig(await verpOf("odbicia", at("nikt")))}=jan=${A}@${A}`,
        `odbicia-bounces+${sig(await verpOf("otwarta", at("jan")))}=jan=${A}@${A}`,
        signed.replace(/\+(.)/, (_m, c: string) => `+${c === "a" ? "b" : "a"}`),
      ];
      const subject = unique("signed-verp");
      const report = `From: <mailer-daemon@elsewhere.test>\nTo: <${signed}>\nSubject: ${subject}\n\nStatus: 5.1.1\nDiagnostic-Code: smtp; 550 5.1.1 ${subject}\n`;
      const upper = signed.replace(/^[^@]+/, (local) => local.toUpperCase());
      const outcome = await smtpTry(l.ports.smtp, "", [...forged, upper], report);
      expect(outcome.refused.map((r) => [r.address, r.code])).toEqual(forged.map((a) => [a, 550]));
      for (const r of outcome.refused) expect(r.response).toMatch(/5\.7\.1 .*not given out by this list/);
      // Local parts are case-folded on the way: the signature is lowercase, and an upper-case copy still matches.
      expect(outcome.accepted).toEqual([upper]);
      const bounce = await waitFor(
        "the signed bounce recorded",
        async () =>
          (await listModeration(db, await domain(), "odbicia")).bounces.find(
            (b) => b.address === at("jan") && b.last_reason.includes(subject),
          ),
        30_000,
      );
      expect(bounce.count).toBe(1);
      await settle();
      expect(outboundWith(subject)).toEqual([]);
    });

    it("a subscriber whose own black list refuses the list gets no copy, and it is not counted as a bounce", async () => {
      // Another hosted domain's account that black-lists the list's domain, beside one that does not.
      await runCommand(db, ["domain", "add", "beta.test", "--postmaster-password", PW]);
      const beta = await getDomainOrThrow(db, "beta.test");
      await createAccount(db, beta, "niechce", { password: PW, spam_black_list: [A] });
      await createAccount(db, beta, "chce", { password: PW });
      await createMailingList(db, await domain(), "czarna", {
        accounts: [at("jan"), "niechce@beta.test", "chce@beta.test"],
      });
      const subject = unique("czarna");
      await post(at("obcy"), "czarna", subject);
      await waitReceived(at("jan"), subject);
      await waitReceived("chce@beta.test", subject);
      await settle();
      expect(received("niechce@beta.test", subject)).toBe(false);
      expect(log()).toContain(
        `${at("czarna")}: no copy for niechce@beta.test: its black list refuses the list (not a bounce)`,
      );
      expect((await listModeration(db, await domain(), "czarna")).bounces).toEqual([]);
      // Offered where Postfix asks the policy service (the MX; LISTS_SMTP's default 127.0.0.1:25 in production), the
      // copy is refused at RCPT: what the service recorded as a bounce before it asked the black list itself.
      const verp = await verpOf("czarna", "niechce@beta.test");
      const offered = await smtpTry(
        l.ports.smtp,
        verp,
        ["niechce@beta.test"],
        message(verp, "niechce@beta.test", subject),
      );
      expect(offered.refused.map((r) => r.code)).toEqual([554]);
    });

    it.each([
      ["this list's List-Id", `List-Id: Lista <otwarta.${A}>\n`, "loop (this list's List-Id)", undefined],
      ["Auto-Submitted", "Auto-Submitted: auto-replied\n", "Auto-Submitted", undefined],
      ["a bounce address", "", "sent from a bounce address", `inna-bounces+x=y.test@${A}`],
    ])("a message carrying %s is not sent to the list again", async (_what, extra, reason, envelope) => {
      const subject = unique("loop");
      await post(at("obcy"), "otwarta", subject, extra, envelope);
      await waitFor("the discard in the log", () => maillog().includes(`Discarded: ${reason}`), 30_000);
      // The list service's own log says so too (a list subscribed to another list gets nothing: this is why).
      expect(log()).toContain(`${at("otwarta")}: post from ${envelope ?? at("obcy")} discarded (${reason})`);
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

  // 2,000 copies of ~190 KB would be 380 MB held at once; the limit is 100 MB. The count is a batch size (500) several
  // times over; LISTS_BIG_POST=10000 posts to 10,000 (minutes of Postfix's queue: docs/lists.md). On PostgreSQL
  // (`npm run test:mail:pg`) only with MAIL_PG_BIG_LIST=1: its time is Postfix's, not the database's.
  const bigPost = Number(process.env.LISTS_BIG_POST ?? 2_000);
  it.skipIf(mailTestsOnPostgres() && !process.env.MAIL_PG_BIG_LIST)(
    `a post to ${bigPost.toLocaleString("en")} subscribers is handed to Postfix in bounded memory`,
    async () => {
      const d = await domain();
      const accounts = Array.from({ length: bigPost }, (_, i) => `s${String(i).padStart(5, "0")}@sink.test`);
      await createMailingList(db, d, "duza", { accounts });
      const body = `${"Długa linia treści listu do wielu odbiorców. ".repeat(20)}\n`.repeat(200); // ~190 KB
      const subject = unique("big");
      const rss: number[] = [];
      const before = process.memoryUsage().rss;
      const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 50);
      const start = Date.now();
      await smtpSend(l.ports.smtp, at("obcy"), [at("duza")], message(at("obcy"), at("duza"), subject, "", body));
      // One message of ~190 KB per subscriber through Postfix's queue: minutes for 10,000 on a busy host.
      await waitFor(
        "the big post handed over",
        () => log().find((x) => x === `${at("duza")}: distributed to ${bigPost} subscribers`),
        1_000_000,
      );
      const seconds = (Date.now() - start) / 1000;
      clearInterval(sampler);
      const peakGrowthMb = (Math.max(...rss, before) - before) / 1024 / 1024;
      console.log(
        `${bigPost}-subscriber post (~190 KB) handed to Postfix in ${seconds.toFixed(1)} s; peak RSS growth ${peakGrowthMb.toFixed(1)} MB`,
      );
      expect(peakGrowthMb).toBeLessThan(100);
      // Postfix had its answer at once (the post stored), not after the copies: its LMTP timeout never applies.
      expect(maillog()).toContain(`status=sent (250 2.0.0 Queued for ${bigPost} subscribers)`);
      // One message per subscriber (its own List-Unsubscribe), each with its own VERP sender.
      await waitFor(
        `${bigPost} submissions in the log`,
        () =>
          maillog().match(/from=<duza-bounces\+[a-z2-7]{16}=s\d{5}=sink\.test@alpha\.test>, size=\d+, nrcpt=1 /g)
            ?.length === bigPost,
        120_000,
      );
    },
    1_200_000,
  );
});
