// mailserver check's "SMS numbers have a gateway" line: it fails on a number the provider's SMS configuration cannot
// send (no HTTP gateway for sms_send_to 0), and counts a number its owner must fix apart, without failing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, onTestFinished, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";

vi.mock("server-only", () => ({}));

import { addDomain } from "@/lib/server/resources/new-domain";
import { createAccount } from "@/lib/server/resources/accounts";
import { smsConfig } from "./sms/config";
import { smsGateways } from "./check";

let dir: string;
let db: Db;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-check-sms-"));
  db = openDatabase(path.join(dir, "mail.db"));
  const domain = await addDomain(db, "sms.test", "Admin-pass1", {});
  await createAccount(db, domain, "http", { password: "Konto-pass1", sms_phone_number_1: "600100200", sms_send_to: 0 });
  // sms_send_to 1 with a number no operator's prefix names and sms_operator 0: the owner's to fix.
  await createAccount(db, domain, "zgadnij", {
    password: "Konto-pass1",
    sms_phone_number_1: "728123456",
    sms_send_to: 1,
  });
  // A blocked account is not notified: its number is not judged.
  await createAccount(db, domain, "zablokowane", {
    password: "Konto-pass1",
    sms_phone_number_1: "600100201",
    blocked: 1,
  });
});
afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("fails on a number the configuration has no gateway for, naming its account", async () => {
  const result = await smsGateways(db, undefined, smsConfig())();
  expect(result).toEqual({
    ok: false,
    detail: expect.stringMatching(
      /^1 of 2 number\(s\) have none, so their notifications fail: http@sms\.test: no HTTP SMS gateway configured by the provider \(SMS_CONFIG/,
    ) as string,
  });
});

it("passes once there is one, counting the number its owner must fix apart", async () => {
  const result = await smsGateways(db, undefined, smsConfig({ http: { url: "http://127.0.0.1:9/send" } }))();
  expect(result).toEqual({
    ok: true,
    detail:
      "1 of 2 number(s) of 2 account(s) have one (1 HTTP, 0 e-mail); 1 its owner must fix, the first " +
      "zgadnij@sms.test: no operator known for 728123456 (set sms_operator)",
  });
});

it("mailserver check and events name an SMS configuration that is missing or not valid, in one line", async () => {
  const { runCommand } = await import("@/lib/cli/commands");
  vi.stubEnv("DATABASE_PATH", path.join(dir, "mail.db"));
  onTestFinished(() => void vi.unstubAllEnvs());
  const missing = path.join(dir, "no-sms.json");
  const broken = path.join(dir, "broken.json");
  fs.writeFileSync(broken, '{"http": {"url": 5}}');
  const notJson = path.join(dir, "not.json");
  fs.writeFileSync(notJson, "url=http://x");
  for (const command of [
    ["mailserver", "check", "--account", "a@sms.test", "--password", "x"],
    ["mailserver", "events", "--listen", "127.0.0.1:9"],
  ]) {
    await expect(runCommand(db, [...command, "--sms-config", missing])).rejects.toThrow(
      `the SMS configuration: cannot read ${missing}: there is no such file`,
    );
    await expect(runCommand(db, [...command, "--sms-config", broken])).rejects.toThrow(
      new RegExp(
        `^the SMS configuration ${broken} is not valid \\(docs/mail-server\\.md, "SMS notifications"\\): http\\.url: `,
      ),
    );
    await expect(runCommand(db, [...command, "--sms-config", notJson])).rejects.toThrow(
      new RegExp(`^the SMS configuration ${notJson} is not valid .*JSON`),
    );
  }
});
