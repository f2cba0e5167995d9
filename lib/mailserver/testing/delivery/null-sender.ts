// Delivery cases: a signed-in sender's envelope and header From, where only this host's checks stand between it and
// a DKIM signature of a hosted domain.
import { describe, expect, it } from "vitest";
import { NULL_SENDER_REFUSAL } from "../../config";
import { smtpTry } from "../mail-daemons";
import { A, PW, l, message } from "./harness";

export function signedInSenderCases() {
  describe("signed-in senders", () => {
    it("MAIL FROM:<> after a login is refused at RCPT: a signed-in user sends no bounces", async () => {
      const tried = await smtpTry(
        l.ports.submission,
        "",
        [`znacznik@${A}`],
        message(`jan@${A}`, `znacznik@${A}`, "Pusty nadawca"),
        { user: `jan@${A}`, pass: PW },
      );
      // Before, accepted: the header From was then checked only by the policy service, failing open.
      expect(tried.accepted).toEqual([]);
      expect(tried.refused.map((r) => r.code)).toEqual([553]);
      expect(tried.refused[0]!.response).toContain(`<>: Sender address rejected: ${NULL_SENDER_REFUSAL.slice(10)}`);
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
