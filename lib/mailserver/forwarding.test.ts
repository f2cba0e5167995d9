// Forwards and aliases in real mail on the sandbox: loops refused while the sender is connected; a forward-only
// account's own spam settings and SMS numbers applied to what it forwards; an account that keeps a copy forwards after
// its spam filter too; spam (9 or more) no account forwards to another server.
import { afterAll, beforeAll, describe, vi } from "vitest";
import { missingMailPackages } from "./testing/mail-daemons";
import { setUp, tearDown } from "./testing/forwarding/harness";
import { loopCases } from "./testing/forwarding/loops";
import { aliasSpamCases, forwardOnlySpamCases } from "./testing/forwarding/spam";
import { forwardOnlySmsCases } from "./testing/forwarding/sms";
import { keepCopySpamCases } from "./testing/forwarding/keep-copy";
import { accountForwardSpamCases } from "./testing/forwarding/account-forward-spam";
import { largeListsCases } from "./testing/forwarding/large-lists";

vi.mock("server-only", () => ({}));
// Deliveries and Rspamd take seconds each, more on a busy host.
vi.setConfig({ testTimeout: 120_000 });

const missing = missingMailPackages();
if (missing.length) console.warn(`forwarding tests SKIPPED: Debian packages missing: ${missing.join(" ")}`);

describe.skipIf(missing.length > 0)("forwards and aliases in real mail (real daemons)", () => {
  beforeAll(setUp, 300_000);
  afterAll(tearDown, 60_000);

  loopCases();
  forwardOnlySpamCases();
  aliasSpamCases();
  forwardOnlySmsCases();
  keepCopySpamCases();
  accountForwardSpamCases();
  largeListsCases();
});
