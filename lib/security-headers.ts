// The browser defences of every panel page (applied by proxy.ts): a Content-Security-Policy whose scripts
// are only the app's own (a fresh nonce per response, which Next puts on its scripts; 'strict-dynamic' lets those
// load the app's chunks), no framing, no MIME sniffing, no referrer to other sites, no powerful browser features,
// and HSTS when the request came over HTTPS. No server imports: proxy.ts runs before any route. What pages share
// with the baseline of every other answer (lib/runtime/server.mjs) is in lib/runtime/edge.mjs.
import { BASELINE_PAGE_HEADERS, FIXED_POLICY_DIRECTIVES } from "@/lib/runtime/edge.mjs";

/** Browser features the panel never uses, all denied (Permissions-Policy). */
const DENIED_FEATURES = [
  "accelerometer",
  "autoplay",
  "camera",
  "display-capture",
  "encrypted-media",
  "fullscreen",
  "geolocation",
  "gyroscope",
  "magnetometer",
  "microphone",
  "midi",
  "payment",
  "picture-in-picture",
  "publickey-credentials-get",
  "screen-wake-lock",
  "usb",
  "xr-spatial-tracking",
];

export const PERMISSIONS_POLICY = DENIED_FEATURES.map((f) => `${f}=()`).join(", ");
export const HSTS = "max-age=63072000";

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The policy of one page response. Style attributes stay allowed (`style-src-attr`): the usage bars set their
 * width that way, and an attribute cannot run script; `<style>` elements and stylesheets need the nonce or 'self',
 * or are the app's own stylesheet inlined by Next (`styleHashes`: its CSP hash sources, `'sha256-…'`; React writes
 * that `<style>` without the nonce).
 */
export function contentSecurityPolicy(nonce: string, https: boolean, styleHashes: readonly string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    ["style-src 'self'", `'nonce-${nonce}'`, ...styleHashes].join(" "),
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    ...FIXED_POLICY_DIRECTIVES,
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** True when the browser reached us over HTTPS: directly, or through a TLS proxy that says so. */
export function cameOverHttps(forwardedProto: string | null, urlProtocol: string): boolean {
  const first = forwardedProto?.split(",")[0]?.trim().toLowerCase();
  return first ? first === "https" : urlProtocol === "https:";
}

/** Every header of a page response but the policy itself. */
export function pageHeaders(https: boolean): Record<string, string> {
  return {
    ...BASELINE_PAGE_HEADERS,
    "permissions-policy": PERMISSIONS_POLICY,
    "cross-origin-opener-policy": "same-origin",
    ...(https ? { "strict-transport-security": HSTS } : {}),
  };
}

/** Request header the proxy sets on every page request: the path and query asked for (never sent to the browser). */
export const PAGE_PATH_HEADER = "x-panel-page-path";

/**
 * A `next` value safe to navigate to after sign-in: a path of this site (one leading slash, no scheme, no
 * backslash, no control character), and not the login page itself. Anything else gives null (the landing page).
 * Spaces and non-ASCII characters come back percent-encoded: the value goes into a Location header, which takes
 * neither (`/login?next=/%C4%85` answered 500).
 */
export function safeNextPath(next: unknown): string | null {
  if (typeof next !== "string" || next.length > 2000) return null;
  // eslint-disable-next-line no-control-regex
  if (!next.startsWith("/") || next.startsWith("//") || /[\\\u0000-\u001f]/.test(next)) return null;
  if (next === "/login" || next.startsWith("/login?") || next.startsWith("/api/")) return null;
  try {
    return next.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  } catch {
    return null; // a lone surrogate
  }
}
