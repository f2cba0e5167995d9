/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON */
// Contract §5 (envelope and JSONP) and the request-format errors every endpoint shares (contract §4).
import { beforeAll, describe, expect, it } from "vitest";
import { api, createAccount, expectError, expectErrorBody, expectStatus, postmaster } from "./client";

const D = "wrap.example.com";
const admin = postmaster(D);

/** Parses `/**\/name({...});` and returns the name and the envelope. */
function parseJsonp(text: string) {
  const m = /^\/\*\*\/([A-Za-z_$][A-Za-z0-9_$.]*)\((.*)\);$/s.exec(text);
  expect(m, text).not.toBeNull();
  return { callback: m![1], envelope: JSON.parse(m![2]!) as { status: number; response: unknown } };
}

beforeAll(async () => {
  await createAccount(D, "jan");
});

describe("envelope=true", () => {
  it("wraps a success in {status, response} with HTTP 200", async () => {
    const res = await api("GET", `domains/${D}?envelope=true`, { auth: admin });
    expectStatus(res, 200);
    expect(res.json.status).toBe(200);
    expect(res.json.response).toMatchObject({ name: D, catchall_type: 0 });
  });

  it("wraps an error: HTTP 200, status 401 and the error body", async () => {
    const res = await api("GET", `domains/${D}?envelope=true`);
    expectStatus(res, 200);
    expect(res.json.status).toBe(401);
    expectErrorBody(res.json.response, "missingCredentials");
  });

  it("wraps a 201 of POST", async () => {
    const res = await api("POST", `aliases/${D}/kontakt?envelope=true`, { auth: admin, body: { target: `jan@${D}` } });
    expectStatus(res, 200);
    expect(res.json).toEqual({
      status: 201,
      response: { name: "kontakt", domain: D, email: `kontakt@${D}`, target: `jan@${D}` },
    });
  });

  it("wraps a 204 as response null", async () => {
    const res = await api("DELETE", `aliases/${D}/kontakt?envelope=true`, { auth: admin });
    expectStatus(res, 200);
    expect(res.json).toEqual({ status: 204, response: null });
  });

  it("wraps a validation error (HTTP 500 code) in HTTP 200", async () => {
    const res = await api("PUT", `emails/${D}/jan?envelope=true`, {
      auth: admin,
      body: { description: "x".repeat(49) },
    });
    expectStatus(res, 200);
    expect(res.json.status).toBe(500);
    expectErrorBody(res.json.response, "invalidDescription", "description");
  });

  it("is off for any other value", async () => {
    const res = await api("GET", `domains/${D}?envelope=1`);
    expectError(res, "missingCredentials");
  });
});

