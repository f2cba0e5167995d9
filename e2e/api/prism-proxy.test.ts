// The OpenAPI document against an external validator: Prism (@stoplight/prism-cli) as a validating proxy in front
// of the production server, with the document the server serves. A representative set of the API suite's calls
// (every operation, the plain, enveloped and JSONP forms, success and each kind of error) goes through it, and no
// answer may carry a response violation (Prism's `sl-violations` header). A second proxy, given the document
// without the envelope and JSONP answers, must flag them: the check sees what the Prism run saw.
// Prism forwards every request (--validate-request=false: the suite's bad requests are deliberate) and checks the
// answers. Two kinds of call cannot go through it: a body that is not JSON (Prism never answers it) and an answer
// with status 501 (501.1, JSONP on a method other than GET), which Prism replaces by a mock of its own by design;
// envelope-jsonp.test.ts covers both on the server directly.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "@/lib/mailserver/sandbox/processes";
import { api, postmaster, type ApiResponse } from "./client";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PRISM = path.join(ROOT, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
const D = "prism.example.com";
const admin = postmaster(D);

interface Violation {
  location: string[];
  code: string | number;
  message: string;
}

interface Proxy {
  base: string;
  child: ChildProcess;
  log: () => string;
}

async function startPrism(document: string): Promise<Proxy> {
  const port = await freePort();
  // The document's server is "/api": Prism matches paths from /v1 on and forwards them to the upstream's /api.
  const upstream = `${new URL(inject("mainBase")).origin}/api`;
  const child = spawn(
    process.execPath,
    [
      PRISM,
      "proxy",
      document,
      upstream,
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--errors=false",
      "--validate-request=false",
      "-v",
      "warn",
    ],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const base = `http://127.0.0.1:${port}/v1`;
  // Prism says nothing at -v warn when it is up; it is up when it answers.
  for (const deadline = Date.now() + 60_000; ;) {
    if (child.exitCode !== null) throw new Error(`prism exited: ${output}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => resolve(!!socket.end())).once("error", () => resolve(false));
    });
    if (up) return { base, child, log: () => output };
    if (Date.now() > deadline) throw new Error(`prism did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stopPrism(proxy: Proxy | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!proxy || proxy.child.exitCode !== null) return resolve();
    proxy.child.once("exit", () => resolve());
    proxy.child.kill("SIGTERM");
  });
}

/** Prism's response violations on an answer; past some size Prism sends a sentence instead of the list. */
function responseViolations(res: ApiResponse): Violation[] {
  const header = res.headers.get("sl-violations");
  if (!header) return [];
  if (!header.startsWith("[")) return [{ location: ["response"], code: "", message: header }];
  return (JSON.parse(header) as Violation[]).filter((v) => v.location[0] === "response");
}

let dir: string;
let proxy: Proxy | undefined;
let control: Proxy | undefined;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-prism-"));
  const served = await api("GET", "openapi.json");
  expect(served.status).toBe(200);
  const document = path.join(dir, "openapi.json");
  fs.writeFileSync(document, served.text);
  // The control: the same document as it was before it described the envelope and JSONP answers.
  const before = JSON.parse(served.text) as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: { name: string }[];
          responses?: Record<string, { content?: Record<string, { schema: unknown }> }>;
        }
      >
    >;
  };
  for (const item of Object.values(before.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (method === "parameters" || !op.responses) continue;
      op.parameters = op.parameters?.filter((p) => p.name !== "envelope" && p.name !== "callback");
      const ok = op.responses["200"]?.content;
      if (ok) {
        delete ok["application/javascript"];
        const schema = ok["application/json"]!.schema as { anyOf?: unknown[] };
        if (schema.anyOf) ok["application/json"]!.schema = schema.anyOf[0];
        else delete op.responses["200"];
      }
    }
  }
  const beforeFile = path.join(dir, "openapi-before.json");
  fs.writeFileSync(beforeFile, JSON.stringify(before));
  [proxy, control] = await Promise.all([startPrism(document), startPrism(beforeFile)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([stopPrism(proxy), stopPrism(control)]);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

type Call = [
  method: string,
  path: string,
  options?: { body?: unknown; rawBody?: string; auth?: null | string | typeof admin },
];

/** Every operation, in order, so each call finds what the previous ones made. */
function calls(): Call[] {
  const user = { email: `ola@${D}`, password: "Ola-pass-1" };
  const calls: Call[] = [
    ["GET", `domains/${D}`],
    ["PUT", `domains/${D}`, { body: { spam_enabled: 1 } }],
    ["POST", `emails/${D}/ola`, { body: { password: user.password, description: "Ola" } }],
    ["POST", `emails/${D}/jan?envelope=true`, { body: { password: "Jan-pass-1" } }],
    ["GET", `emails/${D}?page=0&size=2&sort=name&sort_dir=desc&search=a`],
    ["GET", `emails/${D}/ola`],
    ["GET", `emails/${D}/ola`, { auth: user }],
    ["PUT", `emails/${D}/ola`, { body: { capacity: 200 } }],
    ["PUT", `emails/${D}/ola,jan`, { body: { spam_enabled: 0 } }],
    ["PUT", `emails/${D}/ola,jan?envelope=true`, { body: { spam_enabled: 1 } }],
    ["GET", `emails/${D}/ola/lists`],
    ["POST", `aliases/${D}/biuro`, { body: { target: `ola@${D}` } }],
    ["GET", `aliases/${D}`],
    ["GET", `aliases/${D}/biuro?callback=show`],
    ["PUT", `aliases/${D}/biuro`, { body: { target: `jan@${D}` } }],
    ["POST", `mailinglists/${D}/news`, { body: { accounts: [`ola@${D}`], moderators: [`jan@${D}`] } }],
    ["GET", `mailinglists/${D}`],
    ["GET", `mailinglists/${D}/news`],
    ["PUT", `mailinglists/${D}/news`, { body: { description: "News" } }],
    ["GET", `mailinglists/${D}/news/moderation`],
    ["GET", `domains/${D}?envelope=true`],
    ["GET", `emails/${D}?callback=list.page_1`],
    ["GET", `mailinglists/${D}/news?envelope=true&callback=cb`],
    // Errors, plain and enveloped.
    ["GET", `domains/${D}`, { auth: null }],
    ["GET", `domains/${D}?envelope=true`, { auth: null }],
    ["GET", `domains/${D}?callback=cb`, { auth: null }],
    ["GET", `domains/${D}`, { auth: { email: `postmaster@${D}`, password: "wrong-1" } }],
    ["GET", `emails/${D}/nobody`],
    ["GET", `emails/${D}/nobody?envelope=true`],
    ["PUT", `emails/${D}/ola`, { body: { description: "x".repeat(49) } }],
    ["PUT", `emails/${D}/ola?envelope=true`, { body: { description: "x".repeat(49) } }],
    ["POST", `emails/${D}/ola`, { body: { password: "Ola-pass-2" } }],
    ["POST", `aliases/${D}/biuro?envelope=true`, { body: { target: `ola@${D}` } }],
    ["GET", `domains/${D}?callback=1bad`],
    ["GET", `domains/other.example.com`],
    ["GET", `emails/${D}?sort=nonsense`],
    // Deletes, the last one enveloped.
    ["DELETE", `aliases/${D}/biuro`],
    ["DELETE", `mailinglists/${D}/news?envelope=true`],
    ["DELETE", `emails/${D}/jan`],
  ];
  return calls;
}

describe("Prism as a validating proxy in front of the server", () => {
  it("sees every answer of the representative calls with no response violation", async () => {
    const seen: string[] = [];
    const violations: string[] = [];
    for (const [method, p, o = {}] of calls()) {
      const res = await api(method, p, {
        base: proxy!.base,
        auth: o.auth === undefined ? admin : o.auth,
        body: o.body,
        rawBody: o.rawBody,
      });
      // Prism's own failures (a route it cannot match, an upstream error) answer application/problem+json.
      expect(res.headers.get("content-type") ?? "", `${method} ${p}: ${res.text}`).not.toMatch(/problem\+json/);
      seen.push(`${method} ${p} ${res.status}`);
      for (const v of responseViolations(res))
        violations.push(`${method} ${p} → ${res.status}: ${v.location.join(".")} ${v.message}`);
    }
    expect(violations).toEqual([]);
    // The answers were the server's: the ones expected of the calls, success and error alike.
    expect(seen).toContain(`POST emails/${D}/jan?envelope=true 200`);
    expect(seen).toContain(`GET domains/${D} 401`);
    expect(seen).toContain(`PUT emails/${D}/ola 500`);
    expect(seen).toContain(`DELETE emails/${D}/jan 204`);
  }, 120_000);

  it("flags the envelope and JSONP answers when the document leaves them out (the issue's finding)", async () => {
    const flagged: string[] = [];
    for (const p of [`domains/${D}?envelope=true`, `domains/${D}?callback=cb`, `emails/${D}/nobody?envelope=true`]) {
      const res = await api("GET", p, { base: control!.base, auth: admin });
      expect(res.status).toBe(200);
      if (responseViolations(res).length) flagged.push(p);
    }
    expect(flagged).toEqual([
      `domains/${D}?envelope=true`,
      `domains/${D}?callback=cb`,
      `emails/${D}/nobody?envelope=true`,
    ]);
  }, 60_000);
});
