// Delivery cases: SMS notifications by e-mail and over the HTTP gateway.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { accountRecord, createAccount } from "@/lib/server/resources/accounts";
import { decryptSmsPassword } from "../../sms/secret";
import { eventsLogMark, readMessages, sandboxLog, waitFor } from "../mail-daemons";
import { A, PW, l, db, gateway, alpha, row, set, smtpSend, outbound, message, settle, smsRows } from "./harness";

export function smsCases() {
  describe("SMS notifications", () => {
    const sentTo = (address: string) => outbound().filter((m) => m.to.includes(address));
    const text = (raw: string) =>
      raw
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join("\n")
        .trim();

    it("the record never shows the SMS password; it is stored encrypted", async () => {
      const r = await accountRecord(db, await alpha(), await row("smshttp"));
      expect(r.sms_password_1).toBe("");
      expect((await row("smshttp")).smsPassword1).toMatch(/^enc1:/);
      expect(decryptSmsPassword((await row("smshttp")).smsPassword1)).toBe("Bramka-tajne1");
      // Sending the record back whole keeps the stored password.
      const { aliases: _aliases, ...back } = r;
      void _aliases;
      await set("smshttp", back);
      expect(decryptSmsPassword((await row("smshttp")).smsPassword1)).toBe("Bramka-tajne1");
    });

    it("sms_send_to 1 with an e-mail address, sms_cnt 1: one e-mail with subject and body", async () => {
      await smtpSend(
        "nadawca@far.test",
        [`smsmail@${A}`],
        message("nadawca@far.test", `smsmail@${A}`, "Zażółć gęślą jaźń", "Pierwsza linia.\nDruga linia.\n"),
      );
      await waitFor("the notification", () => sentTo("bramka@outside.test").length === 1, 20_000);
      expect(text(sentTo("bramka@outside.test")[0]!.raw)).toBe("Zazolc gesla jazn: Pierwsza linia. Druga linia.");
      // It leaves the host: no header of this host's own (mail-server.md, "Internal headers").
      expect(sentTo("bramka@outside.test")[0]!.raw).not.toMatch(/^X-Mailadmin/im);
      expect((await smsRows("smsmail")).map((r) => r.status)).toEqual(["sent"]);
    });

    it("a number with an operator code (21) goes to that operator's gateway, sms_cnt 0: the subject only; the second number to its own code's (11)", async () => {
      await smtpSend(
        "nadawca@far.test",
        [`smsop@${A}`],
        message("nadawca@far.test", `smsop@${A}`, "Tylko temat", "ciało, którego nie ma w SMS\n"),
      );
      await waitFor("the notification", () => sentTo("48601234567@era-sms.outside.test").length === 1, 20_000);
      expect(text(sentTo("48601234567@era-sms.outside.test")[0]!.raw)).toBe("Tylko temat");
      await waitFor("the second number's", () => sentTo("48602000111@plus-sms.outside.test").length === 1, 20_000);
      expect(text(sentTo("48602000111@plus-sms.outside.test")[0]!.raw)).toBe("Tylko temat");
      expect(sentTo("48602000111@era-sms.outside.test")).toEqual([]);
    });

    it("operator 0 is detected from the prefix (601: Plus), sms_cnt 2: two SMS of at most 160 characters", async () => {
      const body = Array.from({ length: 60 }, (_, i) => `słowo${i}`).join(" ");
      await smtpSend(
        "nadawca@far.test",
        [`smsauto@${A}`],
        message("nadawca@far.test", `smsauto@${A}`, "Długi list", body),
      );
      await waitFor("two SMS e-mails", () => sentTo("48601234567@plus-sms.outside.test").length === 2, 20_000);
      const parts = sentTo("48601234567@plus-sms.outside.test").map((m) => text(m.raw).replace(/=\r?\n/g, ""));
      for (const p of parts) expect(p.length).toBeLessThanOrEqual(160);
      expect(parts[0]).toMatch(/^Dlugi list: slowo0 slowo1/);
      expect(parts[1]).toMatch(/^slowo\d+/);
    });

    it("sms_send_to 0: the HTTP gateway with the account's login and password, sms_cnt 3: three SMS; the second number by e-mail", async () => {
      const body = Array.from({ length: 120 }, (_, i) => `w${i}`).join(" ");
      await smtpSend(
        "nadawca@far.test",
        [`smshttp@${A}`],
        message("nadawca@far.test", `smshttp@${A}`, "Przez bramkę", body),
      );
      await waitFor(
        "three gateway requests",
        () => gateway.requests.filter((r) => r.fields.to === "48501234567").length === 3,
        20_000,
      );
      const reqs = gateway.requests.filter((r) => r.fields.to === "48501234567");
      expect(
        reqs.every(
          (r) => r.url === "/send?client=klient1" && r.fields.password === "Bramka-tajne1" && r.method === "POST",
        ),
      ).toBe(true);
      expect(reqs.every((r) => r.fields.text!.length <= 160)).toBe(true);
      expect(reqs[0]!.fields.text).toMatch(/^Przez bramke: w0 w1/);
      await waitFor("the second number's e-mail", () => sentTo("kopia@outside.test").length === 3, 20_000).catch(
        async (e: Error) => {
          throw new Error(`${e.message}: ${JSON.stringify(await smsRows("smshttp"))}`);
        },
      );
    });

    it("sms_send_to 0, two numbers: each slot's login and password; sms_operator_2 (12) picks that operator's gateway", async () => {
      await smtpSend("nadawca@far.test", [`smsdwa@${A}`], message("nadawca@far.test", `smsdwa@${A}`, "Dwa numery"));
      const to = (msisdn: string) =>
        gateway.requests
          .filter((r) => r.fields.to === msisdn)
          .map((r) => ({ method: r.method, url: r.url, password: r.fields.password, text: r.fields.text }));
      await waitFor("both numbers' requests", () => to("48501000222").length && to("48501000333").length, 20_000);
      expect(to("48501000222")).toEqual([
        { method: "POST", url: "/send?client=klient-jeden", password: "Haslo-jeden1", text: "Dwa numery" },
      ]);
      expect(to("48501000333")).toEqual([
        { method: "POST", url: "/operator12?client=klient-dwa", password: "Haslo-dwa2", text: "Dwa numery" },
      ]);
      expect((await row("smsdwa")).smsPassword2).toMatch(/^enc1:/);
    });

    it("a failing gateway is retried until it accepts, and the failure is recorded meanwhile", async () => {
      gateway.state.failNext = 2;
      await smtpSend("nadawca@far.test", [`smsretry@${A}`], message("nadawca@far.test", `smsretry@${A}`, "Ponow"));
      await waitFor(
        "a recorded failure",
        async () => (await smsRows("smsretry"))[0]?.lastError.includes("503"),
        20_000,
      );
      await waitFor("the SMS sent", async () => (await smsRows("smsretry"))[0]?.status === "sent", 20_000);
      expect((await smsRows("smsretry"))[0]!.attempts).toBe(3);
      expect(gateway.requests.filter((r) => r.fields.to === "48791000111").map((r) => r.fields.text)).toEqual([
        "Ponow",
      ]);
    });

    it("the per-account hourly limit: the fourth message within the hour is skipped", async () => {
      const mark = eventsLogMark(l);
      for (let i = 1; i <= 4; i++)
        await smtpSend("nadawca@far.test", [`smsrate@${A}`], message("nadawca@far.test", `smsrate@${A}`, `Limit ${i}`));
      // A timeout names what the mail event service saw and what Postfix and Dovecot logged for the account.
      await waitFor("four rows", async () => (await smsRows("smsrate")).length === 4, 30_000).catch((e: Error) => {
        const logged = ["postfix.log", "dovecot.log"].flatMap((f) =>
          sandboxLog(l, f)
            .split("\n")
            .filter((x) => x.includes("smsrate")),
        );
        throw new Error(`${e.message}; events: ${JSON.stringify(mark.after())}; logs: ${JSON.stringify(logged)}`);
      });
      await waitFor("three sent", () => sentTo("limit@outside.test").length === 3, 20_000);
      const statuses = (await smsRows("smsrate")).map((r) => r.status).sort();
      expect(statuses).toEqual(["sent", "sent", "sent", "skipped"]);
      expect((await smsRows("smsrate")).find((r) => r.status === "skipped")!.lastError).toMatch(/rate limit/);
    });

    it("a message saved while another process holds the inbox's UID list (an IMAP client syncing) is notified too: Dovecot reports it with UID 0, found by its Message-ID", async () => {
      // The first delivery creates the Maildir; the second finds its dovecot-uidlist locked, as it is while any
      // IMAP session or doveadm syncs the inbox, and Dovecot leaves its UID to the next sync.
      await smtpSend("nadawca@far.test", [`smslock@${A}`], message("nadawca@far.test", `smslock@${A}`, "Pierwsza"));
      await waitFor("the first notification", () => sentTo("zajety@outside.test").length === 1, 20_000);
      const lock = path.join(l.vmail, A, "smslock", "Maildir", "dovecot-uidlist.lock");
      fs.writeFileSync(lock, `${process.pid}:${os.hostname()}`);
      const mark = eventsLogMark(l);
      try {
        await smtpSend(
          "nadawca@far.test",
          [`smslock@${A}`],
          message("nadawca@far.test", `smslock@${A}`, "Druga", "Zapisana bez UID.\n"),
        );
        await waitFor(
          "the second delivery",
          () => /smslock@.*msgid=<Druga\.[^>]*>: stored mail into mailbox 'INBOX'/.test(sandboxLog(l, "dovecot.log")),
          20_000,
        );
      } finally {
        fs.rmSync(lock, { force: true });
      }
      await waitFor("the event", () => mark.after().some((x) => x.includes("new-mail smslock@")), 20_000);
      expect(mark.after().filter((x) => x.includes("new-mail smslock@"))).toEqual([
        expect.stringMatching(/INBOX uid 0: queued 1$/),
      ]);
      await waitFor("the second notification", () => sentTo("zajety@outside.test").length === 2, 20_000);
      expect(text(sentTo("zajety@outside.test")[1]!.raw)).toBe("Druga: Zapisana bez UID.");
    });

    it("a blocked account's notifications are suspended like its forwards (recorded as skipped); unblocked, they resume", async () => {
      await createAccount(db, await alpha(), "smsblok", {
        password: PW,
        sms_phone_number_1: "blok-sms@outside.test",
        sms_send_to: 1,
        sms_cnt: 1,
        blocked: 1,
      });
      await smtpSend("nadawca@far.test", [`smsblok@${A}`], message("nadawca@far.test", `smsblok@${A}`, "Zablokowane"));
      await waitFor("the row", async () => (await smsRows("smsblok")).length === 1, 20_000);
      const [blocked] = await smsRows("smsblok");
      expect(blocked!.status).toBe("skipped");
      expect(blocked!.lastError).toMatch(/blocked/);
      await set("smsblok", { blocked: 0 });
      await smtpSend("nadawca@far.test", [`smsblok@${A}`], message("nadawca@far.test", `smsblok@${A}`, "Odblokowane"));
      await waitFor("the notification", () => sentTo("blok-sms@outside.test").length === 1, 20_000);
      expect(text(sentTo("blok-sms@outside.test")[0]!.raw)).toMatch(/^Odblokowane: /);
    });

    it("a notification mailed to the account's own address is not announced in turn: one message, one notification", async () => {
      await createAccount(db, await alpha(), "smssam", {
        password: PW,
        sms_phone_number_1: `smssam@${A}`,
        sms_send_to: 1,
        sms_cnt: 1,
      });
      const mark = eventsLogMark(l);
      await smtpSend("nadawca@far.test", [`smssam@${A}`], message("nadawca@far.test", `smssam@${A}`, "Jedna"));
      await waitFor("the notification in the inbox", () => readMessages(l, `smssam@${A}`).length >= 2, 20_000);
      await mark.wait(
        "the notification's new-mail event",
        new RegExp(`new-mail smssam@${A} INBOX uid \\d+: a notification of this service`),
      );
      // Before: each notification was announced again, nine more until the hourly limit skipped the tenth.
      expect((await smsRows("smssam")).map((r) => r.status)).toEqual(["sent"]);
    });

    it("no SMS for mail outside the inbox, nor for list mail the account only moderates", async () => {
      const mark = eventsLogMark(l);
      // Scored 8 by the sandbox's Rspamd (X-Sandbox-Spam-Score): moved to Spam by the account's spam_rule.
      await smtpSend(
        "x@far.test",
        [`moder@${A}`],
        message("x@far.test", `moder@${A}`, "Do spamu", "Treść testowa.\n", "X-Sandbox-Spam-Score: 8\n"),
      );
      await smtpSend("x@far.test", [`zarzad@${A}`], message("x@far.test", `zarzad@${A}`, "Do moderacji"));
      await settle();
      expect(readMessages(l, `moder@${A}`, "Spam").some((m) => m.includes("Do spamu"))).toBe(true);
      // The list service (the sandbox's lists component) holds the post and sends moder the moderation request.
      await waitFor(
        "the moderation request",
        () => readMessages(l, `moder@${A}`).some((m) => m.includes("Do moderacji")),
        20_000,
      );
      // Its report answered without a notification (the Spam copy is not the inbox's, so never reported).
      await mark.wait(
        "the moderation request's new-mail event",
        new RegExp(`new-mail moder@${A} INBOX uid \\d+: list traffic to moderate`),
      );
      // The control: a message to the account itself is announced.
      await smtpSend("x@far.test", [`moder@${A}`], message("x@far.test", `moder@${A}`, "Do mnie"));
      await waitFor("the control notification", () => sentTo("moder-sms@outside.test").length === 1, 20_000);
      // The SMS worker has gone through every notification queued for moder.
      await waitFor(
        "moder's notifications handled",
        async () => (await smsRows("moder")).every((r) => r.status !== "pending"),
        20_000,
      );
      expect(sentTo("moder-sms@outside.test").map((m) => text(m.raw))).toEqual(["Do mnie"]);
    });
  });
}
