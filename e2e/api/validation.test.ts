/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call -- response bodies are untyped JSON */
// Each validation rule at its boundary, on both sides: the value just inside is accepted, the value just outside
// is refused with the catalog code, naming the field (or the name) in `source`. Accounts, passwords and the domain.
import { describe, expect, it } from "vitest";
import { api, expectError, expectStatus } from "./client";
import { OK, s, validationDomain, type Outcome } from "./validation-setup";

const D = "val.example.com";
const { admin, putField } = validationDomain(D);

describe("account names (POST emails/<domain>/<name>)", () => {
  const cases: [string, Outcome][] = [
    ["ab", OK],
    ["a", "invalidAccountName"],
    [s(32, "b"), OK],
    [s(33, "c"), "invalidAccountName"],
    ["a.b", OK],
    ["a-b", OK],
    ["a_b", OK],
    ["a.b-c_d", OK],
    ["1234", OK],
    ["a..b", "invalidAccountName"],
    ["a.-b", "invalidAccountName"],
    [".ab", "invalidAccountName"],
    ["ab.", "invalidAccountName"],
    ["-ab", "invalidAccountName"],
    ["ab_", "invalidAccountName"],
    ["Ab", "invalidAccountName"],
    ["a+b", "invalidAccountName"],
    ["a b", "invalidAccountName"],
    ["żółw", "invalidAccountName"],
    ["a@b", "invalidAccountName"],
  ];
  it.each(cases)("%j -> %s", async (name, outcome) => {
    const res = await api("POST", `emails/${D}/${encodeURIComponent(name)}`, {
      auth: admin,
      body: { password: "Secret-123", capacity: 1 },
    });
    if (outcome === OK) {
      expectStatus(res, 201);
      expect(res.json.email).toBe(`${name}@${D}`);
    } else expectError(res, outcome, name);
  });

  it("GET with an invalid name is 500.301, not 404", async () => {
    expectError(await api("GET", `emails/${D}/a..b`, { auth: admin }), "invalidAccountName", "a..b");
  });
});

