/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- response bodies are untyped JSON */
// Every endpoint (specification table and contract §2) for every kind of caller, with the status codes of
// contract §3 and the authorization errors of contract §4:
//   admin   - postmaster of the domain in the path
//   foreign - postmaster of another domain
//   self    - the ordinary account the path names (for account paths), or an ordinary account of the domain
//   peer    - another ordinary account of the same domain
//   anon    - no credentials
import { beforeAll, describe, expect, it } from "vitest";
import type { ErrorKey } from "@/lib/errors/catalog";
import { api, createAccount, expectError, expectStatus, postmaster, type ApiResponse, type Creds } from "./client";
import { ACCOUNT_FIELDS, ACCOUNT_ITEM_FIELDS, DOMAIN_FIELDS, LIST_FIELDS } from "./access-fields";

const D = "acl.example.com";
const roles = {
  admin: postmaster(D),
  foreign: postmaster("other.example.com"),
  self: { email: `jan@${D}`, password: "Jan-pass1" },
  peer: { email: `ewa@${D}`, password: "Ewa-pass1" },
  anon: null,
} satisfies Record<string, Creds | null>;
type Role = keyof typeof roles;
const ROLES = Object.keys(roles) as Role[];

/** What each role gets: a success status, or a catalog error. Ordinary accounts get 403.2 on anything but themselves. */
type Outcome = number | ErrorKey;
const adminOnly = (status: number): Record<Role, Outcome> => ({
  admin: status,
  foreign: "forbidden",
  self: "forbidden",
  peer: "forbidden",
  anon: "missingCredentials",
});
const adminAndSelf = (status: number): Record<Role, Outcome> => ({ ...adminOnly(status), self: status });

interface Case {
  method: string;
  /** Path for a role; mutating cases give each role its own record so outcomes do not depend on order. */
  path: (role: Role) => string;
  body?: Record<string, unknown>;
  expected: Record<Role, Outcome>;
  /** Checks the success body. */
  check?: (res: ApiResponse, role: Role) => void;
}

const listEnvelope = (itemKeys: string[]) => (res: ApiResponse) => {
  expect(Object.keys(res.json as object).sort()).toEqual(["result_data", "result_info"]);
  expect(res.json.result_info).toEqual({
    total: expect.any(Number),
    fetched: Object.keys(res.json.result_data as object).length,
    page_size: 50,
    page: 0,
  });
  for (const item of Object.values(res.json.result_data as Record<string, object>)) {
    expect(Object.keys(item).sort()).toEqual([...itemKeys].sort());
  }
};

