// The plain-JS server and the TypeScript app keep what they must agree on in lib/runtime/edge.mjs, and the
// environment is read in lib/config.mjs only; these tests fail when a copy creeps back in.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { errorCatalog } from "@/lib/errors/catalog";
import { contentSecurityPolicy, pageHeaders } from "@/lib/security-headers";
import { FORWARDED_FOR_HEADER, PEER_ADDRESS_HEADER } from "@/lib/server/http/client-address";
import * as edge from "./edge.mjs";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

describe("lib/runtime/edge.mjs", () => {
  it("the client address rule reads the headers the server writes", () => {
    expect(PEER_ADDRESS_HEADER).toBe(edge.PEER_ADDRESS_HEADER);
    expect(FORWARDED_FOR_HEADER).toBe(edge.FORWARDED_FOR_HEADER);
    const server = read("lib/runtime/server.mjs");
    expect(server).toContain("req.headers[PEER_ADDRESS_HEADER] = req.socket.remoteAddress");
    expect(server).toContain("req.headers[FORWARDED_FOR_HEADER] =");
    expect(server).not.toMatch(/x-mailadmin-/);
  });

  it("every page carries the baseline headers, and its policy ends with the baseline's fixed directives", () => {
    for (const https of [false, true]) {
      expect(pageHeaders(https)).toMatchObject(edge.BASELINE_PAGE_HEADERS);
      const page = contentSecurityPolicy("bm9uY2U=", https).split("; ");
      const fixed = edge.BASELINE_HEADERS["content-security-policy"]!.split("; ").slice(2);
      expect(fixed).toEqual(edge.FIXED_POLICY_DIRECTIVES);
      const at = page.indexOf(fixed[0]!);
      expect(page.slice(at, at + fixed.length)).toEqual(fixed);
    }
    expect(edge.BASELINE_HEADERS).toMatchObject(edge.BASELINE_PAGE_HEADERS);
    expect(edge.BASELINE_HEADERS["content-security-policy"]).toMatch(/^default-src 'self'; script-src 'none'; /);
  });

  it("the server's own error bodies are the catalog's entries", () => {
    for (const key of ["endpointNotFound", "malformedRequest"] as const) {
      const { code, message, category } = errorCatalog[key];
      expect(JSON.parse(edge.edgeErrorBody(key))).toEqual({ code, message, category });
    }
    expect(read("lib/runtime/server.mjs")).not.toMatch(/"40[04]\.\d+"|nosniff|pragma\(|process\.env/);
  });
});

describe("lib/config.mjs", () => {
  // Passing the environment on to a child process (`{ ...process.env, ... }`) is not reading configuration.
  const READ = /process\.env(?<!\.\.\.process\.env)/;
  function sources(dir: string): string[] {
    return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true }).flatMap((e) => {
      const file = path.relative(ROOT, path.join(e.parentPath, e.name));
      if (!e.isFile() || !/\.(ts|tsx|mjs)$/.test(e.name) || /\.test\.|\/testing\//.test(file)) return [];
      return [file];
    });
  }

  it("is the one module that reads process.env", () => {
    const readers = ["lib", "app", "db", "components"]
      .flatMap(sources)
      .concat(["proxy.ts", "next.config.mjs"])
      .filter((file) =>
        read(file)
          .split("\n")
          .some((line) => !/^\s*\/\//.test(line) && READ.test(line)),
      );
    expect(readers).toEqual(["lib/config.mjs"]);
  });
});
