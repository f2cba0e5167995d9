// Next's proxy (formerly middleware), run before every panel page: the browser defences of lib/security-headers.ts.
// Next reads the nonce from the request's Content-Security-Policy header and puts it on the scripts it renders,
// which is why the panel's pages render per request. API routes and static files are not matched.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { NextResponse, type NextRequest } from "next/server";
import { nextDistDir } from "@/lib/config.mjs";
import { cameOverHttps, contentSecurityPolicy, newNonce, PAGE_PATH_HEADER, pageHeaders } from "@/lib/security-headers";

/**
 * The CSP hash sources of the build's stylesheets. next.config.mjs has Next inline them into each page's <head>
 * (experimental.inlineCss: no render-blocking request before the first paint), and React writes those <style>
 * elements without the nonce, so the policy allows exactly their contents. Read once, from the build being served.
 */
function inlinedStyleHashes(): string[] {
  const root = path.join(process.cwd(), nextDistDir(), "static");
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".css"))
        out.push(`'sha256-${createHash("sha256").update(fs.readFileSync(file)).digest("base64")}'`);
    }
  };
  try {
    walk(root);
  } catch {
    // No build folder (tests of the proxy alone): stylesheets then load as files, under 'self'.
  }
  return out.sort();
}
let styleHashes: string[] | undefined;

export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const https = cameOverHttps(request.headers.get("x-forwarded-proto"), request.nextUrl.protocol);
  styleHashes ??= inlinedStyleHashes();
  const policy = contentSecurityPolicy(nonce, https, styleHashes);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", policy);
  // The page asked for, so that a sign-in it redirects to can come back to it (lib/server/http/page-session.ts).
  requestHeaders.set(PAGE_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  for (const [name, value] of Object.entries(pageHeaders(https))) response.headers.set(name, value);
  return response;
}

// Prefetches included: a prefetched page is a page, with the same policy and headers; static files get
// the baseline headers from lib/runtime/server.mjs.
export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
