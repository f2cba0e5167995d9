/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON */
// Each validation rule at its boundary, on both sides (see validation.test.ts): mailing lists, alias targets and
// the list query parameters.
import { describe, expect, it } from "vitest";
import { ACCOUNT_ITEM_FIELDS } from "./access-fields";
import { api, expectError, expectStatus } from "./client";
import { OK, s, validationDomain, type Outcome } from "./validation-setup";

const D = "val-lists.example.com";
const { admin, putField } = validationDomain(D);

describe("mailing list names (POST mailinglists/<domain>/<name>)", () => {
  const cases: [string, Outcome][] = [
    ["li", OK],
    ["l", "invalidListName"],
    [s(32, "m"), OK],
    [s(33, "n"), "invalidListName"],
    ["a/b", OK],
    ["a.b-c/d", OK],
    ["a//b", "invalidListName"],
    ["a/.b", "invalidListName"],
    ["/ab", "invalidListName"],
    ["ab/", "invalidListName"],
    ["a_b", "invalidListName"],
    ["Lista", "invalidListName"],
  ];
  it.each(cases)("%j -> %s", async (name, outcome) => {
    const res = await api("POST", `mailinglists/${D}/${encodeURIComponent(name)}`, { auth: admin, body: {} });
    if (outcome === OK) {
      expectStatus(res, 201);
      expect(res.json.name).toBe(name);
      const back = await api("GET", `mailinglists/${D}/${encodeURIComponent(name)}`, { auth: admin });
      expectStatus(back, 200);
    } else expectError(res, outcome, name);
  });
});

describe("mailing list fields (PUT mailinglists/<domain>/lista)", () => {
  const path = `mailinglists/${D}/lista`;
  const cases: [string, unknown, Outcome][] = [
    ["description", s(255), OK],
    ["description", s(256), "invalidListText"],
    ...[
      "subscribe_request_mail_subject",
      "unsubscribe_request_mail_subject",
      "subscribe_mail_subject",
      "unsubscribe_mail_subject",
    ].flatMap(
      (f) =>
        [
          [f, s(255), OK],
          [f, s(256), "invalidListText"],
        ] as [string, unknown, Outcome][],
    ),
    ["subscribe_mail_body", s(10000), OK],
    ["unsubscribe_mail_body", s(10001), "invalidListText"],
    ["subscribe_request_mail_body", "Kliknij {{confirm_link}}", OK],
    ["subscribe_request_mail_body", "Kliknij tutaj", "invalidListText"],
    ["unsubscribe_request_mail_body", "bez linku", "invalidListText"],
    ["privacy_mode", 0, OK],
    ["privacy_mode", 2, OK],
    ["privacy_mode", 3, "invalidListOption"],
    ["replyto_mode", 1, OK],
    ["replyto_mode", -1, "invalidListOption"],
    ["replyto_email", "reply@example.org", OK],
    ["replyto_email", "Reply@example.org", "invalidListOption"],
    ["replyto_email", "nope", "invalidListOption"],
    ["replyto_catchall", 1, OK],
    ["replyto_catchall", 2, "invalidListOption"],
    ["confirm_url", "https://example.org/confirm", OK],
    ["confirm_url", "", OK],
    ["confirm_url", "ftp://example.org/x", "invalidListOption"],
    ["autosubscribe_enabled", 1, OK],
    ["autosubscribe_enabled", 5, "invalidListOption"],
    ["accounts", ["a@example.org", `jan@${D}`], OK],
    ["accounts", ["a@example.org", "a@example.org"], "invalidListOption"],
    ["moderators", ["not an address"], "invalidListOption"],
  ];
  it.each(cases)("%s = %j -> %s", (field, value, outcome) => putField(path, field, value, outcome));

  it("a refused confirm_url says what is wrong with it in attributes (the address, and scheme or space)", async () => {
    const scheme = await api("PUT", path, { auth: admin, body: { confirm_url: "ftp://example.org/x" } });
    expectError(scheme, "invalidListOption", "confirm_url");
    expect(scheme.json.attributes).toEqual({ confirm_url: "ftp://example.org/x", problem: "scheme" });
    const space = await api("PUT", path, { auth: admin, body: { confirm_url: "https://example.org/a b" } });
    expectError(space, "invalidListOption", "confirm_url");
    expect(space.json.attributes).toEqual({ confirm_url: "https://example.org/a b", problem: "space" });
  });

  it("replyto_mode 2 needs a reply-to address", async () => {
    expectStatus(await api("PUT", path, { auth: admin, body: { replyto_email: "" } }), 200);
    expectError(
      await api("PUT", path, { auth: admin, body: { replyto_mode: 2 } }),
      "invalidListOption",
      "replyto_email",
    );
    const ok = await api("PUT", path, { auth: admin, body: { replyto_mode: 2, replyto_email: "r@example.org" } });
    expectStatus(ok, 200);
  });

  it("a bad reply-to address says why, quoting it", async () => {
    const upper = await api("PUT", path, { auth: admin, body: { replyto_email: "Odpowiedzi@example.org" } });
    expectError(upper, "invalidListOption", "replyto_email");
    expect(upper.json.attributes).toEqual({ replyto_email: "Odpowiedzi@example.org", problem: "uppercase" });
    const bad = await api("PUT", path, { auth: admin, body: { replyto_email: "abc" } });
    expect(bad.json.attributes).toEqual({ replyto_email: "abc", problem: "address" });
  });

  it("the moderation body: an unknown field is named (500.115), a bad id list names its own field, a post in both lists is refused", async () => {
    const moderation = `${path}/moderation`;
    expectError(await api("POST", moderation, { auth: admin, body: { bogus: 1 } }), "unknownField", "bogus");
    expectError(await api("POST", moderation, { auth: admin, body: { approve: "1" } }), "invalidListOption", "approve");
    expectError(await api("POST", moderation, { auth: admin, body: { reject: ["x"] } }), "invalidListOption", "reject");
    // One post approved and rejected at once: it was marked approved, then deleted, and nothing was sent.
    expectError(
      await api("POST", moderation, { auth: admin, body: { approve: [1, 2], reject: [2] } }),
      "invalidListOption",
      "reject",
    );
    // Held posts' ids are 32-bit integers on both engines: a larger one reached PostgreSQL's query (500.100).
    for (const id of [2 ** 31, Number.MAX_SAFE_INTEGER])
      expectError(
        await api("POST", moderation, { auth: admin, body: { approve: [id] } }),
        "invalidListOption",
        "approve",
      );
    expectStatus(await api("POST", moderation, { auth: admin, body: { approve: [], reject: [] } }), 200);
  });
});