describe("account fields (PUT emails/<domain>/jan)", () => {
  const path = `emails/${D}/jan`;
  const cases: [string, unknown, Outcome, unknown?][] = [
    ["description", s(48), OK],
    ["description", s(49), "invalidDescription"],
    ["description", "", OK],
    ["description", 5, "invalidDescription"],
    ["capacity", 1, OK],
    ["capacity", 1048576, OK],
    ["capacity", 1048577, "invalidCapacity"],
    ["capacity", 0, "invalidCapacity"],
    ["capacity", "", "invalidCapacity"],
    ["capacity", "2048", OK, 2048],
    ["capacity", 1.5, "invalidCapacity"],
    ["capacity", null, "invalidCapacity"],
    ["usage_notification_level", 0, OK],
    ["usage_notification_level", 100, OK],
    ["usage_notification_level", 101, "invalidNotificationLevel"],
    ["usage_notification_level", -1, "invalidNotificationLevel"],
    ["expiration_date", "2030-12-31", OK],
    ["expiration_date", "", OK],
    ["expiration_date", "2028-02-29", OK],
    ["expiration_date", "2027-02-29", "invalidExpirationDate"],
    ["expiration_date", "2030-13-01", "invalidExpirationDate"],
    ["expiration_date", "2030-1-01", "invalidExpirationDate"],
    ["expiration_date", "31.12.2030", "invalidExpirationDate"],
    ["keep_mail", 0, OK],
    ["keep_mail", 1, OK],
    ["keep_mail", 2, "invalidFlag"],
    ["blocked", 0, OK],
    ["blocked", -1, "invalidFlag"],
    ["forwards", ["a@example.org", "b@example.org"], OK],
    ["forwards", [], OK],
    ["forwards", ["A@Example.org"], OK, ["a@example.org"]],
    ["forwards", ["not-an-address"], "invalidForward"],
    ["forwards", ["a@example.org", "a@example.org"], "invalidForward"],
    ["forwards", [`jan@${D}`], "invalidForward"],
    ["forwards", "a@example.org", "invalidForward"],
    ["forwards", Array.from({ length: 50 }, (_, i) => `f${i}@example.org`), OK],
    ["forwards", Array.from({ length: 51 }, (_, i) => `f${i}@example.org`), "invalidForward"],
    ["forward_limit", 0, OK],
    ["forward_limit", 1000, OK],
    ["forward_limit", 1001, "invalidPerAccountLimit"],
    ["alias_limit", 1000, OK],
    ["alias_limit", -1, "invalidPerAccountLimit"],
    ["aliases", [`jan.alias@${D}`], OK],
    ["aliases", ["jan.alias@example.org"], "invalidAliases"],
    ["aliases", [`bad..name@${D}`], "invalidAliases"],
    ["aliases", "x", "invalidAliases"],
    ["inbox_delete_after", 0, OK],
    ["inbox_delete_after", 3650, OK],
    ["inbox_delete_after", 3651, "invalidDeleteAfter"],
    ["trash_delete_after", -1, "invalidDeleteAfter"],
    ["spam_delete_after", 3651, "invalidDeleteAfter"],
    ["spam_enabled", 0, OK],
    ["spam_enabled", 2, "invalidSpamEnabled"],
    ["spam_rule", "tag", OK],
    ["spam_rule", "move", OK],
    ["spam_rule", "delete", "invalidSpamRule"],
    ["spam_rule", "TAG", "invalidSpamRule"],
    ["spam_hits", 2, OK],
    ["spam_hits", 9, OK],
    ["spam_hits", "7", OK, 7],
    ["spam_hits", 5.0, OK, 5],
    ["spam_hits", 3, "invalidSpamHits"],
    ["spam_hits", 10, "invalidSpamHits"],
    ["spam_white_list", ["example.org", "user@example.org"], OK],
    ["spam_white_list", ["not valid"], "invalidSpamListEntry"],
    ["spam_black_list", [1], "invalidSpamListEntry"],
    ["spam_greylist_whitelist", true, "invalidSpamListEntry"],
    ["spam_spf_whitelist", ["example"], "invalidSpamListEntry"],
    ["spam_rbl_whitelist", Array.from({ length: 1000 }, (_, i) => `d${i}.example.org`), OK],
    ["spam_rbl_whitelist", Array.from({ length: 1001 }, (_, i) => `d${i}.example.org`), "invalidSpamListEntry"],
    // The white and black lists hold at most 15,000 characters in all (each account's Sieve script holds them):
    // 1,000 entries of 15 do; the other three lists have no such cap (above: 16,890 characters).
    ["spam_black_list", Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(4, "0")}-abcdefg.pl`), OK],
    [
      "spam_black_list",
      Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(4, "0")}-abcdefg${i ? "" : "h"}.pl`),
      "invalidSpamListEntry",
    ],
    ["spam_rbl_enabled", -1, OK],
    ["spam_spf_enabled", 1, OK],
    ["spam_greylist_enabled", 0, OK],
    ["spam_greylist_enabled", 2, "invalidSpamSwitch"],
    ["spam_rbl_enabled", -2, "invalidSpamSwitch"],
    ["sms_phone_number_1", "+48600100200", OK],
    ["sms_phone_number_1", "123456", OK],
    ["sms_phone_number_1", "12345", "invalidSmsText"],
    ["sms_phone_number_2", "sms@example.org", OK],
    ["sms_phone_number_2", "call me", "invalidSmsText"],
    ["sms_login_1", s(64), OK],
    ["sms_login_1", s(65), "invalidSmsText"],
    ["sms_password_2", s(65), "invalidSmsText"],
    ...[0, 11, 12, 13, 21, 22, 23, 31, 32, 33, 51].map((v) => ["sms_operator_1", v, OK] as [string, unknown, Outcome]),
    ...[1, 10, 14, 20, 24, 34, 50, 52].map(
      (v) => ["sms_operator_2", v, "invalidSmsOption"] as [string, unknown, Outcome],
    ),
    ["sms_send_to", 1, OK],
    ["sms_send_to", 2, "invalidSmsOption"],
    ["sms_cnt", 3, OK],
    ["sms_cnt", 4, "invalidSmsOption"],
    ["autoresponder_mode", 1, OK],
    ["autoresponder_mode", 2, "invalidAutoresponderMode"],
    ["autoresponder_start_date", "2030-01-01", OK],
    ["autoresponder_start_date", "2030-02-30", "invalidAutoresponder"],
    ["autoresponder_body", s(10000), OK],
    ["autoresponder_body", s(10001), "invalidAutoresponder"],
  ];
  it.each(cases)("%s = %j -> %s", (field, value, outcome, readBack) => putField(path, field, value, outcome, readBack));

  it("autoresponder end date before its start date is refused, equal is accepted", async () => {
    const body = { autoresponder_start_date: "2030-05-10", autoresponder_end_date: "2030-05-09" };
    const res = await api("PUT", path, { auth: admin, body });
    expectError(res, "autoresponderEndBeforeStart", "autoresponder_end_date");
    expect(res.json.attributes).toEqual({ start_date: "2030-05-10", end_date: "2030-05-09" });
    const same = { autoresponder_start_date: "2030-05-10", autoresponder_end_date: "2030-05-10" };
    expectStatus(await api("PUT", path, { auth: admin, body: same }), 200);
  });

  it("a bad list quotes its bad entries in attributes (invalid, duplicates) and names the limit it passed", async () => {
    const bad = await api("PUT", path, {
      auth: admin,
      body: { forwards: ["ok@example.org", "not-an-address", "x@", "OK@example.org"] },
    });
    expectError(bad, "invalidForward", "forwards");
    expect(bad.json.attributes).toEqual({ invalid: ["not-an-address", "x@"], duplicates: ["ok@example.org"] });
    const self = await api("PUT", path, { auth: admin, body: { forwards: [`jan@${D}`] } });
    expectError(self, "invalidForward", "forwards");
    expect(self.json.attributes).toEqual({ invalid: [`jan@${D}`] });
    const many = await api("PUT", path, {
      auth: admin,
      body: { forwards: Array.from({ length: 51 }, (_, i) => `f${i}@example.org`) },
    });
    expectError(many, "invalidForward", "forwards");
    expect(many.json.attributes).toEqual({ max_entries: 50 });
  });

  it("several bad fields: the first in source, every one in children", async () => {
    const res = await api("PUT", path, { auth: admin, body: { description: s(49), capacity: 0, spam_rule: "x" } });
    expectError(res, "invalidDescription", "description");
    expect(res.json.children.map((c: { code: string; source: string }) => [c.code, c.source])).toEqual([
      ["500.302", "description"],
      ["500.303", "capacity"],
      ["500.322", "spam_rule"],
    ]);
  });
});

