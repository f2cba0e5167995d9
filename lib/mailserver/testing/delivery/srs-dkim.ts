// Delivery cases: SRS for forwards, DKIM signing and the DKIM check.
import { Resolver } from "node:dns/promises";
import fs from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { describe, expect, it } from "vitest";
import { checkDkimDns, currentDkimKey, dkimRecord, stagedDkimKey } from "../../dkim";
import { readMessages, smtpTry, waitFor } from "../mail-daemons";
import { A, PW, l, db, cli, alpha, smtpSend, outbound, message, publishDkim, dkimVerify } from "./harness";

export function srsAndDkimCases() {
  describe("SRS", () => {
    it("a forward to another provider leaves with an SRS sender, and a bounce to it comes back to the original sender", async () => {
      await smtpSend("ktos@far.test", [`fwd@${A}`], message("ktos@far.test", `fwd@${A}`, "Przekazany"));
      const fwd = await waitFor(
        "the forwarded copy",
        () => outbound().find((m) => m.to.includes("daleko@outside.test") && m.raw.includes("Przekazany")),
        20_000,
      );
      expect(fwd.from).toMatch(new RegExp(`^SRS0[=+-][^=]+=[^=]+=far\\.test=ktos@${A.replace(".", "\\.")}$`, "i"));
      // Anyone may send with the null sender: a message that is no report is refused at the end of DATA, while
      // connected. Before, it was relayed to ktos@far.test from this server like a bounce.
      const phishing = `From: Bank <alerts@bigbank.test>\nTo: <${fwd.from}>\nSubject: Verify your account\n\nLog in at http://phish.test/ now.\n`;
      await expect(smtpSend("", [fwd.from], phishing)).rejects.toThrow(
        /^SMTP: 554 5\.7\.1 This address takes only delivery reports and automatic replies/,
      );
      // The destination bounces to the SRS address with a DSN (RFC 3464): Postfix rewrites it back and relays the
      // bounce to ktos@far.test. No Auto-Submitted and no mailer daemon's From: the report's type lets it in.
      const bounce = [
        "From: Mail Delivery System <bounces@outside.test>",
        `To: <${fwd.from}>`,
        "Subject: Undelivered Mail Returned to Sender",
        "MIME-Version: 1.0",
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
        "",
        "--b1",
        "Content-Type: text/plain",
        "",
        "The mail could not be delivered.",
        "--b1",
        "Content-Type: message/delivery-status",
        "",
        "Reporting-MTA: dns; mx.outside.test",
        "",
        "Final-Recipient: rfc822; daleko@outside.test",
        "Action: failed",
        "Status: 5.1.1",
        "--b1--",
        "",
      ].join("\n");
      await smtpSend("", [fwd.from], bounce);
      const back = await waitFor(
        "the bounce relayed back",
        () => outbound().find((m) => m.to.includes("ktos@far.test")),
        20_000,
      );
      expect(back.raw).toContain("The mail could not be delivered.");
      expect(outbound().filter((m) => m.raw.includes("phish.test"))).toEqual([]);
      // Anything but a delivery report is refused at RCPT: before, it was relayed to ktos@far.test like the bounce.
      const relayed = await smtpTry(
        l.ports.smtp,
        "spammer@bulk.test",
        [fwd.from],
        message("spammer@bulk.test", fwd.from, "Przez SRS"),
      );
      expect(relayed.accepted).toEqual([]);
      expect(relayed.refused.map((r) => r.code)).toEqual([550]);
      expect(relayed.refused[0]!.response).toMatch(/only delivery reports/);
    });

    it("mail from outside delivered here keeps its original sender (Return-Path, Sieve white lists): SRS only for mail leaving", async () => {
      await smtpSend("ktos@far.test", [`jan@${A}`], message("ktos@far.test", `jan@${A}`, "Lokalnie"));
      const copy = await waitFor(
        "the local copy",
        () => readMessages(l, `jan@${A}`).find((m) => m.includes("Subject: Lokalnie")),
        20_000,
      );
      expect(/^Return-Path: <([^>]*)>/m.exec(copy)?.[1]).toBe("ktos@far.test");
    });

    it("a hosted domain's sender keeps its own address", async () => {
      await smtpSend(`jan@beta.test`, [`fwd@${A}`], message("jan@beta.test", `fwd@${A}`, "Z hostowanej"));
      const fwd = await waitFor(
        "the forwarded copy",
        () => outbound().find((m) => m.raw.includes("Z hostowanej")),
        20_000,
      );
      expect(fwd.from).toBe("jan@beta.test");
      // Unsigned, as it arrived from outside: the MX signs authenticated senders only (not its loopback client, as
      // sign_local did), and the redirect passes Rspamd's signing worker, which signs only mail composed here.
      expect(fwd.raw).not.toMatch(/^DKIM-Signature:/m);
    });
  });

  describe("DKIM", () => {
    /** The sandbox's loopback DNS, where publishDkim() wrote the record: what a receiving provider would ask. */
    const sandboxDns = (name: string, type: string) => {
      const r = new Resolver({ timeout: 2000, tries: 2 });
      r.setServers([`127.0.0.1:${l.ports.dns}`]);
      if (type !== "TXT") return Promise.reject(Object.assign(new Error(`no ${type} ${name}`), { code: "ENOTFOUND" }));
      return r.resolveTxt(name);
    };
    async function sendSigned(subject: string) {
      const t = nodemailer.createTransport({
        host: "127.0.0.1",
        port: l.ports.submission,
        secure: false,
        ignoreTLS: true,
        auth: { user: `jan@${A}`, pass: PW },
      });
      try {
        await t.sendMail({ from: `jan@${A}`, to: "odbiorca@outside.test", subject, text: "Podpisana wiadomość.\n" });
      } finally {
        t.close();
      }
      return waitFor("the signed message", () => outbound().find((m) => m.raw.includes(`Subject: ${subject}`)), 20_000);
    }

    it("mail from a hosted domain is signed by Rspamd with the domain's key and verifies against the published record", async () => {
      const record = dkimRecord(A, (await currentDkimKey(db, (await alpha()).id))!);
      expect((await checkDkimDns(record, `127.0.0.1:${l.ports.dns}`)).state).toBe("published");
      const mail = await sendSigned("Podpis jeden");
      expect(mail.raw).toMatch(/^DKIM-Signature:.*d=alpha\.test/m);
      // Rspamd's headers for this host's own use (the score, the authenticated poster) do not leave it.
      expect(mail.raw).not.toMatch(/^(X-Spamd-Result|X-Spam-Score|X-Mailadmin-[\w-]+):/im);
      const { results } = await dkimVerify(Buffer.from(mail.raw), { resolver: sandboxDns });
      expect(results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([
        [A, (await currentDkimKey(db, (await alpha()).id))!.selector, "pass"],
      ]);
      // The same message changed after signing does not verify (the check can fail).
      const tampered = mail.raw.replace("Podpisana", "Zmieniona");
      expect((await dkimVerify(Buffer.from(tampered), { resolver: sandboxDns })).results[0]!.status.result).not.toBe(
        "pass",
      );
    });

    it("a rotated key signs only once activated, which waits for DNS; then within seconds, with no reload", async () => {
      const before = (await currentDkimKey(db, (await alpha()).id))!;
      const rspamdLog = path.join(l.rspamd, "log", "rspamd.log");
      const out = await cli("domain", "dkim", "rotate", A);
      const after = (await stagedDkimKey(db, (await alpha()).id))!;
      expect(after.selector).not.toBe(before.selector);
      expect(String(out)).toContain(`${after.selector}._domainkey.${A}`);
      // Staged: mail is still signed with the old key, and activation waits while DNS lacks the new record.
      const staged = await sendSigned("Podpis przed aktywacja");
      expect(
        (await dkimVerify(Buffer.from(staged.raw), { resolver: sandboxDns })).results.map((r) => [
          r.selector,
          r.status.result,
        ]),
      ).toEqual([[before.selector, "pass"]]);
      const logStart = fs.statSync(rspamdLog).size;
      process.env.DNS_RESOLVER = `127.0.0.1:${l.ports.dns}`;
      try {
        await expect(cli("domain", "dkim", "activate", A)).rejects.toThrow("1 of 1 staged DKIM keys not activated");
        await publishDkim(after);
        expect(String(await cli("domain", "dkim", "activate", A))).toContain("activated");
      } finally {
        delete process.env.DNS_RESOLVER;
      }
      expect((await currentDkimKey(db, (await alpha()).id))!.selector).toBe(after.selector);
      // The events component writes the key and the selector map within a second; Rspamd must pick the map up
      // within 1.5 s of that, with no reload (the sandbox sets map_watch_interval 1s; Debian's Rspamd 3.4 also
      // rereads a changed local map file at once without it: the test passes both ways).
      const map = path.join(l.root, "dkim", "selectors.map");
      await waitFor(
        "the new selector in the map",
        () => fs.existsSync(map) && fs.readFileSync(map, "utf8").includes(after.selector),
        10_000,
      );
      // The milter's worker (rspamd_proxy, which signs) logs each time it reads the map.
      const reread = /\(rspamd_proxy\).*read hash of \d+ elements from .*selectors\.map/;
      await waitFor(
        "Rspamd's milter rereading the map",
        () =>
          fs
            .readFileSync(rspamdLog)
            .subarray(logStart)
            .toString("utf8")
            .split("\n")
            .some((x) => reread.test(x)),
        1_500,
      );
      const mail = await sendSigned("Podpis dwa");
      const { results } = await dkimVerify(Buffer.from(mail.raw), { resolver: sandboxDns });
      expect(results.map((r) => [r.selector, r.status.result])).toEqual([[after.selector, "pass"]]);
    });
  });
}
