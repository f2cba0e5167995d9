// Property-based test of the panel's own endpoints (/api/panel/...: the session, the sign-out form, the password
// change, the passage to the v1 API, and paths that are none of these) with random methods, paths, queries, bodies,
// cookies and origins.
// Whatever is sent, the answer is JSON: a success, or an error of the v1 catalog or of the panel's own
// (lib/errors/panel-errors.ts) with its status; never HTML, a stack trace, an empty 4xx/5xx, or 500.100.
// The one non-JSON answer by design is the sign-out form's 303 to /login. Runs on the main server, in its own domain;
// no request carries credentials that could count as a failed sign-in (which would throttle the other test files).
import fc from "fast-check";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { errorCatalog, type ErrorKey } from "@/lib/errors/catalog";
import { panelErrors } from "@/lib/errors/panel-errors";
import { createAccount, recordAsserted, sha1Hex, type Creds } from "./client";
import { PM_PASSWORD } from "./fixtures";
import { collectionPath, recordPath, weirdSegment } from "./fuzz-paths";
import { send, signIn, type Answer } from "./panel-send";

const D = "panel.example.com";
const origin = () => new URL(inject("mainBase")).origin;
const admin: Creds = { email: `postmaster@${D}`, password: PM_PASSWORD };
const user: Creds = { email: `u1@${D}`, password: "User-pass1" };
const cookies: Record<"admin" | "user", string> = { admin: "", user: "" };

