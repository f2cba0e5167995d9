// The `check` of a sandbox's JSON line: `mailserver check` against it. A sandbox playing a mail host (MAIL_HOST_NAME)
// gives the check that name, whose quota line refuses accounts of other hosts (check.ts) and, without the name,
// refused every placed account, the sandbox's own too.
import { expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { SANDBOX_PORTS, sandboxCheckCommand, sandboxLayout, type PortName } from "./sandbox";

const ports = Object.fromEntries(SANDBOX_PORTS.map((name, i) => [name, 31000 + i])) as Record<PortName, number>;
const ctx = (hostName?: string) => ({
  options: { databasePath: "/tmp/s/mail.db", hostName },
  layout: sandboxLayout("/tmp/s"),
  ports,
  srsDomain: "srs.sandbox.test",
});

it("names the mail host the sandbox plays, and nothing for one mail host", () => {
  expect(sandboxCheckCommand(ctx("imap2"))).toMatch(
    /^MAIL_HOST=mx\.sandbox\.test MAIL_HOST_NAME=imap2 DATABASE_PATH=\/tmp\/s\/mail\.db npm run --silent cli -- mailserver check --config-dir /,
  );
  expect(sandboxCheckCommand(ctx())).toMatch(
    /^MAIL_HOST=mx\.sandbox\.test DATABASE_PATH=\/tmp\/s\/mail\.db npm run --silent cli -- mailserver check --config-dir /,
  );
});
