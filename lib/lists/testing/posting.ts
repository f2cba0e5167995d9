// List cases: who may post, and moderation.
import { describe, expect, it } from "vitest";
import { createMailingList, getListOrThrow } from "@/lib/server/resources/mailing-lists";
import { createAccount } from "@/lib/server/resources/accounts";
import { createAlias } from "@/lib/server/resources/aliases";
import { approveHeldPosts, listModeration } from "@/lib/server/resources/list-moderation";
import { writeDnsRecords } from "@/lib/mailserver/sandbox/dns-server";
import { MAX_HELD_POSTS } from "../admission";
import { listStore, newToken, sha256 } from "../store";
import {
  at,
  PW,
  l,
  db,
  log,
  service,
  domain,
  unique,
  message,
  post,
  postAs,
  received,
  waitReceived,
  settle,
  outboundWith,
  maillog,
  text,
  trace,
} from "./harness";
import { smtpSend, smtpTry, waitFor } from "@/lib/mailserver/testing/mail-daemons";

export function postingCases() {
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
      // Raw UTF-8 in the Subject (RFC 6532, as many mail programs send it): the notice and the queue show it as written.
      const byOutsider = unique("mod-outsider-zażółć");
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

    it(`a moderated list keeps at most ${MAX_HELD_POSTS} posts for its moderators: the next is refused in the SMTP session, nobody told`, async () => {
      await createMailingList(db, await domain(), "pelna", { privacy_mode: 1, moderators: [at("anna")] });
      const list = await getListOrThrow(db, await domain(), "pelna");
      const store = listStore(db);
      for (let i = 0; i < MAX_HELD_POSTS; i++)
        await store.hold(list.id, at("obcy"), `stary ${i}`, Buffer.from("x"), sha256(newToken()));
      const subject = unique("held-full");
      await expect(post(at("obcy"), "pelna", subject)).rejects.toThrow(
        /^SMTP: 5\d\d 5\.7\.1 Too many posts of this list are waiting for its moderators/,
      );
      await settle();
      expect(received(at("anna"), `Do moderacji: ${subject}`)).toBe(false);
      expect(outboundWith(subject)).toEqual([]);
      // A decision frees a place: the next post is held again.
      await store.deleteHeld((await listModeration(db, await domain(), "pelna")).held[0]!.id);
      const next = unique("held-again");
      await post(at("obcy"), "pelna", next);
      await waitReceived(at("anna"), `Do moderacji: ${next}`);
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
      // Logged in as someone else with the moderator's From: refused in the session (a signed-in user's header From
      // is one of its own addresses); before, it was held like the others.
      const other = unique("forged-login");
      const { default: nodemailer } = await import("nodemailer");
      const t = nodemailer.createTransport({
        host: "127.0.0.1",
        port: l.ports.submission,
        secure: false,
        ignoreTLS: true,
        auth: { user: at("obcy"), pass: PW },
      });
      try {
        await expect(
          t.sendMail({
            envelope: { from: at("obcy"), to: [at("moderowana")] },
            raw: message(at("anna"), at("moderowana"), other),
          }),
        ).rejects.toMatchObject({ responseCode: 554 });
      } finally {
        t.close();
      }
      await settle();
      expect(received(at("anna"), `Do moderacji: ${other}`)).toBe(false);
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

    it("what only reaches a list through an alias or a forward-only account is judged as at the list: refused in the SMTP session, not dropped after acceptance", async () => {
      const d = await domain();
      const drops = () => log().filter((line) => line.includes("dropped after acceptance"));
      const dropsBefore = drops().length;
      await createAlias(db, d, "do-zamknietej", { target: at("zamknieta") });
      await createAccount(db, d, "przekazuje", { password: PW, forwards: [at("zamknieta")], keep_mail: 0 });
      await createAlias(db, d, "do-bezzapisow", { target: at("bezzapisow") });
      // An account that keeps its copy still takes the message; only its forward to the closed list is not sent.
      await createAccount(db, d, "zachowuje", { password: PW, forwards: [at("zamknieta")], keep_mail: 1 });
      const viaAlias = unique("alias-closed");
      const viaForward = unique("forward-closed");
      const subscribe = "SUBSCRIBE";
      const send = (to: string, subject: string) =>
        smtpSend(l.ports.smtp, "obcy@elsewhere.test", [to], message("obcy@elsewhere.test", to, subject));
      await expect(send(at("do-zamknietej"), viaAlias)).rejects.toThrow(
        /^SMTP: 5\d\d 5\.7\.1 Only subscribers may post to this list/,
      );
      await expect(send(at("przekazuje"), viaForward)).rejects.toThrow(
        /^SMTP: 5\d\d 5\.7\.1 Only subscribers may post to this list/,
      );
      await expect(send(at("do-bezzapisow"), subscribe)).rejects.toThrow(
        /^SMTP: 5\d\d 5\.7\.1 This list does not take subscriptions by mail/,
      );
      const kept = unique("keeps-copy");
      await send(at("zachowuje"), kept);
      // A subscriber's authenticated post through the alias goes out, as it does to the list's own address.
      const bySubscriber = unique("alias-closed-subscriber");
      await postAs(at("ewa"), "do-zamknietej", bySubscriber);
      await waitReceived(at("zachowuje"), kept);
      await waitReceived(at("jan"), bySubscriber);
      await settle();
      // Only the forward of the account that kept its copy met the list after acceptance (and was not sent).
      expect(drops().slice(dropsBefore)).toEqual([
        `${at("zamknieta")}: post from obcy@elsewhere.test dropped after acceptance (5.7.1 Only subscribers may post to this list)`,
      ]);
      expect(received(at("jan"), viaAlias)).toBe(false);
      expect(received(at("jan"), viaForward)).toBe(false);
      expect(outboundWith(viaAlias)).toEqual([]);
      expect(outboundWith(viaForward)).toEqual([]);
    });

    it("a post scoring as spam is refused in the SMTP session (554 5.7.1), from an outsider or a signed-in subscriber, also through an alias; a clean post goes to every subscriber, the outside one too", async () => {
      const d = await domain();
      await createMailingList(db, d, "zewnetrzni", { accounts: [at("jan"), "daleko@elsewhere.test"] });
      await createAlias(db, d, "do-zewnetrznych", { target: at("zewnetrzni") });
      const spamHeader = "X-Sandbox-Spam-Score: 25\n";
      const fromOutsider = unique("spam-outsider");
      const viaAlias = unique("spam-alias");
      const fromSubscriber = unique("spam-subscriber");
      const clean = unique("clean-post");
      await expect(post("obcy@elsewhere.test", "zewnetrzni", fromOutsider, spamHeader)).rejects.toThrow(
        /^SMTP: 554 5\.7\.1 zewnetrzni@alpha\.test is a mailing list and this message scores as spam \(\d+\.\d\d, spam from 9\.00 on\): spam is not sent to a list's subscribers/,
      );
      await expect(
        smtpSend(
          l.ports.smtp,
          "obcy@elsewhere.test",
          [at("do-zewnetrznych")],
          message("obcy@elsewhere.test", at("do-zewnetrznych"), viaAlias, spamHeader),
        ),
      ).rejects.toThrow(
        /^SMTP: 554 5\.7\.1 do-zewnetrznych@alpha\.test leads to the mailing list zewnetrzni@alpha\.test /,
      );
      await expect(
        smtpTry(
          l.ports.submission,
          at("jan"),
          [at("zewnetrzni")],
          message(at("jan"), at("zewnetrzni"), fromSubscriber, spamHeader),
          { user: at("jan"), pass: PW },
        ),
      ).rejects.toThrow(/554 5\.7\.1 zewnetrzni@alpha\.test is a mailing list and this message scores as spam/);
      await post("obcy@elsewhere.test", "zewnetrzni", clean);
      await waitReceived(at("jan"), clean);
      await settle();
      expect(outboundWith(clean)).toHaveLength(1);
      for (const subject of [fromOutsider, viaAlias, fromSubscriber]) {
        expect(received(at("jan"), subject)).toBe(false);
        expect(outboundWith(subject)).toEqual([]);
      }
    });

    it("a header block too large for the list service is refused in the SMTP session; met after acceptance it is dropped, not retried and returned", async () => {
      const fields = (kb: number) =>
        Array.from({ length: kb * 10 }, (_, n) => `X-Wypelniacz-${n}: ${"w".repeat(80)}\n`).join("");
      const big = unique("big-header");
      const answer = await smtpSend(
        l.ports.smtp,
        "obcy@elsewhere.test",
        [at("otwarta")],
        message("obcy@elsewhere.test", at("otwarta"), big, fields(600)),
      ).then(
        () => "accepted",
        (err: Error) => err.message,
      );
      expect(answer, trace(big.replace(/\W/g, ""))).toMatch(
        /^SMTP: 554 5\.7\.1 The header of this message is too large for a mailing list/,
      );
      // Past the service's 1 MB, through an account that keeps a copy and forwards to the list: the session judges
      // only recipients that lead to lists alone, so the forward meets the list after acceptance. Before, the service
      // answered 451 at every retry: days in Postfix's queue, then a bounce to the sender.
      await createAccount(db, await domain(), "przekazuje-naglowki", {
        password: PW,
        forwards: [at("otwarta")],
        keep_mail: 1,
      });
      const bigger = unique("bigger-header");
      await smtpSend(
        l.ports.smtp,
        "obcy@elsewhere.test",
        [at("przekazuje-naglowki")],
        message("obcy@elsewhere.test", at("przekazuje-naglowki"), bigger, fields(1100)),
      );
      await waitFor("the forward dropped by the list service", () =>
        log().some((line) =>
          line.startsWith(`${at("otwarta")}: post from obcy@elsewhere.test dropped after acceptance (5.7.1 The header`),
        ),
      );
      await settle();
      expect(log().filter((line) => line.includes("temporary failure: Max header size"))).toEqual([]);
      expect(received(at("jan"), big)).toBe(false);
      expect(received(at("jan"), bigger)).toBe(false);
      expect(outboundWith(big)).toEqual([]);
      expect(outboundWith(bigger)).toEqual([]);
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

    it("a subject with encoded line breaks stays on the notice's one Temat line: the poster writes no lines of the moderators' notice", async () => {
      const marker = unique("spoof");
      // "<marker>\r\n\u0085\u202e\r\nZatwierdź: http://evil.test/approve" once the encoded word is decoded (U+0085
      // breaks a line too; U+202E would reorder the rest).
      const subject = `=?utf-8?q?${marker}=0D=0A=C2=85=E2=80=AE=0D=0AZatwierd=C5=BA=3A_http=3A//evil.test/approve?=`;
      await post(at("obcy"), "moderowana", subject);
      const notice = await waitReceived(at("anna"), `Do moderacji: ${marker}`);
      const lines = (await text(notice)).split("\n");
      expect(lines).toContain(`Temat: ${marker} Zatwierdź: http://evil.test/approve`);
      // Before: "Temat: <marker>", an empty line, then the poster's own "Zatwierdź: http://evil.test/approve" line.
      expect(lines.filter((line) => line.includes("evil.test"))).toHaveLength(1);
      expect(lines.some((line) => line.startsWith("Zatwierdź: http://evil"))).toBe(false);
    });

    it("approval through the panel's service (the database) is picked up and sent", async () => {
      const { subject } = await holdOne("approve-panel");
      const id = (await listModeration(db, await domain(), "moderowana")).held.find((h) => h.subject === subject)!.id;
      await approveHeldPosts(db, await domain(), "moderowana", [id]);
      await waitReceived(at("ewa"), subject);
    });
  });
}