const cases: Record<string, Case> = {
  "GET domains/<domain>": {
    method: "GET",
    path: () => `domains/${D}`,
    expected: adminOnly(200),
    check: (res) => {
      expect(Object.keys(res.json as object)).toEqual(expect.arrayContaining(DOMAIN_FIELDS));
      expect(res.json.account_limit).toBe("1000");
    },
  },
  "PUT domains/<domain>": {
    method: "PUT",
    path: () => `domains/${D}`,
    body: { spam_rbl_enabled: 0 },
    expected: adminOnly(200),
    check: (res) => expect(res.json.spam_rbl_enabled).toBe(0),
  },
  "GET emails/<domain>": {
    method: "GET",
    path: () => `emails/${D}`,
    expected: adminOnly(200),
    check: listEnvelope(ACCOUNT_ITEM_FIELDS),
  },
  "GET emails/<domain>/<name>": {
    method: "GET",
    path: () => `emails/${D}/jan`,
    expected: adminAndSelf(200),
    check: (res) => {
      expect(Object.keys(res.json as object).sort()).toEqual([...ACCOUNT_FIELDS].sort());
      expect(res.json).toMatchObject({ name: "jan", domain: D, email: `jan@${D}`, password: "", password_retype: "" });
    },
  },
  "PUT emails/<domain>/<name>": {
    method: "PUT",
    path: () => `emails/${D}/jan`,
    body: { usage_notification_level: 77 },
    expected: adminAndSelf(200),
    check: (res) => expect(res.json.usage_notification_level).toBe(77),
  },
  "POST emails/<domain>/<name>": {
    method: "POST",
    path: (role) => `emails/${D}/new-${role}`,
    body: { password: "Start-123", capacity: 1 },
    expected: adminOnly(201),
    check: (res, role) =>
      expect(res.json).toMatchObject({ name: `new-${role}`, email: `new-${role}@${D}`, password: "" }),
  },
  "DELETE emails/<domain>/<name>": {
    method: "DELETE",
    path: (role) => `emails/${D}/del-${role}`,
    expected: adminOnly(204),
  },
  "GET aliases/<domain>": {
    method: "GET",
    path: () => `aliases/${D}`,
    expected: adminOnly(200),
    check: listEnvelope(["name", "domain", "email", "target"]),
  },
  "GET aliases/<domain>/<name>": {
    method: "GET",
    path: () => `aliases/${D}/info`,
    expected: adminOnly(200),
    check: (res) => expect(res.json).toEqual({ name: "info", domain: D, email: `info@${D}`, target: `jan@${D}` }),
  },
  "POST aliases/<domain>/<name>": {
    method: "POST",
    path: (role) => `aliases/${D}/al-${role}`,
    body: { target: `jan@${D}` },
    expected: adminOnly(201),
    check: (res, role) =>
      expect(res.json).toEqual({ name: `al-${role}`, domain: D, email: `al-${role}@${D}`, target: `jan@${D}` }),
  },
  "PUT aliases/<domain>/<name>": {
    method: "PUT",
    path: () => `aliases/${D}/info`,
    body: { target: `ewa@${D}` },
    expected: adminOnly(200),
    check: (res) => expect(res.json.target).toBe(`ewa@${D}`),
  },
  "DELETE aliases/<domain>/<name>": {
    method: "DELETE",
    path: (role) => `aliases/${D}/adel-${role}`,
    expected: adminOnly(204),
  },
  "GET mailinglists/<domain>": {
    method: "GET",
    path: () => `mailinglists/${D}`,
    expected: adminOnly(200),
    check: listEnvelope([
      "email",
      "description",
      "privacy_mode",
      "replyto_mode",
      "autosubscribe_enabled",
      "name",
      "domain",
    ]),
  },
  "GET mailinglists/<domain>/<name>": {
    method: "GET",
    path: () => `mailinglists/${D}/team`,
    expected: adminOnly(200),
    check: (res) => expect(Object.keys(res.json as object).sort()).toEqual([...LIST_FIELDS].sort()),
  },
  "POST mailinglists/<domain>/<name>": {
    method: "POST",
    path: (role) => `mailinglists/${D}/ml-${role}`,
    body: { description: "Nowa lista" },
    expected: adminOnly(201),
    check: (res, role) => {
      expect(res.json).toMatchObject({ name: `ml-${role}`, email: `ml-${role}@${D}`, description: "Nowa lista" });
      // Default Polish templates when none are sent.
      expect(res.json.subscribe_request_mail_body).toContain("{{confirm_link}}");
      expect(res.json.subscribe_mail_subject).toMatch(/Witamy/);
    },
  },
  "PUT mailinglists/<domain>/<name>": {
    method: "PUT",
    path: () => `mailinglists/${D}/team`,
    body: { privacy_mode: 2 },
    expected: adminOnly(200),
    check: (res) => expect(res.json.privacy_mode).toBe(2),
  },
  "DELETE mailinglists/<domain>/<name>": {
    method: "DELETE",
    path: (role) => `mailinglists/${D}/mdel-${role}`,
    expected: adminOnly(204),
  },
};

beforeAll(async () => {
  await createAccount(D, "jan", { password: roles.self.password });
  await createAccount(D, "ewa", { password: roles.peer.password });
  const admin = roles.admin;
  const setup: [string, string, object?][] = [
    ["POST", `aliases/${D}/info`, { target: `jan@${D}` }],
    ["POST", `mailinglists/${D}/team`, { description: "Zespół" }],
  ];
  for (const role of ROLES) {
    setup.push(["POST", `emails/${D}/del-${role}`, { password: "Start-123", capacity: 1 }]);
    setup.push(["POST", `aliases/${D}/adel-${role}`, { target: `jan@${D}` }]);
    setup.push(["POST", `mailinglists/${D}/mdel-${role}`, {}]);
  }
  for (const [method, path, body] of setup) expectStatus(await api(method, path, { auth: admin, body }), 201);
});

describe.each(Object.entries(cases))("%s", (_title, c) => {
  it.each(ROLES)("as %s", async (role) => {
    const res = await api(c.method, c.path(role), { auth: roles[role], body: c.body });
    const expected = c.expected[role];
    if (typeof expected === "number") {
      expectStatus(res, expected);
      if (expected === 204) expect(res.text).toBe("");
      else expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      c.check?.(res, role);
    } else {
      expectError(res, expected);
    }
  });
});

