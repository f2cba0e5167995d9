/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON */
// Contract §9 ("Hardening"), over real HTTP against the production server: what a hostile client got through when
// the service was probed, each item now refused. The probe table in docs/security.md names these tests.
//   enumeration  - a caller who does not administer a domain gets 403.2 whether the domain or record exists or not
//   paths        - nothing under /api/v1 (or the panel's /api/panel) redirects; `//` is 404.4, a trailing slash the clean path
//   boundaries   - deleting an account touches only its own domain; its `aliases` lists only its own domain's
//   text         - control characters refused in one-line texts, only line breaks and tabs in multi-line ones
// The browser defences of the panel's pages are in browser-defences.test.ts.
import { onPostgres } from "../support/test-database";
import Database from "better-sqlite3";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { errorCatalog, type ErrorKey } from "@/lib/errors/catalog";
import { panelErrors } from "@/lib/errors/panel-errors";
import {
  api,
  basic,
  createAccount,
  expectError,
  expectErrorBody,
  expectStatus,
  postmaster,
  rawRequest,
  read,
  recordAsserted,
  sha1Hex,
  type Creds,
} from "./client";

const X = "hx.example.com";
const Y = "hy.example.com";
const GHOST = "ghost-domain.example.net";
const adminX = postmaster(X);
const adminY = postmaster(Y);
const userX: Creds = { email: `ola@${X}`, password: "Ola-pass1" };
const origin = () => new URL(inject("mainBase")).origin;
/** A request to the main server with the path exactly as given (fetch would normalise backslashes and dot segments). */
const raw = (method: string, target: string, headers: Record<string, string> = {}, body?: unknown) =>
  rawRequest({ origin: origin(), method, target, headers, body });

