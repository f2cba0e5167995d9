// Requests that are not valid HTTP never reach Next: the custom server answers them with the catalog's JSON error.
import net from "node:net";
import { describe, expect, inject, it } from "vitest";
import { expectErrorBody } from "./client";

function rawRequest(base: string, requestBytes: Buffer): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end(requestBytes));
    let data = "";
    socket.on("data", (chunk: Buffer) => (data += chunk.toString("utf8")));
    socket.on("end", () => resolve(data));
    socket.on("error", reject);
  });
}

describe("malformed HTTP", () => {
  it("raw non-ASCII bytes in the URL get the JSON 400.1 of the catalog, not an empty answer", async () => {
    const base = inject("mainBase");
    const answer = await rawRequest(base, Buffer.from(`GET /api/v1/emails/x.pl?search=KSIĘG HTTP/1.1\r\nHost: x\r\n\r\n`));
    const [head, body] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400/);
    expect(head).toMatch(/content-type: application\/json/i);
    expectErrorBody(JSON.parse(body!), "malformedRequest");
  });
});

describe("GET /api/status", () => {
  it("answers JSON with the count of held search tables and of builds under way, without authentication", async () => {
    const res = await fetch(`${new URL(inject("mainBase")).origin}/api/status`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { status: string; search_tables: { held: number; building: number } };
    expect(body.status).toBe("ok");
    expect(Object.keys(body.search_tables).sort()).toEqual(["building", "held"]);
    expect(Number.isInteger(body.search_tables.held) && Number.isInteger(body.search_tables.building)).toBe(true);
  });
});