describe("alias target", () => {
  it.each([
    [{ target: "x@example.org" }, OK],
    [{ target: "X@Example.ORG" }, OK],
    [{}, "invalidAliasTarget"],
    [{ target: "" }, "invalidAliasTarget"],
    [{ target: "nope" }, "invalidAliasTarget"],
    [{ target: `alias1@${D}` }, "invalidAliasTarget"],
    [{ target: 42 }, "invalidAliasTarget"],
  ] as [object, Outcome][])("%j -> %s", async (body, outcome) => {
    const res = await api("PUT", `aliases/${D}/alias1`, { auth: admin, body });
    if (outcome === OK) {
      expectStatus(res, 200);
      expect(res.json.target).toBe("x@example.org");
    } else expectError(res, outcome, "target");
  });
});

describe("list query parameters (GET emails|aliases|mailinglists/<domain>)", () => {
  const cases: [string, Outcome][] = [
    ["size=1", OK],
    ["size=1000", OK],
    ["size=1001", "invalidQuery"],
    ["size=0", "invalidQuery"],
    ["size=-1", "invalidQuery"],
    ["size=abc", "invalidQuery"],
    ["size=", "invalidQuery"],
    ["page=0", OK],
    ["page=999999", OK],
    ["page=-1", "invalidQuery"],
    ["page=1.5", "invalidQuery"],
    ["sort_dir=asc", OK],
    ["sort_dir=desc", OK],
    ["sort_dir=up", "invalidQuery"],
    ["sort_dir=DESC", "invalidQuery"],
    ["sort=name", OK],
    ["sort=password", "invalidQuery"],
    [`search=${s(100)}`, OK],
    [`search=${s(101)}`, "invalidQuery"],
  ];
  for (const resource of ["emails", "aliases", "mailinglists"]) {
    it.each(cases)(`${resource}?%s -> %s`, async (query, outcome) => {
      const res = await api("GET", `${resource}/${D}?${query}`, { auth: admin });
      if (outcome === OK) {
        expectStatus(res, 200);
        expect(res.json.result_info.fetched).toBe(Object.keys(res.json.result_data as object).length);
      } else expectError(res, outcome, query.split("=")[0]);
    });
  }

  it.each([
    ["emails", ACCOUNT_ITEM_FIELDS],
    ["aliases", ["name", "email", "domain", "target"]],
    [
      "mailinglists",
      ["name", "email", "domain", "description", "privacy_mode", "replyto_mode", "autosubscribe_enabled"],
    ],
  ])("%s sorts by every summary field", async (resource, fields) => {
    for (const field of fields) {
      for (const dir of ["asc", "desc"]) {
        expectStatus(await api("GET", `${resource}/${D}?sort=${field}&sort_dir=${dir}`, { auth: admin }), 200);
      }
    }
  });
});