/** Signs in to the panel; the session cookie for later calls. */
async function panelSession(c: Creds): Promise<string> {
  const res = await fetch(`${origin()}/api/panel/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: origin() },
    body: JSON.stringify({ email: c.email, digest: sha1Hex(c.password) }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return /^[^;]+/.exec(res.headers.get("set-cookie") ?? "")![0];
}

beforeAll(async () => {
  await createAccount(X, "ola", { password: userX.password });
  await createAccount(X, "jan", { password: "Jan-pass1" });
  await createAccount(Y, "ewa");
  expectStatus(await api("POST", `aliases/${Y}/info`, { auth: adminY, body: { target: `ewa@${Y}` } }), 201);
  expectStatus(await api("POST", `mailinglists/${Y}/team`, { auth: adminY, body: {} }), 201);
});

describe("enumeration: 403.2 for a domain the caller does not administer, hosted or not", () => {
  // Every domain path of the API: the domain, each collection, and records that exist in Y (and do not anywhere).
  const requests = (d: string): [string, string, unknown?][] => [
    ["GET", `domains/${d}`],
    ["PUT", `domains/${d}`, { spam_enabled: 1 }],
    ["GET", `emails/${d}`],
    ["GET", `emails/${d}?search=ewa&sort=name`],
    ["GET", `emails/${d}/ewa`],
    ["GET", `emails/${d}/nobody`],
    ["PUT", `emails/${d}/ewa`, { keep_mail: 0 }],
    ["PUT", `emails/${d}/ewa,nobody`, { keep_mail: 0 }],
    ["POST", `emails/${d}/newbie`, { password: "Start-123" }],
    ["DELETE", `emails/${d}/ewa`],
    ["DELETE", `emails/${d}/nobody`],
    ["GET", `aliases/${d}`],
    ["GET", `aliases/${d}/info`],
    ["GET", `aliases/${d}/nobody`],
    ["PUT", `aliases/${d}/info`, { target: "a@example.org" }],
    ["POST", `aliases/${d}/info`, { target: "a@example.org" }],
    ["DELETE", `aliases/${d}/info,nobody`],
    ["GET", `mailinglists/${d}`],
    ["GET", `mailinglists/${d}/team`],
    ["GET", `mailinglists/${d}/nobody`],
    ["PUT", `mailinglists/${d}/team`, { description: "x" }],
    ["POST", `mailinglists/${d}/team`, {}],
    ["DELETE", `mailinglists/${d}/team`],
  ];

  it.each([
    ["the postmaster of another domain", adminX],
    ["an ordinary account of another domain", userX],
  ])("%s gets the same 403.2 for a hosted domain and for one that is not", async (_, who) => {
    for (const d of [Y, GHOST]) {
      for (const [method, p, body] of requests(d)) {
        const res = await api(method, p, { auth: who, body });
        expect(`${method} ${p} -> ${res.status} ${res.json?.code}`).toBe(`${method} ${p} -> 403 403.2`);
        expectError(res, "forbidden");
        // The envelope carries the same answer, so it tells nothing either.
        const env = await api(method, `${p}${p.includes("?") ? "&" : "?"}envelope=true`, { auth: who, body });
        expect(env.json).toMatchObject({ status: 403, response: { code: "403.2" } });
      }
    }
    // Nothing of Y changed.
    expect((await read(`emails/${Y}/ewa`, Y)).keep_mail).toBe(1);
    expectStatus(await api("GET", `aliases/${Y}/info`, { auth: adminY }), 200);
    expectStatus(await api("GET", `mailinglists/${Y}/team`, { auth: adminY }), 200);
  });

  it("an ordinary account gets 403.2 for any other account of its own domain, existing or not", async () => {
    for (const name of ["jan", "nobody", "postmaster", "jan,ola"]) {
      for (const method of ["GET", "PUT", "DELETE"]) {
        expectError(
          await api(method, `emails/${X}/${name}`, { auth: userX, body: method === "PUT" ? {} : undefined }),
          "forbidden",
        );
      }
    }
    expectStatus(await api("GET", `emails/${X}/ola`, { auth: userX }), 200);
  });

  it("only the domain's own administrator learns what is missing (404.2)", async () => {
    expectError(await api("GET", `emails/${X}/nobody`, { auth: adminX }), "recordNotFound", "nobody");
    expectError(await api("GET", `aliases/${X}/nobody`, { auth: adminX }), "recordNotFound", "nobody");
  });

  it("the panel's passage to the API answers the same", async () => {
    const cookie = await panelSession(userX);
    for (const d of [Y, GHOST]) {
      const res = await raw("GET", `/api/panel/v1/emails/${d}/ewa`, { cookie });
      expect(res.status, res.text).toBe(403);
      expectErrorBody(res.json, "forbidden");
    }
  });

  it("a malformed domain is refused for its syntax alone (500.363), which says nothing about what is hosted", async () => {
    expectError(await api("GET", "domains/NOT_A_DOMAIN", { auth: userX }), "invalidDomainName", "domain");
  });

  it("404.1 is left to the operator's CLI", () => {
    let stderr = "";
    try {
      execFileSync(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", "domain", "show", GHOST],
        {
          cwd: path.resolve(import.meta.dirname, "../.."),
          env: { ...process.env, DATABASE_PATH: inject("mainDbPath") },
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
    } catch (err) {
      stderr = String((err as { stderr?: string }).stderr);
    }
    const e = errorCatalog.domainNotFound;
    expect(stderr).toContain(`${e.message} (domain) [${e.code}]`);
    recordAsserted("domainNotFound");
  });
});

describe("paths: no redirect under /api/v1 or /api/panel", () => {
  const account = `/api/v1/emails/${X}/jan`;
  it.each([
    `/api/v1/emails//${X}/jan`,
    `/api/v1/emails/${X}//jan`,
    `//api/v1/emails/${X}/jan`,
    `/api/v1//emails/${X}/jan`,
    `/api/v1/emails/${X}/jan//`,
    `/api/v1\\emails\\${X}\\jan`,
    `/api/v1/emails//${X}/jan?envelope=true`,
    "/api/v1//",
    // Dot segments that lead out of /api: Next resolved them and answered the panel's HTML 404 page.
    "/api/v1/%2e%2e/%2e%2e/etc/passwd",
    "/api/v1/../../login",
    `/api/v1/emails/${X}/jan/%2E%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/x?envelope=true`,
  ])("%s is the JSON 404.4", async (p) => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await raw(method, p, { authorization: basic(adminX) }, method === "PUT" ? {} : undefined);
      expect(res.headers.location).toBeUndefined();
      if (p.includes("envelope=true")) {
        expect(res.status).toBe(200);
        expect(res.json.status).toBe(404);
        expectErrorBody(res.json.response, "endpointNotFound");
      } else {
        expect(res.status, res.text).toBe(404);
        expectErrorBody(res.json, "endpointNotFound");
      }
    }
  });

  it("a trailing slash is the clean path, for reads and writes", async () => {
    const clean = await raw("GET", account, { authorization: basic(adminX) });
    const slash = await raw("GET", `${account}/`, { authorization: basic(adminX) });
    expect(slash.status).toBe(200);
    expect({ ...slash.json, last_auth_date: 0, last_auth_ip: 0 }).toEqual({
      ...clean.json,
      last_auth_date: 0,
      last_auth_ip: 0,
    });
    const put = await raw("PUT", `${account}/`, { authorization: basic(adminX) }, { description: "slash" });
    expect(put.status, put.text).toBe(200);
    expect((await read(`emails/${X}/jan`, X)).description).toBe("slash");
    for (const p of [
      `/api/v1/domains/${X}/`,
      `/api/v1/emails/${X}/`,
      `/api/v1/aliases/${X}/?size=1`,
      "/api/v1/openapi.json/",
    ]) {
      const res = await raw("GET", p, { authorization: basic(adminX) });
      expect(res.status, `${p}: ${res.text.slice(0, 200)}`).toBe(200);
    }
    const res = await raw("GET", "/api/v1/nothing/", { authorization: basic(adminX) });
    expect(res.status).toBe(404);
    expectErrorBody(res.json, "endpointNotFound");
  });

  it("the panel's endpoints answer JSON for the same paths, without and with a session", async () => {
    for (const p of [`/api/panel/v1//emails/${X}/jan`, `//api/panel/session`, "/api/panel/session//"]) {
      const res = await raw("GET", p);
      expect(res.headers.location, p).toBeUndefined();
      expect(res.status, p).toBe(401);
      expect(res.json).toMatchObject({ code: panelErrors.noSession.code, message: panelErrors.noSession.message });
    }
    const cookie = await panelSession(adminX);
    const empty = await raw("GET", `/api/panel/v1/emails//${X}/jan`, { cookie });
    expect(empty.status).toBe(404);
    expectErrorBody(empty.json, "endpointNotFound");
    const slash = await raw("GET", `/api/panel/v1/emails/${X}/jan/`, { cookie });
    expect(slash.status, slash.text).toBe(200);
    expect(slash.json.email).toBe(`jan@${X}`);
  });
});

