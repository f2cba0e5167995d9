/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON */
// Tests that need a server of their own (started with ALLOWED_CLIENT_IPS=127.0.0.1 over its own database):
// the client address rule, and failures caused on purpose through a second connection to the database.
import { onPostgres } from "../support/test-database";
import Database from "better-sqlite3";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, basic, expectError, expectErrorBody, expectStatus, postmaster } from "./client";

const D = "iso.example.com";
const admin = postmaster(D);
const base = () => inject("isolatedBase");

/** A request whose TCP source address is `localAddress` (node:http, so the socket can be bound). */
function requestFrom(localAddress: string, pathname: string, headers: Record<string, string> = {}) {
  const url = new URL(`${base()}/${pathname}`);
  return new Promise<{ status: number; contentType: string; body: unknown }>((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: "GET", localAddress, headers },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers["content-type"] ?? "",
            body: JSON.parse(text),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("client address rule (ALLOWED_CLIENT_IPS=127.0.0.1)", () => {
  const spoofed = {
    authorization: basic(admin),
    "x-forwarded-for": "127.0.0.1",
    "x-real-ip": "127.0.0.1",
    "x-mailadmin-peer-address": "127.0.0.1",
    forwarded: "for=127.0.0.1",
  };

  it("127.0.0.1 passes", async () => {
    const res = await requestFrom("127.0.0.1", `domains/${D}`, { authorization: basic(admin) });
    expect(res.status).toBe(200);
  });

  it("127.0.0.2 gets 403.3 even with valid credentials and spoofed forwarding headers", async () => {
    const res = await requestFrom("127.0.0.2", `domains/${D}`, spoofed);
    expect(res.status).toBe(403);
    expect(res.contentType).toMatch(/^application\/json/);
    expectErrorBody(res.body, "clientAddressDenied");
  });

  it("403.3 comes before authentication and before 404.4", async () => {
    expectErrorBody((await requestFrom("127.0.0.2", `emails/${D}/jan`)).body, "clientAddressDenied");
    expectErrorBody((await requestFrom("127.0.0.2", "no/such/endpoint")).body, "clientAddressDenied");
  });
});

// A second SQLite connection holds the file's write lock or breaks it; SQLite's own failures (503.1, 500.100).
describe.skipIf(onPostgres())("database failures", () => {
  let side: Database.Database;
  beforeAll(async () => {
    side = new Database(inject("isolatedDbPath"));
    side.pragma("busy_timeout = 100");
    // One call first, so the login is recorded and later calls do not need to write it.
    expectStatus(await api("GET", `domains/${D}`, { auth: admin, base: base() }), 200);
  });
  afterAll(() => side.close());

  it("503.1 when another writer holds the database longer than the busy timeout", async () => {
    side.exec("BEGIN IMMEDIATE");
    try {
      const res = await api("PUT", `domains/${D}`, { auth: admin, base: base(), body: { spam_enabled: 0 } });
      expectError(res, "databaseBusy");
    } finally {
      side.exec("ROLLBACK");
    }
    const after = await api("GET", `domains/${D}`, { auth: admin, base: base() });
    expect(after.json.spam_enabled).toBe(1);
  }, 20_000);

  it("500.100 for an unexpected failure, with no stack trace or SQL in the body", async () => {
    side.exec("CREATE TRIGGER test_boom BEFORE UPDATE ON domains BEGIN SELECT RAISE(ABORT, 'boom from test'); END;");
    try {
      const res = await api("PUT", `domains/${D}`, { auth: admin, base: base(), body: { spam_enabled: 0 } });
      expectError(res, "unexpected");
      expect(Object.keys(res.json as object).sort()).toEqual(["category", "code", "message"]);
      expect(res.text).not.toMatch(/boom|at |sqlite/i);
    } finally {
      side.exec("DROP TRIGGER test_boom");
    }
    expectStatus(await api("PUT", `domains/${D}`, { auth: admin, base: base(), body: { spam_enabled: 0 } }), 200);
  });
});
