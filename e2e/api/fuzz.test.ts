/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- response bodies are untyped JSON */
// Property-based test against a server and database of its own: random and malformed methods, paths, query
// strings, bodies and credentials at every endpoint. Whatever is sent, the answer is JSON (never HTML), either a
// success or an error of the catalog, never 500.100; and when the request is refused, the database is unchanged
// (a digest of every table, read through a separate read-only connection, ignoring the last-login columns).
import { onPostgres } from "../support/test-database";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { errorCatalog, type ErrorKey } from "@/lib/errors/catalog";
import { accountFields } from "@/lib/schemas/account";
import { domainFields } from "@/lib/schemas/domain";
import { mailingListFields } from "@/lib/schemas/mailing-list";
import { api, basic, postmaster, recordAsserted, sha1Hex } from "./client";
import { digest } from "./db-digest";
import { collectionPath, recordPath, weirdSegment } from "./fuzz-paths";

const D = "fuzz.example.com";
const D2 = "fuzz2.example.com";
const base = () => inject("fuzzBase");
const admin = postmaster(D);
const user = { email: `u1@${D}`, password: "User-pass1" };

let reader: Database.Database;

// --- generators ---
const weird = weirdSegment("..", ".", "a,b");
const name = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      "u1",
      "u2",
      "a1",
      "l1",
      "l2",
      "ghost",
      "u1,u2",
      "a1,ghost",
      "l1,l2",
      "new1",
      "new2",
      "n.ew",
      "li%2Fst",
    ),
  },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9._\-/]{1,40}$/).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: weird },
);
const domain = fc.oneof(
  { weight: 8, arbitrary: fc.constant(D) },
  { weight: 1, arbitrary: fc.constantFrom(D2, "missing.example.org", "BAD", "a..b") },
  { weight: 1, arbitrary: weird },
);
/** URL clients resolve "." and ".." segments before sending (the request would leave /api/v1): keep them literal. */
const noDotSegments = (p: string) =>
  p
    .split("/")
    .map((seg) => (/^(?:\.|%2e){1,2}$/i.test(seg) ? `${seg}x` : seg))
    .join("/");
const path = fc
  .oneof(
    // A record or several: emails|aliases|mailinglists/<domain>/<names>
    {
      weight: 10,
      arbitrary: recordPath(domain, name),
    },
    // A collection or the domain: emails|aliases|mailinglists|domains/<domain>
    {
      weight: 3,
      arbitrary: collectionPath(domain),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom("openapi.json", "nothing", "", "domains"), domain, name)
        .map((xs) => xs.join("/")),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.oneof(weird, fc.string({ maxLength: 8 }).map(encodeURIComponent)), { maxLength: 5 })
        .map((xs) => xs.join("/")),
    },
  )
  .map(noDotSegments);