describe("domain boundaries", () => {
  beforeAll(async () => {
    await createAccount(X, "leaving");
    // X's own alias and catchall to the account, and Y's (another domain's administrator's) alias and catchall.
    expectStatus(
      await api("POST", `aliases/${X}/leaving-alias`, { auth: adminX, body: { target: `leaving@${X}` } }),
      201,
    );
    expectStatus(
      await api("PUT", `domains/${X}`, { auth: adminX, body: { catchall_type: 1, catchall_address: `leaving@${X}` } }),
      200,
    );
    expectStatus(await api("POST", `aliases/${Y}/to-x`, { auth: adminY, body: { target: `leaving@${X}` } }), 201);
    expectStatus(
      await api("PUT", `domains/${Y}`, { auth: adminY, body: { catchall_type: 2, catchall_address: `leaving@${X}` } }),
      200,
    );
  });

  it("an account's aliases list only its own domain's, and a whole GET record PUT back succeeds", async () => {
    const record = await read(`emails/${X}/leaving`, X);
    expect(record.aliases).toEqual([`leaving-alias@${X}`]);
    const res = await api("PUT", `emails/${X}/leaving`, { auth: adminX, body: record });
    expectStatus(res, 200);
    expect(res.json.aliases).toEqual([`leaving-alias@${X}`]);
    // Replacing the set does not touch the other domain's alias either.
    expectStatus(await api("PUT", `emails/${X}/leaving`, { auth: adminX, body: { aliases: [] } }), 200);
    expect((await read(`aliases/${Y}/to-x`, Y)).target).toBe(`leaving@${X}`);
    expectStatus(
      await api("PUT", `emails/${X}/leaving`, { auth: adminX, body: { aliases: [`leaving-alias@${X}`] } }),
      200,
    );
  });

  it("deleting an account removes its own domain's aliases and catchall only", async () => {
    expectStatus(await api("DELETE", `emails/${X}/leaving`, { auth: adminX }), 204);
    expectError(await api("GET", `aliases/${X}/leaving-alias`, { auth: adminX }), "recordNotFound", "leaving-alias");
    expect(await read(`domains/${X}`, X)).toMatchObject({ catchall_type: 0, catchall_address: "" });
    // Y's alias and catchall keep their target (mail to it is refused like mail to any unknown address).
    expect(await read(`aliases/${Y}/to-x`, Y)).toMatchObject({ target: `leaving@${X}` });
    expect(await read(`domains/${Y}`, Y)).toMatchObject({ catchall_type: 2, catchall_address: `leaving@${X}` });
    // Y's record, sent back whole with a setting changed (as the panel's domain form sends it), is still accepted:
    // the stored catchall is not checked again; naming that address anew is refused.
    const record = { ...(await read(`domains/${Y}`, Y)), spam_rbl_enabled: 0 };
    const back = await api("PUT", `domains/${Y}`, { auth: adminY, body: record });
    expectStatus(back, 200);
    expect(back.json).toMatchObject({ spam_rbl_enabled: 0, catchall_type: 2, catchall_address: `leaving@${X}` });
    expectStatus(await api("PUT", `domains/${Y}`, { auth: adminY, body: { catchall_type: 0 } }), 200);
    const anew = await api("PUT", `domains/${Y}`, {
      auth: adminY,
      body: { catchall_type: 2, catchall_address: `leaving@${X}` },
    });
    expectError(anew, "invalidCatchallAddress", "catchall_address");
  });
});