// --- generators ---
const weird = weirdSegment("..x");
const name = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom("u1", "u2", "a1", "l1", "ghost", "u1,u2", "u1,ghost", "new1", "new2") },
  // The session's own account among other names (a password from a session must never reach it).
  { weight: 2, arbitrary: fc.constantFrom("postmaster", "postmaster,u2", "u2,postmaster", "u1,postmaster,u2") },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: weird },
);
const domain = fc.oneof(
  { weight: 6, arbitrary: fc.constant(D) },
  { weight: 2, arbitrary: fc.constantFrom("hy.example.com", "missing.example.org", "BAD") },
  { weight: 1, arbitrary: weird },
);
const v1Path = fc.oneof(
  {
    weight: 6,
    arbitrary: recordPath(domain, name),
  },
  {
    weight: 3,
    arbitrary: collectionPath(domain),
  },
  { weight: 1, arbitrary: fc.constantFrom("openapi.json", "", "nothing", "domains", "emails//x") },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.oneof(weird, fc.string({ maxLength: 8 }).map(encodeURIComponent)), { maxLength: 4 })
      .map((xs) => xs.join("/")),
  },
);
const path = fc.oneof(
  { weight: 8, arbitrary: v1Path.map((p) => `/api/panel/v1/${p}`) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "/api/panel/session",
      "/api/panel/session/",
      "/api/panel/session/logout",
      "/api/panel/session/x",
      "/api/panel/password",
      "/api/panel/password/",
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(
        fc.oneof(
          weird,
          fc.constantFrom("v1", "session", "v2", "panel"),
          fc.string({ maxLength: 8 }).map(encodeURIComponent),
        ),
        { maxLength: 4 },
      )
      .map((xs) => `/api/panel/${xs.join("/")}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "/api/panel",
      "/api/panel/",
      "//api/panel/v1/emails",
      "/api/panel//session",
      "/api/panel\\session",
    ),
  },
  // Paths under /api that match nothing answer JSON 404.4 too.
  { weight: 1, arbitrary: fc.constantFrom("/api", "/api/", "/api/foo", "/api/v2/emails", "/api/health/x", "/api/v1x") },
);
const query = fc.oneof(
  { weight: 4, arbitrary: fc.constant("") },
  {
    weight: 3,
    arbitrary: fc
      .dictionary(
        fc.constantFrom("page", "size", "search", "sort", "sort_dir", "envelope", "callback", "x"),
        fc.oneof(
          fc.constantFrom("0", "-1", "1001", "name", "desc", "true", "cb", "1x", ""),
          fc.string({ maxLength: 8 }),
        ),
        { maxKeys: 3 },
      )
      .map((q) => new URLSearchParams(q).toString()),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => encodeURIComponent(s)) },
);
const fieldValue = fc.oneof(
  fc.constantFrom(
    0,
    1,
    -1,
    "",
    "x\u0000y",
    "a\r\nBcc: evil@x.test",
    "\ud800",
    "2030-02-30",
    `u2@${D}`,
    "x@example.org",
    "Abc-1234",
    null,
    true,
    [],
    {},
    ["not valid"],
  ),
  // Bidirectional controls, reserved local parts, catchalls outside the customer.
  fc.constantFrom(
    "gpj\u202eexe",
    "a\u2066b",
    `admin@${D}`,
    [`webmaster@${D}`],
    [`abuse@${D}`, `u2x@${D}`],
    "postmaster@hy.example.com",
    "hy.example.com",
    2,
    3,
  ),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 30 }),
);
const fieldName = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "description",
      "capacity",
      "password",
      "target",
      "privacy_mode",
      "autoresponder_body",
      "spam_enabled",
      "aliases",
      "forwards",
      "sms_login_1",
      "subscribe_mail_subject",
      "email",
      "digest",
      "__proto__",
      "constructor",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom("catchall_type", "catchall_address", "password") },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
const body = fc.oneof(
  { weight: 2, arbitrary: fc.constant<string | undefined>(undefined) },
  { weight: 6, arbitrary: fc.dictionary(fieldName, fieldValue, { maxKeys: 3 }).map((o) => JSON.stringify(o)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
  { weight: 2, arbitrary: fc.constantFrom("{", "[1,2", "nul", '{"a":1}}', "\u0000", '{"email":', "x".repeat(5000)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);
const cookie = fc.constantFrom<"admin" | "user" | "none" | "garbage" | "forged" | "double" | "tossed">(
  "admin",
  "admin",
  "admin",
  "user",
  "none",
  "garbage",
  "forged",
  "double",
  "tossed",
);
const originHeader = fc.constantFrom<"own" | "none" | "other" | "null">("own", "own", "own", "none", "other", "null");
const method = fc.constantFrom("GET", "GET", "PUT", "PUT", "POST", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS");
const contentType = fc.constantFrom<string | undefined>(
  "application/json",
  "application/json",
  "text/plain",
  "application/x-www-form-urlencoded",
  undefined,
);

// Requests well formed for one resource, from the signed-in administrator, so that a good share succeed and write.
const wellFormed = fc.constantFrom("emails", "aliases", "mailinglists", "domains").chain((r) =>
  fc.record({
    m: fc.constantFrom("GET", "PUT", "PUT", "POST", "POST", "DELETE"),
    p: (r === "domains"
      ? fc.constant(`domains/${D}`)
      : fc.constantFrom("u2", "new1", "new2", "a1", "a2", "l1", "l2").map((n) => `${r}/${D}/${n}`)
    ).map((v) => `/api/panel/v1/${v}`),
    q: fc.constantFrom("", "", "envelope=true"),
    b: (r === "emails"
      ? fc.record(
          {
            description: fc.string({ maxLength: 20 }),
            keep_mail: fc.constantFrom(0, 1),
            capacity: fc.integer({ min: 1, max: 5 }),
            password: fc.constant("Abc-1234"),
          },
          { requiredKeys: [] },
        )
      : r === "aliases"
        ? fc.record({ target: fc.constantFrom("x@example.org", `u2@${D}`) })
        : r === "mailinglists"
          ? fc.record(
              { description: fc.string({ maxLength: 20 }), privacy_mode: fc.constantFrom(0, 1, 2) },
              { requiredKeys: [] },
            )
          : fc.record({ spam_enabled: fc.constantFrom(0, 1) })
    ).map((o): string | undefined => JSON.stringify(o)),
    c: fc.constant("admin" as const),
    o: fc.constant("own" as const),
    t: fc.constant("application/json"),
  }),
);

interface Case {
  m: string;
  p: string;
  q: string;
  b: string | undefined;
  c: "admin" | "user" | "none" | "garbage" | "forged" | "double" | "tossed";
  o: "own" | "none" | "other" | "null";
  t: string | undefined;
}

const isSession = (p: string) => /^\/api\/panel\/session\/?$/.test(p);
const isLogout = (p: string) => /^\/api\/panel\/session\/logout\/?$/.test(p);
const isPassword = (p: string) => /^\/api\/panel\/password\/?$/.test(p);

/** Requests that could sign the two sessions out, or count as a failed sign-in, are sent without a live cookie or made harmless. */
function harmless(x: Case): Case {
  let { c, b } = x;
  // Signing out (DELETE session, the logout form) would end the live sessions the rest of the run uses.
  if ((isSession(x.p) && x.m === "DELETE") || isLogout(x.p)) c = c === "admin" || c === "user" ? "forged" : c;
  // A sign-in or password change with an object body reaches the password check; keep those bodies non-objects.
  if (((isSession(x.p) && x.m === "POST") || (isPassword(x.p) && x.m === "PUT")) && b !== undefined && /^\s*\{/.test(b))
    b = `[${b}]`;
  return { ...x, c, b };
}

function headersOf(x: Case): Record<string, string> {
  const h: Record<string, string> = {};
  const live = { admin: cookies.admin, user: cookies.user };
  if (x.c === "admin" || x.c === "user") h.cookie = live[x.c];
  else if (x.c === "garbage") h.cookie = "mailadmin_session=%%%; other=1";
  else if (x.c === "forged") h.cookie = `mailadmin_session=${"a".repeat(43)}`;
  else if (x.c === "double") h.cookie = `${cookies.user}; ${cookies.admin}`;
  // A live session next to one planted under the other name (cookie tossing): refused like no session.
  else if (x.c === "tossed") h.cookie = `__Host-mailadmin_session=${"b".repeat(43)}; ${cookies.admin}`;
  if (x.o === "own") h.origin = origin();
  else if (x.o === "other") h.origin = "https://evil.example";
  else if (x.o === "null") h.origin = "null";
  if (x.b !== undefined && x.t) h["content-type"] = x.t;
  return h;
}

const panelCodes = Object.values(panelErrors);
const seen = new Map<string, number>();

function check(x: Case, res: Answer) {
  const what = `${x.m} ${x.p}?${x.q} [${x.c}/${x.o}] ${x.b ?? ""} -> ${res.status} ${res.text.slice(0, 300)}`;
  const ctype = res.headers["content-type"] ?? "";
  expect(ctype, what).not.toMatch(/html/i);
  expect(res.text, what).not.toMatch(/^\s*</);
  expect(res.text, what).not.toMatch(/\n\s+at .+:\d+:\d+|node_modules|\.next\//);
  if ((x.m === "HEAD" || x.m === "OPTIONS" || res.status === 204) && res.text === "") {
    // No body by definition; never a server failure.
    expect(res.status, what).toBeLessThan(500);
    seen.set(`${x.m} ${res.status}`, (seen.get(`${x.m} ${res.status}`) ?? 0) + 1);
    return;
  }
  if (res.status === 303) {
    expect(isLogout(x.p) && x.m === "POST", what).toBe(true);
    expect(res.headers.location, what).toBe("/login?reason=logout");
    seen.set("logout 303", (seen.get("logout 303") ?? 0) + 1);
    return;
  }
  expect(ctype, what).toMatch(/^application\/(json|javascript)/);
  let body: { code?: string; message?: string; category?: string; status?: number; response?: unknown } = {};
  if (ctype.startsWith("application/javascript")) {
    const m = /^\/\*\*\/[A-Za-z_$][A-Za-z0-9_$.]*\((.*)\);$/s.exec(res.text);
    expect(m, what).not.toBeNull();
    body = JSON.parse(m![1]!) as typeof body;
  } else {
    body = JSON.parse(res.text) as typeof body;
  }
  let status = res.status;
  // The envelope (and JSONP) wrap the v1 answer: judge what is inside.
  if (
    typeof body.status === "number" &&
    "response" in body &&
    (status === 200 || ctype.startsWith("application/javascript"))
  ) {
    status = body.status;
    body = body.response ?? {};
  }
  if (status < 400) {
    expect([200, 201, 204], what).toContain(status);
    seen.set(`${x.m} ${status}`, (seen.get(`${x.m} ${status}`) ?? 0) + 1);
    return;
  }
  expect(body.code, what).not.toBe("500.100");
  const key = (Object.keys(errorCatalog) as ErrorKey[]).find((k) => {
    const e = errorCatalog[k];
    return e.code === body.code && e.message === body.message && e.category === body.category;
  });
  const panel = panelCodes.find(
    (e) => e.code === body.code && e.message === body.message && e.category === body.category,
  );
  expect(key ?? panel, `not an error of either catalog: ${what}`).toBeDefined();
  expect((key ? errorCatalog[key] : panel!).status, what).toBe(status);
  if (key) recordAsserted(key);
  seen.set(String(body.code), (seen.get(String(body.code)) ?? 0) + 1);
}

beforeAll(async () => {
  await createAccount(D, "u1", { password: user.password });
  await createAccount(D, "u2");
  cookies.admin = await signIn(admin);
  cookies.user = await signIn(user);
});

describe("random requests to the panel's endpoints", () => {
  it("always answer JSON: a success or an error of a catalog", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          {
            weight: 3,
            arbitrary: fc.record({ m: method, p: path, q: query, b: body, c: cookie, o: originHeader, t: contentType }),
          },
          { weight: 1, arbitrary: wellFormed },
        ),
        async (generated) => {
          const x = harmless(generated);
          const url = `${x.p}${x.q ? `?${x.q}` : ""}`;
          const res = await send(x.m, url, headersOf(x), x.m === "GET" || x.m === "HEAD" ? undefined : x.b);
          if (x.m === "HEAD" && res.status >= 500 && res.text === "") {
            // HEAD answers what GET would, without the body, and the spec's validation refusals are 500.xxx: the
            // GET must give the same status with an error of the catalog (never 500.100).
            const get = await send("GET", url, headersOf(x), undefined);
            expect(get.status, `GET after HEAD ${url}`).toBe(res.status);
            check({ ...x, m: "GET" }, get);
            return;
          }
          check(x, res);
        },
      ),
      { numRuns: 600 },
    );
    // A body that is not JSON, through the passage to the v1 API: the random run sends one there only by chance.
    const notJson: Case = {
      m: "PUT",
      p: `/api/panel/v1/emails/${D}/u2`,
      q: "",
      b: "{",
      c: "admin",
      o: "own",
      t: "application/json",
    };
    const refused = await send(notJson.m, notJson.p, headersOf(notJson), notJson.b);
    check(notJson, refused);
    expect((JSON.parse(refused.text) as { code?: string }).code, refused.text).toBe("400.1");
    // Still serving, and the administrator's session still live (the run may have changed u1's password).
    const res = await send("GET", "/api/panel/session", { cookie: cookies.admin }, undefined);
    expect(res.status, res.text).toBe(200);
    // The administrator's own password never changed through its session, whatever names the PUTs carried.
    const auth = `Basic ${Buffer.from(`${admin.email}:${sha1Hex(admin.password)}`).toString("base64")}`;
    const v1 = await send("GET", `/api/v1/domains/${D}`, { authorization: auth }, undefined);
    expect(v1.status, v1.text).toBe(200);
  }, 180_000);

  it("reached deep enough: refusals of many kinds, and successes", () => {
    console.log("[panel fuzz] outcomes:", JSON.stringify(Object.fromEntries([...seen].sort())));
    const codes = [...seen.keys()].filter((k) => /^\d{3}\./.test(k));
    expect(codes.length).toBeGreaterThanOrEqual(10);
    for (const expected of ["401.1", "403.2", "404.4", "405.1", "400.1"]) expect(codes, expected).toContain(expected);
    for (const success of ["PUT 200", "POST 201"]) expect(seen.get(success) ?? 0, success).toBeGreaterThan(0);
  });
});
