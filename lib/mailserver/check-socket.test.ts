// mailserver check's "LMTP socket" and "auth socket" lines: Dovecot's listener is a Unix socket file on a production
// host and host:port where Dovecot has an inet_listener (the sandbox, whose Postfix uses lmtp:inet: and inet:). Before,
// every value was a file: `--lmtp-socket 127.0.0.1:47255` was "does not exist".
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { socketAccepts, socketAddress } from "./check";

let dir: string;
let tcp: net.Server;
let unix: net.Server;
let port: number;
const listen = (server: net.Server, at: net.ListenOptions) =>
  new Promise<void>((resolve) => server.listen(at, () => resolve()));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-check-socket-"));
  tcp = net.createServer((c) => c.end());
  await listen(tcp, { host: "127.0.0.1", port: 0 });
  port = (tcp.address() as net.AddressInfo).port;
  unix = net.createServer((c) => c.end());
  await listen(unix, { path: path.join(dir, "lmtp") });
});

afterAll(async () => {
  await new Promise((r) => tcp.close(r));
  await new Promise((r) => unix.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("socketAddress: one rule for a socket file and host:port", () => {
  it("reads host:port and inet:host:port as TCP, anything with a / or without :<port> as a file", () => {
    expect(socketAddress("127.0.0.1:24")).toEqual({ host: "127.0.0.1", port: 24 });
    expect(socketAddress("inet:127.0.0.1:24")).toEqual({ host: "127.0.0.1", port: 24 });
    expect(socketAddress("localhost:12345")).toEqual({ host: "localhost", port: 12345 });
    expect(socketAddress("[::1]:24")).toEqual({ host: "::1", port: 24 });
    expect(socketAddress("/var/spool/postfix/private/dovecot-lmtp")).toEqual({
      path: "/var/spool/postfix/private/dovecot-lmtp",
    });
    expect(socketAddress("/run/odd:24")).toEqual({ path: "/run/odd:24" });
    expect(socketAddress("auth")).toEqual({ path: "auth" });
    expect(() => socketAddress("127.0.0.1:70000")).toThrow("127.0.0.1:70000: port 70000 is not 1-65535");
  });
});

describe("socketAccepts", () => {
  const check = (value: string) => socketAccepts(value, "Dovecot's service lmtp")();

  it("passes on a TCP listener, given as host:port or inet:host:port", async () => {
    expect(await check(`127.0.0.1:${port}`)).toEqual({ ok: true, detail: `127.0.0.1:${port} accepts connections` });
    expect(await check(`inet:127.0.0.1:${port}`)).toEqual({
      ok: true,
      detail: `127.0.0.1:${port} accepts connections`,
    });
  });

  it("passes on a Unix socket file", async () => {
    const file = path.join(dir, "lmtp");
    expect(await check(file)).toEqual({ ok: true, detail: `${file} accepts connections` });
  });

  it("fails where nothing listens on TCP, on a missing file, and on a file that is no socket", async () => {
    const closed = net.createServer();
    await listen(closed, { host: "127.0.0.1", port: 0 });
    const free = (closed.address() as net.AddressInfo).port;
    await new Promise((r) => closed.close(r));
    expect(await check(`127.0.0.1:${free}`)).toEqual({
      ok: false,
      detail: `127.0.0.1:${free}: ECONNREFUSED (nothing listens: is Dovecot running?)`,
    });
    const missing = path.join(dir, "missing");
    expect(await check(missing)).toEqual({
      ok: false,
      detail: `${missing} does not exist (Dovecot's service lmtp unix_listener)`,
    });
    const plain = path.join(dir, "plain");
    fs.writeFileSync(plain, "");
    expect(await check(plain)).toEqual({ ok: false, detail: `${plain} is not a socket` });
  });
});
