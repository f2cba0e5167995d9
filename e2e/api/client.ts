// What the API tests call the server with: Basic credentials as the specification defines them
// (base64 of `email:sha1hex(password)`), a fetch wrapper, and assertions on error bodies that also record
// which catalog errors were asserted (global-setup checks at the end that none was left out).
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, inject } from "vitest";
import { errorCatalog, type ErrorKey } from "@/lib/errors/catalog";
import { PM_PASSWORD } from "./fixtures";

export { PM_PASSWORD };

export interface Creds {
  email: string;
  password: string;
}

export const sha1Hex = (s: string) => crypto.createHash("sha1").update(s, "utf8").digest("hex");

export const basic = (c: Creds) => `Basic ${Buffer.from(`${c.email}:${sha1Hex(c.password)}`).toString("base64")}`;

export const postmaster = (domain: string): Creds => ({ email: `postmaster@${domain}`, password: PM_PASSWORD });

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface CallOptions {
  /** Credentials, a raw Authorization header value, or null for none. */
  auth?: Creds | string | null;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (for malformed bodies). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Base URL of the API; the main test server by default. */
  base?: string;
}

export async function api(method: string, pathAndQuery: string, opts: CallOptions = {}): Promise<ApiResponse> {
  markFileRan();
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.auth) headers.authorization = typeof opts.auth === "string" ? opts.auth : basic(opts.auth);
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const res = await fetch(`${opts.base ?? inject("mainBase")}/${pathAndQuery.replace(/^\//, "")}`, {
    method,
    headers,
    body,
  });
  const text = await res.text();
  let json: unknown;
  if ((res.headers.get("content-type") ?? "").startsWith("application/json")) json = JSON.parse(text);
  return { status: res.status, headers: res.headers, text, json };
}

const testFile = () => path.basename(expect.getState().testPath ?? "unknown");

/** Notes that a test asserted this catalog error (one line per assertion: test file, key). */
export function recordAsserted(key: ErrorKey): void {
  fs.appendFileSync(inject("seenFile"), `${testFile()}\t${key}\n`);
}

let fileMarked = false;
/**
 * Notes that this test file ran (the catalog check at the end only judges complete runs). The client's requests
 * call it; a file that sends its requests otherwise calls it itself.
 */
export function markFileRan(): void {
  if (fileMarked) return;
  fileMarked = true;
  fs.appendFileSync(inject("seenFile"), `${testFile()}\t-\n`);
}

/** Asserts that `body` is exactly the catalog's error `key` (code, Polish message, category), optionally its source. */
export function expectErrorBody(body: unknown, key: ErrorKey, source?: string): void {
  const entry = errorCatalog[key];
  expect(body).toMatchObject({ code: entry.code, message: entry.message, category: entry.category });
  if (source !== undefined) expect((body as { source?: string }).source).toBe(source);
  recordAsserted(key);
}

/** Asserts an error response: the HTTP status of the catalog entry and its JSON body. */
export function expectError(res: ApiResponse, key: ErrorKey, source?: string): void {
  expect(res.headers.get("content-type"), res.text).toMatch(/^application\/json/);
  expect({ status: res.status, body: res.json as unknown }).toMatchObject({
    status: errorCatalog[key].status,
    body: { code: errorCatalog[key].code },
  });
  expectErrorBody(res.json, key, source);
}

/** Asserts a success status, showing the body when it is not. */
export function expectStatus(res: ApiResponse, status: number): void {
  expect(res.status, res.text).toBe(status);
}

/** Creates an account as the domain's postmaster (capacity 1 MB unless given, to stay far from domain limits). */
export async function createAccount(domain: string, name: string, fields: Record<string, unknown> = {}) {
  const res = await api("POST", `emails/${domain}/${name}`, {
    auth: postmaster(domain),
    body: { password: "Secret-123", capacity: 1, ...fields },
  });
  expectStatus(res, 201);
  return { email: `${name}@${domain}`, password: (fields.password as string | undefined) ?? "Secret-123" };
}

/** Reads a record as the domain's postmaster. */
export async function read(pathname: string, domain: string) {
  const res = await api("GET", pathname, { auth: postmaster(domain) });
  expectStatus(res, 200);
  return res.json as Record<string, unknown>;
}

/** An answer read off the socket: status, headers, the text and, for JSON, the parsed body. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are untyped JSON
  json: any;
}

/**
 * One HTTP request exactly as given (request target, headers, local address), for what fetch would normalise.
 * Content-Length is spelt out: Node sends a DELETE's body without it (and without chunking), so the server would
 * read the body as the next request.
 */
export function rawRequest(opts: {
  origin: string;
  method?: string;
  target: string;
  headers?: Record<string, string>;
  body?: unknown;
  localAddress?: string;
  agent?: http.Agent;
}): Promise<RawResponse> {
  const url = new URL(opts.origin);
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        agent: opts.agent,
        method: opts.method ?? "GET",
        path: opts.target,
        localAddress: opts.localAddress,
        headers: {
          ...(body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => {
          let json: unknown;
          if ((res.headers["content-type"] ?? "").startsWith("application/json") && text) json = JSON.parse(text);
          resolve({ status: res.statusCode!, headers: res.headers, text, json });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
