// mailserver check's reading of Postfix's configuration, against a folder of its own (postconf -c). "main.cf has the
// snippet's settings": a stale setting names the postconf line of docs/deploy.md; mua_sender_restrictions, set in
// main.cf but named by no service of master.cf (the submission services' -o line missing), names the -o line, since
// postconf then does not print it and rerunning the postconf line changes nothing. The submission sender check also
// names every login-taking service of master.cf without the sender rule (port 587 beside the 465 it tries).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loginServicesWithoutSenderRule, snippetApplied, type CheckOptions } from "./check";

vi.mock("server-only", () => ({}));

const SNIPPET = [
  "# the generated snippet, in short",
  "smtpd_sasl_auth_enable = no",
  "smtpd_sender_restrictions =",
  "mua_sender_restrictions = reject_authenticated_sender_login_mismatch",
  "",
].join("\n");
const SMTPD = "smtp      inet  n       -       y       -       -       smtpd\n";
const SUBMISSIONS = "submissions inet n       -       y       -       -       smtpd -o smtpd_sasl_auth_enable=yes";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "snippet-check-"));
  fs.mkdirSync(path.join(dir, "conf", "postfix"), { recursive: true });
  fs.mkdirSync(path.join(dir, "postfix"));
  fs.writeFileSync(path.join(dir, "conf", "postfix", "main.cf.snippet"), SNIPPET);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function options(mainCf: string, masterCf: string): CheckOptions {
  fs.writeFileSync(path.join(dir, "postfix", "main.cf"), mainCf);
  fs.writeFileSync(path.join(dir, "postfix", "master.cf"), masterCf);
  return { configDir: path.join(dir, "conf"), postfixConfig: path.join(dir, "postfix") } as CheckOptions;
}

async function check(mainCf: string, masterCf: string) {
  return await snippetApplied(options(mainCf, masterCf))();
}

describe("main.cf has the snippet's settings", () => {
  it("passes when the submission service applies mua_sender_restrictions", async () => {
    const r = await check(SNIPPET, `${SMTPD}${SUBMISSIONS} -o smtpd_sender_restrictions=$mua_sender_restrictions\n`);
    expect(r.ok).toBe(true);
    expect(r.detail).toMatch(/^all 3 settings of /);
  });

  it("names the submission services' -o line, not the postconf line, when no service applies mua_sender_restrictions", async () => {
    const r = await check(SNIPPET, `${SMTPD}${SUBMISSIONS}\n`);
    expect(r).toEqual({
      ok: false,
      detail:
        "mua_sender_restrictions set in main.cf but used by no service of master.cf, so Postfix ignores it: add " +
        "-o smtpd_sender_restrictions=$mua_sender_restrictions to the submission services (docs/deploy.md, step 5), " +
        "then postfix reload",
    });
  });

  it("names the postconf line for a setting main.cf lacks or has otherwise", async () => {
    const r = await check(
      SNIPPET.replace("smtpd_sasl_auth_enable = no", "smtpd_sasl_auth_enable = yes").replace(/^mua_.*\n/m, ""),
      `${SMTPD}${SUBMISSIONS} -o smtpd_sender_restrictions=$mua_sender_restrictions\n`,
    );
    expect(r.ok).toBe(false);
    expect(r.detail).toMatch(
      /^main\.cf differs from .* in smtpd_sasl_auth_enable, mua_sender_restrictions: rerun the postconf line of docs\/deploy\.md, step 5, then postfix reload$/,
    );
  });
});

describe("login-taking services of master.cf without the sender rule", () => {
  const RULE = " -o smtpd_sender_restrictions=$mua_sender_restrictions";
  const SUBMISSION = "submission inet n       -       y       -       -       smtpd -o smtpd_sasl_auth_enable=yes";

  it("are none when every service with -o smtpd_sasl_auth_enable=yes applies mua_sender_restrictions", () => {
    expect(
      loginServicesWithoutSenderRule(options(SNIPPET, `${SMTPD}${SUBMISSIONS}${RULE}\n${SUBMISSION}${RULE}\n`)),
    ).toEqual([]);
  });

  it("name port 587's service when only 465's has the rule (the MX, taking no logins, is not named)", () => {
    expect(loginServicesWithoutSenderRule(options(SNIPPET, `${SMTPD}${SUBMISSIONS}${RULE}\n${SUBMISSION}\n`))).toEqual([
      "submission/inet",
    ]);
    expect(loginServicesWithoutSenderRule(options(SNIPPET, `${SMTPD}${SUBMISSIONS}\n${SUBMISSION}\n`))).toEqual([
      "submissions/inet",
      "submission/inet",
    ]);
  });
});
