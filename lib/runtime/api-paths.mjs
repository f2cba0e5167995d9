// Contract §9 "Paths": nothing under /api/v1 redirects. Next answers a path with an empty segment ("//") or a
// backslash with a 308 to the collapsed path before any route or proxy runs; such an API path is handed to the
// catch-all route instead, which answers the JSON error of an unknown path (404.4) through the API's one wrapper
// (so the client address rule, ?envelope and ?callback apply as to any other unknown path). A trailing slash
// needs nothing here: next.config.mjs's skipTrailingSlashRedirect lets the route handle it as the clean path.
// The panel's JSON endpoints (/api/panel/...) get the same treatment through the panel's own v1 passage.

/** Paths no route but the unknown-path ones match: app/api/v1/[[...path]], and the panel's passage to it. */
export const UNKNOWN_API_PATH = "/api/v1/-empty-segment-";
export const UNKNOWN_PANEL_API_PATH = "/api/panel/v1/-empty-segment-";

/**
 * The URL to give Next for a raw request URL: unchanged, unless it is an API path Next would redirect, or one whose
 * dot segments ("..", "%2e%2e") lead out of /api: Next resolves them and answered the panel's HTML 404 page.
 */
export function apiPathWithoutRedirect(url) {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const redirected = /\/\/|\\/.test(path);
  if (!redirected && !/\/\.|%2e/i.test(path)) return url;
  // Where Next's redirect would land decides whether this is an API path (`//api/v1/x` lands on /api/v1/x too).
  const collapsed = path.replace(/\\/g, "/").replace(/\/\/+/g, "/");
  if (!collapsed.startsWith("/api/")) return url;
  if (!redirected && isApiPath(new URL(collapsed, "http://localhost").pathname)) return url;
  const unknown = collapsed.startsWith("/api/panel/") ? UNKNOWN_PANEL_API_PATH : UNKNOWN_API_PATH;
  return unknown + (q === -1 ? "" : url.slice(q));
}

const isApiPath = (path) => path === "/api" || path.startsWith("/api/");
