// Where the production server (lib/runtime/server.mjs) answers by itself, it answers as the TypeScript app does:
// the same baseline browser headers as the panel's pages, the same 404.4 body as the API's unknown-path route.
import { describe, expect, inject, it } from "vitest";
import { BASELINE_HEADERS } from "../../lib/runtime/edge.mjs";
import { expectErrorBody, rawRequest } from "./client";

const origin = () => new URL(inject("mainBase")).origin;
const directives = (policy: string | string[] | undefined) => String(policy ?? "").split("; ");

describe("the server's own answers and the app's", () => {
  it("a static file carries the baseline headers, which every page carries too", async () => {
    const [file, page] = await Promise.all([
      rawRequest({ origin: origin(), target: "/icon.svg" }),
      rawRequest({ origin: origin(), target: "/login" }),
    ]);
    expect(file.status).toBe(200);
    expect(page.status).toBe(200);
    for (const [name, value] of Object.entries(BASELINE_HEADERS)) expect(file.headers[name], name).toBe(value);
    for (const name of ["x-content-type-options", "x-frame-options", "referrer-policy"])
      expect(page.headers[name], name).toBe(file.headers[name]);
    // The page's policy differs only in what a page needs: its scripts (by nonce), styles, images, fonts, fetches.
    const own = /^(script|style|style-src-attr|img|font|connect)-src |^style-src-attr /;
    const pageDirectives = directives(page.headers["content-security-policy"]);
    expect(directives(file.headers["content-security-policy"]).filter((d) => !own.test(d))).toEqual(
      pageDirectives.filter((d) => !own.test(d)),
    );
  });

  it("an absolute-form target gets the body the unknown-path route gives, from the server itself", async () => {
    const [edge, route] = await Promise.all([
      rawRequest({ origin: origin(), target: "http://elsewhere.example/api/v1/no/such/endpoint" }),
      rawRequest({ origin: origin(), target: "/api/v1/no/such/endpoint" }),
    ]);
    expect(edge.status).toBe(404);
    expect(route.status).toBe(404);
    expect(edge.json).toEqual(route.json);
    expectErrorBody(edge.json, "endpointNotFound");
  });
});