describe("JSONP (?callback=)", () => {
  it("answers GET with application/javascript, nosniff and /**/name(envelope);", async () => {
    const res = await api("GET", `emails/${D}/jan?callback=my.handler_1`, { auth: admin });
    expectStatus(res, 200);
    expect(res.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const { callback, envelope } = parseJsonp(res.text);
    expect(callback).toBe("my.handler_1");
    expect(envelope.status).toBe(200);
    expect(envelope.response).toMatchObject({ email: `jan@${D}` });
  });

  it("carries errors in the envelope with HTTP 200", async () => {
    const res = await api("GET", `emails/${D}/nobody?callback=cb`, { auth: admin });
    expectStatus(res, 200);
    const { envelope } = parseJsonp(res.text);
    expect(envelope.status).toBe(404);
    expectErrorBody(envelope.response, "recordNotFound", "nobody");
  });

  it("accepts a 64-character name and refuses 65 characters with 400.2", async () => {
    const ok = await api("GET", `domains/${D}?callback=$${"a".repeat(63)}`, { auth: admin });
    expect(parseJsonp(ok.text).envelope.status).toBe(200);
    const bad = await api("GET", `domains/${D}?callback=$${"a".repeat(64)}`, { auth: admin });
    expectError(bad, "invalidCallback", "callback");
  });

  it.each(["1abc", "a-b", "alert(1)", "", "a b", "ą"])("refuses the name %j with 400.2 as plain JSON", async (name) => {
    const res = await api("GET", `domains/${D}?callback=${encodeURIComponent(name)}`, { auth: admin });
    expectError(res, "invalidCallback", "callback");
  });

  it("400.2 is enveloped when envelope=true is also given", async () => {
    const res = await api("GET", `domains/${D}?callback=1x&envelope=true`, { auth: admin });
    expectStatus(res, 200);
    expect(res.json.status).toBe(400);
    expectErrorBody(res.json.response, "invalidCallback");
  });

  it.each(["PUT", "POST", "DELETE"])("refuses JSONP on %s with 501.1 and changes nothing", async (method) => {
    const res = await api(method, `emails/${D}/jan?callback=cb`, { auth: admin, body: { description: "jsonp" } });
    expectError(res, "jsonpGetOnly", "callback");
    const after = await api("GET", `emails/${D}/jan`, { auth: admin });
    expect(after.json.description).toBe("");
  });
});

describe("JSONP and HEAD", () => {
  it("HEAD with a callback answers what GET would, without the body (200, application/javascript)", async () => {
    const get = await api("GET", `domains/${D}?callback=cb`, { auth: admin });
    const head = await api("HEAD", `domains/${D}?callback=cb`, { auth: admin });
    expectStatus(get, 200);
    expectStatus(head, 200);
    expect(head.text).toBe("");
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
  });
});

describe("request format errors", () => {
  it("404.4 as JSON for a path that is no endpoint", async () => {
    for (const p of ["nothing", "emails", `domains/${D}/extra`, "v2/domains/x"]) {
      expectError(await api("GET", p), "endpointNotFound");
    }
  });

  it("405.1 for a method the path does not define", async () => {
    expectError(await api("POST", `domains/${D}`, { auth: admin, body: {} }), "methodNotAllowed");
    expectError(await api("PATCH", `emails/${D}/jan`, { auth: admin, body: {} }), "methodNotAllowed");
    expectError(await api("DELETE", `emails/${D}`, { auth: admin }), "methodNotAllowed");
    expectError(await api("PUT", "openapi.json", { body: {} }), "methodNotAllowed");
  });

  it("400.1 for a body that is not JSON", async () => {
    const res = await api("PUT", `emails/${D}/jan`, { auth: admin, rawBody: "{description: 'x'" });
    expectError(res, "invalidJson");
  });

  it("500.110 for JSON that is not an object", async () => {
    for (const raw of ["[]", "1", '"text"', "null", "true"]) {
      expectError(await api("PUT", `emails/${D}/jan`, { auth: admin, rawBody: raw }), "bodyNotObject");
    }
  });

  it("500.111 for a body over 1 MiB, and accepts one just under", async () => {
    const big = JSON.stringify({ autoresponder_body: "x".repeat(1024 * 1024) });
    expectError(await api("PUT", `emails/${D}/jan`, { auth: admin, rawBody: big }), "bodyTooLarge");
    // Just under the limit: the body is read, then the field rule (10000 characters) refuses it.
    const under = JSON.stringify({ autoresponder_body: "x".repeat(1024 * 1024 - 40) });
    expectError(await api("PUT", `emails/${D}/jan`, { auth: admin, rawBody: under }), "invalidAutoresponder");
  });

  it("500.115 names an unknown field in source", async () => {
    const res = await api("PUT", `emails/${D}/jan`, { auth: admin, body: { nickname: "x" } });
    expectError(res, "unknownField", "nickname");
  });

  it("an empty body is an empty object", async () => {
    const res = await api("PUT", `emails/${D}/jan`, { auth: admin, rawBody: "" });
    expectStatus(res, 200);
  });

  it("the OpenAPI document is public JSON", async () => {
    const res = await api("GET", "openapi.json");
    expectStatus(res, 200);
    expect(res.json.openapi).toMatch(/^3\./);
    expect(Object.keys(res.json.paths as object).length).toBeGreaterThanOrEqual(6);
  });
});
