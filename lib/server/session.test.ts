// Panel sessions: idle and absolute expiry, logout, the cookie's attributes, and the panel-call secret.
import { describe, expect, it, vi } from "vitest";
import type { Principal } from "./auth";
import { isPanelCall, PANEL_CALL_HEADER, panelCallToken } from "./panel-call";
import {
  ABSOLUTE_TIMEOUT_MS,
  clearedSessionCookie,
  createSession,
  destroySession,
  getSession,
  IDLE_TIMEOUT_MS,
  readSessionId,
  sessionCookie,
  sessionInfo,
} from "./session";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

const principal = {
  account: { email: "jan@example.com" },
  domain: "example.com",
  isPostmaster: false,
} as unknown as Principal;
const DIGEST = "a".repeat(40);

describe("panel sessions", () => {
  it("gives a random 256-bit id and keeps the digest out of what the page sees", () => {
    const a = createSession(principal, DIGEST);
    const b = createSession(principal, DIGEST);
    expect(Buffer.from(a.id, "base64url")).toHaveLength(32);
    expect(a.id).not.toBe(b.id);
    expect(sessionInfo(a)).toEqual({ email: "jan@example.com", domain: "example.com", isPostmaster: false });
    expect(JSON.stringify(sessionInfo(a))).not.toContain(DIGEST);
  });

  it("expires after 30 idle minutes, and each use restarts the idle timer", () => {
    const t0 = 1_000_000;
    const s = createSession(principal, DIGEST, t0);
    expect(IDLE_TIMEOUT_MS).toBe(30 * 60 * 1000);
    expect(getSession(s.id, t0 + IDLE_TIMEOUT_MS - 1)).not.toBeNull();
    expect(getSession(s.id, t0 + 2 * IDLE_TIMEOUT_MS - 2)).not.toBeNull();
    expect(getSession(s.id, t0 + 3 * IDLE_TIMEOUT_MS)).toBeNull();
    // Gone for good, even if asked about at an earlier time.
    expect(getSession(s.id, t0)).toBeNull();
  });

  it("expires at the absolute limit however active it is", () => {
    const t0 = 5_000_000;
    const s = createSession(principal, DIGEST, t0);
    for (let t = t0; t < t0 + ABSOLUTE_TIMEOUT_MS; t += IDLE_TIMEOUT_MS / 2) expect(getSession(s.id, t)).not.toBeNull();
    expect(getSession(s.id, t0 + ABSOLUTE_TIMEOUT_MS + 1)).toBeNull();
  });

  it("ends at logout", () => {
    const s = createSession(principal, DIGEST);
    destroySession(s.id);
    expect(getSession(s.id)).toBeNull();
    expect(getSession(undefined)).toBeNull();
    expect(getSession("unknown")).toBeNull();
  });

  it("sets an httpOnly SameSite=Strict cookie, Secure only over https, and reads it back", () => {
    expect(sessionCookie("abc", false)).toBe("mailadmin_session=abc; Path=/; HttpOnly; SameSite=Strict");
    expect(sessionCookie("abc", true)).toContain("; Secure");
    expect(clearedSessionCookie(false)).toContain("Max-Age=0");
    const req = new Request("http://x/", { headers: { cookie: "locale=pl; mailadmin_session=abc ; other=1" } });
    expect(readSessionId(req)).toBe("abc");
    expect(readSessionId(new Request("http://x/"))).toBeNull();
  });
});

describe("panel calls", () => {
  it("are recognised only with this process's secret", () => {
    const call = (value?: string) =>
      isPanelCall(new Request("http://x/", { headers: value === undefined ? {} : { [PANEL_CALL_HEADER]: value } }));
    expect(call(panelCallToken())).toBe(true);
    expect(call()).toBe(false);
    expect(call("0".repeat(64))).toBe(false);
    expect(call("not hex")).toBe(false);
    expect(call(panelCallToken().slice(0, 62))).toBe(false);
  });
});
