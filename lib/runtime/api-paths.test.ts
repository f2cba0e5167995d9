// Which raw request URLs the custom server hands to Next unchanged, and which it turns into the unknown-path route
// (contract §9 "Paths": Next would answer them with a 308 to the collapsed path). Over HTTP: e2e/api/contract-hardening.test.ts.
import { describe, expect, it } from "vitest";
import { UNKNOWN_API_PATH, UNKNOWN_PANEL_API_PATH, apiPathWithoutRedirect } from "./api-paths.mjs";

describe("apiPathWithoutRedirect", () => {
  it.each([
    "/api/v1/emails/x.test/jan",
    "/api/v1/emails/x.test/jan/",
    "/api/v1/emails/x.test/jan?q=a//b",
    "/login",
    "//login",
    "/a\\b",
    // Dot segments that stay under /api are Next's to resolve, as before.
    "/api/v1/emails/x.test/jan/%2e%2e/ola",
    "/api/v1/emails/x.test/jan%2e",
    "/login/../x",
  ])("leaves %s alone", (url) => expect(apiPathWithoutRedirect(url)).toBe(url));
  it.each([
    ["/api/v1/emails//x.test/jan", UNKNOWN_API_PATH],
    ["//api/v1/emails/x.test/jan", UNKNOWN_API_PATH],
    ["/api/v1\\emails", UNKNOWN_API_PATH],
    ["/api/v1//?envelope=true", `${UNKNOWN_API_PATH}?envelope=true`],
    ["/api/panel//session", UNKNOWN_PANEL_API_PATH],
    ["/api/panel/v1/emails//x.test", UNKNOWN_PANEL_API_PATH],
    // Dot segments that lead out of /api (Next resolved them to the panel's HTML pages).
    ["/api/v1/%2e%2e/%2e%2e/etc/passwd", UNKNOWN_API_PATH],
    ["/api/v1/../../login?envelope=true", `${UNKNOWN_API_PATH}?envelope=true`],
    ["/api/panel/v1/%2E%2e/.%2e/%2e./login", UNKNOWN_PANEL_API_PATH],
  ])("sends %s to %s", (url, expected) => expect(apiPathWithoutRedirect(url)).toBe(expected));
});