describe("passwords", () => {
  const cases: [string, Outcome][] = [
    ["abcd1", "invalidPassword"],
    ["abcde1", OK],
    ["abcdefghijklm12", OK],
    ["abcdefghijklm123", "invalidPassword"],
    ["abcdefgh", "invalidPassword"],
    ["12345678", "invalidPassword"],
    ["!@#$%^&*", "invalidPassword"],
    ["abcdef~", OK],
    ["abc:[]{}", OK],
    ["abcd12$", "invalidPassword"],
    ["abcd12 ", "invalidPassword"],
    ["zażółć1", "invalidPassword"],
    ['abc"12', "invalidPassword"],
  ];
  it.each(cases)("%j -> %s (and the new password logs in)", async (password, outcome) => {
    const res = await api("PUT", `emails/${D}/jan`, { auth: admin, body: { password } });
    if (outcome !== OK) return expectError(res, outcome, "password");
    expectStatus(res, 200);
    expect(res.json.password).toBe("");
    const me = await api("GET", `emails/${D}/jan`, { auth: { email: `jan@${D}`, password } });
    expectStatus(me, 200);
  });

  it("password_retype must equal password when not empty", async () => {
    const bad = await api("PUT", `emails/${D}/jan`, {
      auth: admin,
      body: { password: "Jan-pass2", password_retype: "Jan-pass3" },
    });
    expectError(bad, "passwordMismatch", "password_retype");
    const ok = await api("PUT", `emails/${D}/jan`, {
      auth: admin,
      body: { password: "Jan-pass2", password_retype: "Jan-pass2" },
    });
    expectStatus(ok, 200);
    // A retype with no password (missing or empty) is a mismatch too: nothing changes, and the client is told.
    for (const body of [{ password_retype: "Jan-pass9" }, { password: "", password_retype: "Jan-pass9" }]) {
      expectError(await api("PUT", `emails/${D}/jan`, { auth: admin, body }), "passwordMismatch", "password_retype");
    }
    expectStatus(await api("GET", `emails/${D}/jan`, { auth: { email: `jan@${D}`, password: "Jan-pass2" } }), 200);
    expectStatus(
      await api("PUT", `emails/${D}/jan`, { auth: admin, body: { password: "", password_retype: "" } }),
      200,
    );
  });

  it("POST of an account needs a password", async () => {
    expectError(await api("POST", `emails/${D}/nopass`, { auth: admin, body: {} }), "invalidPassword", "password");
    expectError(
      await api("POST", `emails/${D}/nopass`, { auth: admin, body: { password: "" } }),
      "invalidPassword",
      "password",
    );
  });
});

