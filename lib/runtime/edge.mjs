// What the plain-JS server (lib/runtime/server.mjs, run by plain node) and the TypeScript app must agree on, kept
// once here: the request headers the server writes and the client address rule reads, the baseline browser
// defences of answers no page renders, and the API error bodies the server writes itself. Types in edge.d.mts.

/** Request header the server overwrites with the socket's peer address (read by lib/server/http/client-address.ts). */
export const PEER_ADDRESS_HEADER = "x-mailadmin-peer-address";
/** The request's own X-Forwarded-For as it arrived, copied by the server before Next adds to it. */
export const FORWARDED_FOR_HEADER = "x-mailadmin-forwarded-for";

/** The policy directives every answer carries, pages (lib/security-headers.ts) and everything else alike. */
export const FIXED_POLICY_DIRECTIVES = [
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

/** No framing, no MIME sniffing, no referrer to other sites: on pages and on every other answer outside /api. */
export const BASELINE_PAGE_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
};

/** The panel's policy without a nonce: no script runs from an answer that is not a page. */
export const BASELINE_HEADERS = {
  "content-security-policy": ["default-src 'self'", "script-src 'none'", ...FIXED_POLICY_DIRECTIVES].join("; "),
  ...BASELINE_PAGE_HEADERS,
};

/** The API errors the server answers before Next runs (their English texts and conditions: lib/errors/catalog-request.ts). */
export const EDGE_ERRORS = {
  endpointNotFound: { code: "404.4", category: "resource_missing", message: "Nie ma takiego zasobu API." },
  malformedRequest: {
    code: "400.1",
    category: "internal",
    message: "Nieprawidłowe żądanie HTTP (błędny wiersz żądania lub nagłówek).",
  },
};

/** An edge error's JSON body, as the API writes every error (code, message, category). */
export function edgeErrorBody(key) {
  const { code, message, category } = EDGE_ERRORS[key];
  return JSON.stringify({ code, message, category });
}
