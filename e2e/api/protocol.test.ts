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
