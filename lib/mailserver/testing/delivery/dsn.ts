// Delivery cases: delivery status notifications (RFC 3461) on the MX and on the submission port.
import nodemailer from "nodemailer";
import { describe, expect, it } from "vitest";
import { LineSocket, readMessages, waitFor } from "../mail-daemons";
import { A, PW, l } from "./harness";

export function dsnCases() {
  describe("DSN", () => {
    it("the MX offers no DSN, so NOTIFY=SUCCESS for a forged sender is refused and reports nothing; the submission port still offers it to signed-in users", async () => {
      const s = await LineSocket.connect(l.ports.smtp);
      try {
        await s.until(/^220 /, 60_000);
        s.write("EHLO client.mailadmin.test\r\n");
        // Before, 250-DSN: a success report went to the forged sender with the message's headers (this host's
        // internal ones too, inside text/rfc822-headers) and the expansion of aliases.
        expect(await s.until(/^250 /, 60_000)).not.toMatch(/^250[- ]DSN$/m);
        s.write("MAIL FROM:<ofiara@far.test>\r\n");
        expect(await s.until(/^\d{3} /, 60_000)).toMatch(/^250 /m);
        s.write(`RCPT TO:<jan@${A}> NOTIFY=SUCCESS\r\n`);
        expect(await s.until(/^\d{3} /, 60_000)).toMatch(/^501 5\.7\.1 DSN support is disabled/m);
        s.write("QUIT\r\n");
      } finally {
        s.close();
      }
      // A signed-in user asks for a success report and gets it in its own mailbox.
      const t = nodemailer.createTransport({
        host: "127.0.0.1",
        port: l.ports.submission,
        secure: false,
        ignoreTLS: true,
        auth: { user: `jan@${A}`, pass: PW },
      });
      try {
        await t.sendMail({
          from: `jan@${A}`,
          to: `znacznik@${A}`,
          subject: "Z potwierdzeniem",
          text: "Proszę o potwierdzenie.\n",
          dsn: { notify: "SUCCESS" },
        });
      } finally {
        t.close();
      }
      const report = await waitFor(
        "the success report to the signed-in sender",
        () =>
          readMessages(l, `jan@${A}`).find(
            (m) => /multipart\/report/i.test(m) && m.includes("Subject: Z potwierdzeniem"),
          ),
        20_000,
      );
      // "relayed": the sandbox's Dovecot LMTP takes no NOTIFY itself, so Postfix reports the hand-over.
      expect(report).toMatch(/^Subject: Successful Mail Delivery Report$/m);
      expect(report).toMatch(/^Action: (delivered|relayed)$/m);
    });
  });
}
