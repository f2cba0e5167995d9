// Delivery cases: a signed-in sender's envelope and header From, where only this host's checks stand between it and
// a DKIM signature of a hosted domain.
import { describe, expect, it } from "vitest";
import { readMessages, smtpTry, waitFor } from "../mail-daemons";
import { A, PW, l, message } from "./harness";

export function signedInSenderCases() {
  describe("signed-in senders", () => {
    it("MAIL FROM:<> after a login carries a read receipt (RFC 8098) from the user's own From, and nothing else", async () => {
      const receipt = (from: string, subject: string) =>
        [
          `From: <${from}>`,
          `To: <znacznik@${A}>`,
          `Subject: ${subject}`,
          `Message-ID: <${subject.replace(/\W/g, "")}.${Date.now()}@client.test>`,
          "MIME-Version: 1.0",
          'Content-Type: multipart/report; report-type=disposition-notification; boundary="r1"',
          "",
          "--r1",
          "Content-Type: text/plain; charset=utf-8",
          "",
          "Wiadomość została wyświetlona.",
          "--r1",
          "Content-Type: message/disposition-notification",
          "",
          "Reporting-UA: client.test; Thunderbird",
          `Final-Recipient: rfc822;jan@${A}`,
          "Disposition: manual-action/MDN-sent-manually; displayed",
          "--r1--",
          "",
        ].join("\n");
      const user = { user: `jan@${A}`, pass: PW };
      // Before, refused at RCPT (553) for every signed-in user: mail programs send read receipts with the null sender.
      const sent = await smtpTry(l.ports.submission, "", [`znacznik@${A}`], receipt(`jan@${A}`, "Potwierdzenie"), user);
      expect(sent).toEqual({ accepted: [`znacznik@${A}`], refused: [] });
      const copy = await waitFor(
        "the read receipt",
        () => readMessages(l, `znacznik@${A}`).find((m) => m.includes("Subject: Potwierdzenie")),
        20_000,
      );
      expect(/^Return-Path: <([^>]*)>/m.exec(copy)?.[1]).toBe("");
      // Its From is checked as any signed-in message's: no receipt in a colleague's name.
      await expect(
        smtpTry(l.ports.submission, "", [`znacznik@${A}`], receipt(`ola@${A}`, "Cudze potwierdzenie"), user),
      ).rejects.toMatchObject({
        responseCode: 554,
        response: expect.stringMatching(/The From header must be one address of jan@/) as unknown,
      });
      // An ordinary message with the null sender gets no bounce back: refused while connected.
      await expect(
        smtpTry(l.ports.submission, "", [`znacznik@${A}`], message(`jan@${A}`, `znacznik@${A}`, "Pusty nadawca"), user),
      ).rejects.toMatchObject({
        responseCode: 554,
        response: expect.stringMatching(/sends with the null sender \(MAIL FROM:<>\) only a read receipt/) as unknown,
      });
    });

    it("while the policy service does not answer, a signed-in sender's mail waits (451 at the end of DATA) instead of leaving with an unchecked From", async () => {
      await l.sandbox.stopComponent("policy");
      try {
        // Postfix's own questions to the policy service fall back to DUNNO; Rspamd's From check has no answer.
        await expect(
          smtpTry(
            l.ports.submission,
            `jan@${A}`,
            [`znacznik@${A}`],
            message(`ola@${A}`, `znacznik@${A}`, "Bez odpowiedzi"),
            { user: `jan@${A}`, pass: PW },
          ),
        ).rejects.toMatchObject({
          responseCode: 451,
          response: expect.stringMatching(/The From check did not answer; try again later/) as unknown,
        });
      } finally {
        await l.sandbox.startComponent("policy");
      }
    });
  });
}