describe("text fields: control characters (contract §9)", () => {
  const BAD_ONE_LINE = [
    "a\u0000b",
    "Temat\r\nBcc: evil@x.test",
    "a\nb",
    "a\tb",
    "\u001b[31m",
    "a\u007fb",
    "lone \ud800",
  ];
  const oneLine: [string, string, ErrorKey][] = [
    ["emails", "description", "invalidDescription"],
    ["emails", "sms_login_1", "invalidSmsText"],
    ["emails", "sms_password_2", "invalidSmsText"],
    ["emails", "sms_phone_number_1", "invalidSmsText"],
    ["mailinglists", "description", "invalidListText"],
    ["mailinglists", "subscribe_mail_subject", "invalidListText"],
    ["mailinglists", "unsubscribe_request_mail_subject", "invalidListText"],
    ["mailinglists", "confirm_url", "invalidListOption"],
    ["domains", "catchall_address", "invalidCatchallAddress"],
    ["aliases", "target", "invalidAliasTarget"],
  ];
  const pathOf = (resource: string) =>
    resource === "emails"
      ? `emails/${X}/jan`
      : resource === "mailinglists"
        ? `mailinglists/${X}/texts`
        : resource === "aliases"
          ? `aliases/${X}/texts-alias`
          : `domains/${X}`;

  beforeAll(async () => {
    expectStatus(await api("POST", `mailinglists/${X}/texts`, { auth: adminX, body: {} }), 201);
    expectStatus(await api("POST", `aliases/${X}/texts-alias`, { auth: adminX, body: { target: `jan@${X}` } }), 201);
  });

  it.each(oneLine)("%s %s refuses every control character, and nothing changes", async (resource, field, key) => {
    const before = await read(pathOf(resource), X);
    for (const value of BAD_ONE_LINE) {
      expectError(await api("PUT", pathOf(resource), { auth: adminX, body: { [field]: value } }), key, field);
    }
    const after = await read(pathOf(resource), X);
    expect({ ...after, last_auth_date: 0 }).toEqual({ ...before, last_auth_date: 0 });
  });

  it("one-line texts refuse them on creation too, and through the panel", async () => {
    expectError(
      await api("POST", `emails/${X}/ctl`, { auth: adminX, body: { password: "Start-123", description: "x\r\ny" } }),
      "invalidDescription",
      "description",
    );
    expectError(await api("GET", `emails/${X}/ctl`, { auth: adminX }), "recordNotFound", "ctl");
    expectError(
      await api("POST", `mailinglists/${X}/ctl`, {
        auth: adminX,
        body: { subscribe_mail_subject: "\r\nBcc: evil@x.test" },
      }),
      "invalidListText",
      "subscribe_mail_subject",
    );
    const cookie = await panelSession(adminX);
    const res = await raw(
      "PUT",
      `/api/panel/v1/emails/${X}/jan`,
      { cookie, origin: origin() },
      { description: "a\u0000" },
    );
    expect(res.status).toBe(500);
    expectErrorBody(res.json, "invalidDescription", "description");
  });

  it("multi-line texts take line breaks and tabs (stored as LF) and refuse other control characters", async () => {
    const p = `emails/${X}/jan`;
    const ok = await api("PUT", p, { auth: adminX, body: { autoresponder_body: "Urlop\r\ndo 14.07.\r\tPozdrawiam" } });
    expectStatus(ok, 200);
    expect(ok.json.autoresponder_body).toBe("Urlop\ndo 14.07.\n\tPozdrawiam");
    for (const bad of ["a\u0000b", "a\u000bb", "a\u000cb", "a\u001bb", "a\u007fb"]) {
      expectError(
        await api("PUT", p, { auth: adminX, body: { autoresponder_body: bad } }),
        "invalidAutoresponder",
        "autoresponder_body",
      );
      expectError(
        await api("PUT", `mailinglists/${X}/texts`, { auth: adminX, body: { subscribe_mail_body: bad } }),
        "invalidListText",
        "subscribe_mail_body",
      );
    }
    const list = await api("PUT", `mailinglists/${X}/texts`, {
      auth: adminX,
      body: { subscribe_mail_body: "Witaj\r\n\ton {{list}}" },
    });
    expectStatus(list, 200);
    expect(list.json.subscribe_mail_body).toBe("Witaj\n\ton {{list}}");
  });

  // Reads the SQLite view; PostgreSQL's mail_sieve_scripts view is compared with SQLite's in db/pg/pg.test.ts.
  it.skipIf(onPostgres())(
    "the Sieve script generated from the autoresponder holds only what Sieve carries",
    async () => {
      const body = 'Urlop "do 14.07." \\ C:\\temp\r\n\tkoniec';
      expectStatus(
        await api("PUT", `emails/${X}/jan`, {
          auth: adminX,
          body: { autoresponder_mode: 1, autoresponder_body: body },
        }),
        200,
      );
      const db = new Database(inject("mainDbPath"), { readonly: true, fileMustExist: true });
      try {
        const row = db
          .prepare("SELECT script FROM mail_sieve_scripts WHERE username = ? AND name = 'autoresponder'")
          .get(`jan@${X}`) as { script: string };
        expect(row.script).toContain('"Urlop \\"do 14.07.\\" \\\\ C:\\\\temp\n\tkoniec";');
        // Only LF line breaks and tabs besides printable text; every quote inside the string escaped.
        // eslint-disable-next-line no-control-regex -- looking for control characters
        expect(row.script).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\r]/);
        expect(row.script).not.toMatch(/\p{Cs}/u);
      } finally {
        db.close();
      }
    },
  );
});

describe("the panel's taken-names", () => {
  // Bulk create's preview sends the names as typed: one with a NUL reached PostgreSQL's query and answered 500.100.
  it("answers for the names a record may have; any other name (a NUL in it included) is taken by none", async () => {
    const cookie = await panelSession(adminX);
    const res = await raw("GET", `/api/panel/taken-names?names=jan,a%00b,Ola%20,no%20such,nobody`, { cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      taken: [
        { name: "jan", taken_by: "account" },
        { name: "ola", taken_by: "account" },
      ],
    });
  });
});