describe("refused writes change nothing", () => {
  it("records that others tried to create do not exist, records others tried to delete still exist", async () => {
    const admin = roles.admin;
    for (const role of ROLES.filter((r) => r !== "admin")) {
      expectError(await api("GET", `emails/${D}/new-${role}`, { auth: admin }), "recordNotFound", `new-${role}`);
      expectError(await api("GET", `aliases/${D}/al-${role}`, { auth: admin }), "recordNotFound", `al-${role}`);
      expectError(await api("GET", `mailinglists/${D}/ml-${role}`, { auth: admin }), "recordNotFound", `ml-${role}`);
      expectStatus(await api("GET", `emails/${D}/del-${role}`, { auth: admin }), 200);
      expectStatus(await api("GET", `aliases/${D}/adel-${role}`, { auth: admin }), 200);
      expectStatus(await api("GET", `mailinglists/${D}/mdel-${role}`, { auth: admin }), 200);
    }
    expectError(await api("GET", `emails/${D}/del-admin`, { auth: admin }), "recordNotFound", "del-admin");
  });

  it("an ordinary account cannot name itself among several accounts", async () => {
    const res = await api("PUT", `emails/${D}/jan,ewa`, { auth: roles.self, body: { keep_mail: 0 } });
    expectError(res, "forbidden");
  });

  it("an account of another domain with the same local part is not 'self'", async () => {
    await createAccount("other.example.com", "jan", { password: "Jan-pass1" });
    const res = await api("GET", `emails/${D}/jan`, {
      auth: { email: "jan@other.example.com", password: "Jan-pass1" },
    });
    expectError(res, "forbidden");
  });
});

describe("missing resources", () => {
  const admin = roles.admin;
  it("403.2 for a domain not served here (contract §9, e2e/api/contract-hardening.test.ts), 500.363 for a malformed one", async () => {
    expectError(await api("GET", "domains/nowhere.example.net", { auth: admin }), "forbidden");
    expectError(await api("GET", "emails/nowhere.example.net/jan", { auth: admin }), "forbidden");
    expectError(await api("GET", "domains/ACL.example.com", { auth: admin }), "invalidDomainName", "domain");
    expectError(await api("GET", "mailinglists/no_domain", { auth: admin }), "invalidDomainName", "domain");
  });

  it("404.2 for each resource, naming it in source", async () => {
    expectError(await api("GET", `emails/${D}/nobody`, { auth: admin }), "recordNotFound", "nobody");
    expectError(await api("PUT", `emails/${D}/nobody`, { auth: admin, body: {} }), "recordNotFound", "nobody");
    expectError(await api("DELETE", `emails/${D}/nobody`, { auth: admin }), "recordNotFound", "nobody");
    expectError(await api("GET", `aliases/${D}/nobody`, { auth: admin }), "recordNotFound", "nobody");
    expectError(
      await api("PUT", `aliases/${D}/nobody`, { auth: admin, body: { target: `jan@${D}` } }),
      "recordNotFound",
      "nobody",
    );
    expectError(await api("GET", `mailinglists/${D}/nobody`, { auth: admin }), "recordNotFound", "nobody");
    expectError(await api("PUT", `mailinglists/${D}/nobody`, { auth: admin, body: {} }), "recordNotFound", "nobody");
  });

  it("409.1 when the name is taken by an account, alias or list (one namespace)", async () => {
    expectError(
      await api("POST", `emails/${D}/info`, { auth: admin, body: { password: "Start-123" } }),
      "nameTaken",
      "info",
    );
    expectError(
      await api("POST", `aliases/${D}/team`, { auth: admin, body: { target: `jan@${D}` } }),
      "nameTaken",
      "team",
    );
    expectError(await api("POST", `mailinglists/${D}/jan`, { auth: admin, body: {} }), "nameTaken", "jan");
    expectError(
      await api("POST", `emails/${D}/jan`, { auth: admin, body: { password: "Start-123" } }),
      "nameTaken",
      "jan",
    );
  });

  it("the postmaster account cannot be deleted or blocked (403.2)", async () => {
    expectError(await api("DELETE", `emails/${D}/postmaster`, { auth: admin }), "postmasterProtected", "postmaster");
    expectError(
      await api("PUT", `emails/${D}/postmaster`, { auth: admin, body: { blocked: 1 } }),
      "postmasterProtected",
      "blocked",
    );
    expectError(
      await api("PUT", `emails/${D}/postmaster`, { auth: admin, body: { expiration_date: "2001-01-01" } }),
      "postmasterProtected",
      "expiration_date",
    );
    // A future date too: once it came, the domain would have no administrator left.
    expectError(
      await api("PUT", `emails/${D}/postmaster`, { auth: admin, body: { expiration_date: "2999-12-31" } }),
      "postmasterProtected",
      "expiration_date",
    );
    const cleared = await api("PUT", `emails/${D}/postmaster`, { auth: admin, body: { expiration_date: "" } });
    expect(cleared.status).toBe(200);
    expect((cleared.json as { expiration_date: string }).expiration_date).toBe("");
  });
});
