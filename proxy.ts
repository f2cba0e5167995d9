// Next's proxy (formerly middleware), run before every panel page: the browser defences of lib/security-headers.ts.
// Next reads the nonce from the request's Content-Security-Policy header and puts it on the scripts it renders,
// which is why the panel's pages render per request. API routes and static files are not matched.
import { NextResponse, type NextRequest } from "next/server";
import { cameOverHttps, contentSecurityPolicy, newNonce, PAGE_PATH_HEADER, pageHeaders } from "@/lib/security-headers";

export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const https = cameOverHttps(request.headers.get("x-forwarded-proto"), request.nextUrl.protocol);
  const policy = contentSecurityPolicy(nonce, https);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", policy);
  // The page asked for, so that a sign-in it redirects to can come back to it (lib/server/http/page-session.ts).
  requestHeaders.set(PAGE_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  for (const [name, value] of Object.entries(pageHeaders(https))) response.headers.set(name, value);
  return response;
}

// Prefetches included (issue 29): a prefetched page is a page, with the same policy and headers; static files get
// the baseline headers from lib/runtime/server.mjs.
export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
