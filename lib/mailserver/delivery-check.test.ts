// mailserver check's question to postsrsd's tables (tcp_table(5)), against a stand-in server: an answer passes,
// a closed port or a table's own error fails, as Postfix then refuses every recipient with 451.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { tcpTableAnswers } from "./delivery-check";

vi.mock("server-only", () => ({}));

let server: net.Server;
let port: number;
const asked: string[] = [];

beforeAll(async () => {
  server = net.createServer((socket) => {
    socket.on("data", (chunk) => {
      const line = chunk.toString("utf8").trim();
      asked.push(line);
      if (line.includes("found")) socket.write("200 SRS0=abc=de=example.com=found@mx.example.org\n");
      else if (line.includes("broken")) socket.write("400 internal error\n");
      else socket.write("500 not found\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(() => server.close());

describe("tcpTableAnswers (postsrsd's tables)", () => {
  it("passes on 200 and 500, asking as Postfix does", async () => {
    expect(await tcpTableAnswers(`tcp:127.0.0.1:${port}`, "found@example.org")).toEqual({
      ok: true,
      detail: `tcp:127.0.0.1:${port} answers`,
    });
    expect((await tcpTableAnswers(`tcp:127.0.0.1:${port}`, "other@example.org")).ok).toBe(true);
    expect(asked).toContain("get found@example.org");
  });

  it("fails on the table's own error (400) and on a port nothing listens on", async () => {
    const broken = await tcpTableAnswers(`tcp:127.0.0.1:${port}`, "broken@example.org");
    expect(broken).toEqual({ ok: false, detail: `tcp:127.0.0.1:${port} answers "400 internal error"` });
    const free = net.createServer();
    await new Promise<void>((resolve) => free.listen(0, "127.0.0.1", resolve));
    const closed = (free.address() as net.AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    expect(await tcpTableAnswers(`tcp:127.0.0.1:${closed}`, "x@example.org")).toEqual({
      ok: false,
      detail: `tcp:127.0.0.1:${closed}: ECONNREFUSED`,
    });
  });
});
