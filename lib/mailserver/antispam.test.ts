// Every anti-spam field in real mail: the sandbox's Postfix, Rspamd (milter), policy service, Dovecot and
// Sieve, configured by `mailserver config`, over a database changed only through the services the API calls. The
// sandbox's Rspamd adds X-Sandbox-Spam-Score to a message's score; its DNS resolver serves the SPF and RBL records.
import { afterAll, beforeAll, describe, vi } from "vitest";
import { missingMailPackages } from "./testing/mail-daemons";
import { setUp, tearDown } from "./testing/antispam/harness";
import { spamFilterCases } from "./testing/antispam/filters";
import { policyCases } from "./testing/antispam/policy";

vi.mock("server-only", () => ({}));

// The server's defaults: read by the API (spam_*_default) and by the sandbox's policy service alike.
process.env.SPAM_GREYLIST_DEFAULT = "1";
process.env.SPAM_SPF_DEFAULT = "1";
process.env.SPAM_RBL_DEFAULT = "1";

const missing = missingMailPackages();
if (missing.length) console.warn(`anti-spam tests SKIPPED: Debian packages missing: ${missing.join(" ")}`);

describe.skipIf(missing.length > 0)("anti-spam settings in real mail", () => {
  beforeAll(setUp, 240_000);
  afterAll(tearDown, 60_000);

  spamFilterCases();
  policyCases();
});