const queryValue = fc.oneof(
  fc.constantFrom(
    "0",
    "1",
    "50",
    "1000",
    "1001",
    "-1",
    "asc",
    "desc",
    "name",
    "usage",
    "target",
    "description",
    "true",
    "u",
    "",
  ),
  fc.string({ maxLength: 12 }),
);
const query = fc.oneof(
  { weight: 4, arbitrary: fc.constant("") },
  {
    weight: 4,
    arbitrary: fc
      .dictionary(fc.constantFrom("page", "size", "search", "sort", "sort_dir", "envelope", "x"), queryValue, {
        maxKeys: 3,
      })
      .map((q) => new URLSearchParams(q).toString()),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("envelope=true", "callback=cb", "callback=1x", "callback=a.b&envelope=true"),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((s) => s.replace(/#/g, "")) },
);

const FIELDS = [
  ...new Set([
    ...Object.keys(accountFields),
    ...Object.keys(domainFields),
    ...Object.keys(mailingListFields),
    ...["target", "name", "email", "usage", "nope"],
  ]),
];
const fieldValue = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      0,
      1,
      2,
      -1,
      5,
      9,
      50,
      1048577,
      "",
      "tag",
      "move",
      "2030-01-01",
      "2030-02-30",
      `u2@${D}`,
      `a1@${D}`,
      "x@example.org",
      "example.org",
      "Abc-1234",
      "Kliknij {{confirm_link}}",
      "https://example.org/c",
      // Bidirectional controls; another customer's domain for a catchall.
      "gpj\u202eexe",
      "a\u2067b",
      `postmaster@${D2}`,
      D2,
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      [],
      [`u2@${D}`],
      ["x@example.org", "example.org"],
      [`al1@${D}`],
      ["not valid"],
      null,
      true,
      {},
      // Reserved local parts (an ordinary account may not take them).
      [`admin@${D}`],
      [`hostmaster@${D}`, `al1@${D}`],
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);
const fieldName = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(...FIELDS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
// Requests well formed for one resource (its names, a body of its fields, the administrator), so that a good share
// succeed and change the database: the digest check then also covers refusals that follow real changes.
const text = fc.string({ maxLength: 40 });
const some = { requiredKeys: [] as never[] };
const wellFormedBody = {
  emails: fc.record(
    {
      description: text,
      keep_mail: fc.constantFrom(0, 1),
      spam_rule: fc.constantFrom("tag", "move"),
      usage_notification_level: fc.integer({ min: 0, max: 100 }),
      forwards: fc.constantFrom([], ["x@example.org"]),
      password: fc.constant("Abc-1234"),
      capacity: fc.integer({ min: 1, max: 100 }),
      aliases: fc.constantFrom([], [`al1@${D}`]),
    },
    some,
  ),
  aliases: fc.record({ target: fc.constantFrom("x@example.org", `u2@${D}`, "") }, some),
  mailinglists: fc.record(
    { description: text, privacy_mode: fc.constantFrom(0, 1, 2, 3), accounts: fc.constantFrom([], ["x@example.org"]) },
    some,
  ),
  domains: fc.record(
    { spam_enabled: fc.constantFrom(0, 1), spam_white_list: fc.constantFrom([], ["example.org"]) },
    some,
  ),
};
const wellFormedNames = {
  emails: fc.constantFrom("u1", "u2", "u3", "u4", "u1,u2", "u3,u4", "u1,ghost"),
  aliases: fc.constantFrom("a1", "a2", "a3", "a1,a2", "a2,a3", "al1"),
  mailinglists: fc.constantFrom("l1", "l2", "l3", "l1,l2", "l2,l3", "li/st"),
  domains: fc.constant(""),
};
const wellFormed = fc.constantFrom("emails", "aliases", "mailinglists", "domains").chain((r) =>
  fc.record({
    m: fc.constantFrom("GET", "PUT", "PUT", "POST", "POST", "DELETE"),
    p: wellFormedNames[r].map((n) => [r, D, ...(n ? [encodeURIComponent(n).replace(/%2C/g, ",")] : [])].join("/")),
    q: fc.constantFrom("", "", "", "envelope=true"),
    b: wellFormedBody[r].map((o): string | undefined => JSON.stringify(o)),
    a: fc.constant<string | null>(basic(admin)),
  }),
);
const body = fc.oneof(
  { weight: 2, arbitrary: fc.constant<string | undefined>(undefined) },
  { weight: 12, arbitrary: fc.dictionary(fieldName, fieldValue, { maxKeys: 3 }).map((o) => JSON.stringify(o)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);
const auth = fc.oneof(
  { weight: 12, arbitrary: fc.constant(basic(admin)) },
  { weight: 2, arbitrary: fc.constant(basic(user)) },
  { weight: 1, arbitrary: fc.constant(basic(postmaster(D2))) },
  {
    weight: 3,
    // Wrong or malformed credentials, never for the two accounts above (they would be locked out).
    arbitrary: fc.constantFrom<string | null>(
      null,
      "Basic",
      "Bearer x",
      "Basic %%%",
      basic({ email: `u2@${D}`, password: "wrong-123" }),
      `Basic ${Buffer.from(`u2@${D}:${sha1Hex("x")}`.slice(0, 20)).toString("base64")}`,
    ),
  },
);
const method = fc.constantFrom("GET", "GET", "PUT", "PUT", "PUT", "POST", "POST", "DELETE", "PATCH");

// --- checking one answer ---
/** The status and body the client was really given, unwrapping the envelope and JSONP. */
function effective(
  res: Awaited<ReturnType<typeof api>>,
  q: URLSearchParams,
  m: string,
): { status: number; body: unknown } {
  const ctype = res.headers.get("content-type") ?? "";
  expect(ctype, res.text).not.toMatch(/html/i);
  expect(res.text.trimStart().startsWith("<"), res.text).toBe(false);
  if (ctype.startsWith("application/javascript")) {
    expect(m).toBe("GET");
    const match = /^\/\*\*\/[A-Za-z_$][A-Za-z0-9_$.]*\((.*)\);$/s.exec(res.text);
    expect(match, res.text).not.toBeNull();
    const env = JSON.parse(match![1]!) as { status: number; response: unknown };
    return { status: env.status, body: env.response };
  }
  if (res.status === 204) {
    expect(res.text).toBe("");
    return { status: 204, body: null };
  }
  expect(ctype, `${res.status} ${res.text}`).toMatch(/^application\/json/);
  if (
    q.get("envelope") === "true" &&
    res.status === 200 &&
    res.json &&
    typeof res.json.status === "number" &&
    "response" in res.json
  ) {
    return { status: res.json.status, body: res.json.response };
  }
  return { status: res.status, body: res.json };
}

function checkError(status: number, body: unknown, what: string) {
  const b = body as { code?: string; message?: string; category?: string };
  expect(b.code, `${what}: ${JSON.stringify(body)}`).not.toBe("500.100");
  const key = (Object.keys(errorCatalog) as ErrorKey[]).find((k) => {
    const e = errorCatalog[k];
    return e.code === b.code && e.message === b.message && e.category === b.category;
  });
  expect(key, `${what}: not an error of the catalog: ${JSON.stringify(body)}`).toBeDefined();
  expect(errorCatalog[key!].status, what).toBe(status);
  recordAsserted(key!);
}

let baseline = "";
/** How often each outcome occurred: error codes, and successes by method (and whether they changed the database). */
const seen = new Map<string, number>();
async function exercise(m: string, p: string, q: string, b: string | undefined, a: string | null) {
  const what = `${m} /${p}?${q} ${b ?? ""}`;
  const res = await api(m, `${p}${q ? `?${q}` : ""}`, {
    base: base(),
    auth: a,
    rawBody: m === "GET" ? undefined : b,
  });
  const { status, body: answer } = effective(res, new URLSearchParams(q), m);
  const after = digest(reader);
  const key =
    status >= 400
      ? String((answer as { code?: string }).code)
      : `${m} ${status}${after === baseline ? "" : " changed"}`;
  seen.set(key, (seen.get(key) ?? 0) + 1);
  if (status >= 400) {
    checkError(status, answer, what);
    expect(after, `refused but the database changed: ${what} -> ${JSON.stringify(answer)}`).toBe(baseline);
  } else {
    expect([200, 201, 204], what).toContain(status);
    baseline = after;
  }
}

beforeAll(async () => {
  const setup: [string, string, object][] = [
    ["POST", `emails/${D}/u1`, { password: user.password, capacity: 1 }],
    ["POST", `emails/${D}/u2`, { password: "User-pass2", capacity: 1 }],
    ["POST", `aliases/${D}/a1`, { target: `u1@${D}` }],
    ["POST", `mailinglists/${D}/l1`, { accounts: [`u1@${D}`] }],
    ["POST", `mailinglists/${D}/l2`, {}],
  ];
  for (const [m, p, b] of setup) expect((await api(m, p, { base: base(), auth: admin, body: b })).status).toBe(201);
  // Its digests read the SQLite file; on PostgreSQL this file's tests are skipped (validation.test.ts and the
  // panel fuzz still run there).
  if (onPostgres()) return;
  reader = new Database(inject("fuzzDbPath"), { readonly: true, fileMustExist: true });
  baseline = digest(reader);
});
afterAll(() => reader?.close());

describe.skipIf(onPostgres())("random requests", () => {
  it("structured: every endpoint, random parts", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 5, arbitrary: fc.record({ m: method, p: path, q: query, b: body, a: auth }) },
          { weight: 3, arbitrary: wellFormed },
        ),
        ({ m, p, q, b, a }) => exercise(m, p, q, b, a),
      ),
      { numRuns: 600 },
    );
  }, 120_000);

  it("reached deep enough: many kinds of refusal and successful writes", () => {
    console.log("[fuzz] outcomes:", JSON.stringify(Object.fromEntries([...seen].sort())));
    const errorCodes = [...seen.keys()].filter((k) => /^\d{3}\./.test(k));
    expect(errorCodes.length).toBeGreaterThanOrEqual(15);
    const writes = [...seen].filter(([k]) => k.endsWith("changed")).reduce((n, [, c]) => n + c, 0);
    expect(writes).toBeGreaterThanOrEqual(10);
  });
});
