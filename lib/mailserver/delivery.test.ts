// The account record in real mail on the sandbox (`mailserver sandbox`, lib/mailserver/sandbox): mail logins move last_auth_*, over-quota
// mail is refused at RCPT, the usage warning arrives at the crossing delivery, SMS notifications go out by e-mail and
// HTTP, forwards leave with an SRS sender (the sandbox's postsrsd), mail from hosted domains is DKIM-signed by its
// Rspamd. Debian's Postfix, Dovecot, postsrsd and Rspamd, configured by the same generator as `mailserver config`;
// mail for other providers lands in the sandbox's outbound Maildir, the DKIM record is published on its loopback
// DNS, and the SMS company's HTTP gateway is a local stand-in speaking HTTP.
import { afterAll, beforeAll, describe, vi } from "vitest";
import { missingMailPackages } from "./testing/mail-daemons";
import { setUp, tearDown } from "./testing/delivery/harness";
import { loginAndQuotaCases } from "./testing/delivery/logins-quota";
import { smsCases } from "./testing/delivery/sms";
import { srsAndDkimCases } from "./testing/delivery/srs-dkim";
import { dsnCases } from "./testing/delivery/dsn";
import { signedInSenderCases } from "./testing/delivery/null-sender";

vi.mock("server-only", () => ({}));
// Deliveries, quota writes and Rspamd take seconds each, more on a busy host.
vi.setConfig({ testTimeout: 120_000 });
process.env.SMS_SECRET_KEY = "a".repeat(64);

const missing = missingMailPackages();
if (missing.length) console.warn(`delivery tests SKIPPED: Debian packages missing: ${missing.join(" ")}`);

describe.skipIf(missing.length > 0)(
  "delivery on the sandbox: logins, quota, usage warning, SMS, SRS, DKIM (real daemons)",
  () => {
    beforeAll(setUp, 300_000);
    afterAll(tearDown);

    loginAndQuotaCases();
    smsCases();
    srsAndDkimCases();
    dsnCases();
    signedInSenderCases();
  },
);