describe("domain fields (PUT domains/<domain>)", () => {
  const path = `domains/${D}`;
  it.each([
    ["spam_white_list", ["good.example.org"], OK],
    ["spam_black_list", ["bad@"], "invalidSpamListEntry"],
    ["spam_enabled", 0, OK],
    ["spam_enabled", "yes", "invalidSpamEnabled"],
    ["spam_spf_enabled", 1, OK],
    ["spam_spf_enabled", 3, "invalidSpamSwitch"],
    ["catchall_type", 4, "invalidCatchallType"],
    ["catchall_type", -1, "invalidCatchallType"],
  ] as [string, unknown, Outcome][])("%s = %j -> %s", (field, value, outcome) => putField(path, field, value, outcome));

  it.each([
    [1, `jan@${D}`, OK],
    [1, `ghost@${D}`, "catchallAccountMissing"],
    [1, "jan@example.org", "invalidCatchallAddress"],
    // Types 2 and 3: only another domain of the same customer (docs/customers.md); nothing else, hosted or not.
    [2, "postmaster@val-sister.example.com", OK],
    [2, "ghost@val-sister.example.com", "invalidCatchallAddress"],
    [2, "someone@example.org", "invalidCatchallAddress"],
    [2, `jan@${D}`, "invalidCatchallAddress"],
    [2, "ghost@acl.example.com", "invalidCatchallAddress"],
    [2, "postmaster@acl.example.com", "invalidCatchallAddress"],
    [3, "val-sister.example.com", OK],
    [3, "example.org", "invalidCatchallAddress"],
    [3, "acl.example.com", "invalidCatchallAddress"],
    [3, D, "invalidCatchallAddress"],
    [3, "not a domain", "invalidCatchallAddress"],
    [0, "", OK],
    [0, "jan@example.org", "invalidCatchallAddress"],
  ] as [number, string, Outcome][])("catchall_type %d with %j -> %s", async (type, address, outcome) => {
    const res = await api("PUT", path, { auth: admin, body: { catchall_type: type, catchall_address: address } });
    if (outcome === OK) {
      expectStatus(res, 200);
      expect(res.json).toMatchObject({ catchall_type: type, catchall_address: address });
    } else expectError(res, outcome, "catchall_address");
  });

  it("read-only fields are ignored (a GET record sent back whole is accepted)", async () => {
    const record = (await api("GET", path, { auth: admin })).json as Record<string, unknown>;
    const res = await api("PUT", path, { auth: admin, body: { ...record, account_limit: "999999", spam_enabled: 1 } });
    expectStatus(res, 200);
    expect(res.json).toEqual({ ...record, spam_enabled: 1 });
  });
});
