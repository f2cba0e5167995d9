/* eslint-disable @typescript-eslint/no-unsafe-assignment -- response bodies are untyped JSON */
// Requests to a file's own server (own-server.ts) as given clients make them: through the trusted proxy
// (127.0.0.1 with X-Forwarded-For) or bound to a loopback address directly, to the panel and to the v1 API.
import { basic, rawRequest, sha1Hex, type Creds, type RawResponse } from "./client";

export type Raw = RawResponse;

/** The request helpers for the server at 127.0.0.1:`PORT` (origin `ORIGIN`). */
export function clientsOf(PORT: number, ORIGIN: string) {
  /** One HTTP request exactly as given: the request target, the Host, the local address to send from. */
  const raw = (opts: {
    method?: string;
    target: string;
    headers?: Record<string, string>;
    body?: unknown;
    localAddress?: string;
  }): Promise<Raw> => rawRequest({ ...opts, origin: `http://127.0.0.1:${PORT}` });

  /** A client at `address`: through the trusted proxy (127.0.0.1 with X-Forwarded-For), or bound to it directly. */
  const from = (address: string, direct = false) =>
    direct ? { localAddress: address } : { headers: { "x-forwarded-for": `10.1.1.1, ${address}` } };

  /** The panel's sign-in as a browser at `address` makes it; `cookies` are sent as they are. */
  function signIn(c: Creds, address = "192.0.2.1", cookies = "", extra: Record<string, string> = {}) {
    const f = from(address);
    return raw({
      method: "POST",
      target: "/api/panel/session",
      headers: { origin: ORIGIN, ...f.headers, ...(cookies ? { cookie: cookies } : {}), ...extra },
      body: { email: c.email, digest: sha1Hex(c.password) },
    });
  }

  const setCookies = (r: Raw) => (r.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]!);
  const cookieValue = (r: Raw, name: string) => setCookies(r).find((c) => c.startsWith(`${name}=`));
  const sessionOf = (r: Raw) => cookieValue(r, "mailadmin_session")!;
  const deviceOf = (r: Raw) => cookieValue(r, "mailadmin_device")!;

  const panel = (method: string, target: string, cookie: string, body?: unknown) =>
    raw({ method, target, headers: { origin: ORIGIN, cookie }, body });
  const whoAmI = (cookie: string) => panel("GET", "/api/panel/session", cookie);

  /** A v1 call at a client address (Basic credentials). */
  function v1(method: string, target: string, c: Creds | null, address = "127.0.0.1", body?: unknown, direct = false) {
    const f = from(address, direct);
    return raw({
      method,
      target: `/api/v1/${target}`,
      localAddress: f.localAddress,
      headers: { ...f.headers, ...(c ? { authorization: basic(c) } : {}) },
      body,
    });
  }

  const asApi = (r: Raw) => ({
    status: r.status,
    headers: new Headers(r.headers as Record<string, string>),
    text: r.text,
    json: r.json,
  });

  return { raw, from, signIn, setCookies, cookieValue, sessionOf, deviceOf, panel, whoAmI, v1, asApi };
}
