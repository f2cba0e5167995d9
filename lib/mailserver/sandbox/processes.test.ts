import fs from "node:fs";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { freePorts, greets } from "./processes";

describe("greets", () => {
  it("is false at once for a server that accepts and closes without a greeting, true for one that greets", async () => {
    const server = await new Promise<net.Server>((resolve) => {
      const s = net
        .createServer((c) => (greet ? c.end("220 ready\r\n") : c.end()))
        .listen(0, "127.0.0.1", () => resolve(s));
    });
    let greet = false;
    const { port } = server.address() as net.AddressInfo;
    try {
      // A promise left pending would fail the test by its timeout: a close must answer, well before greets' own 2 s.
      const started = Date.now();
      expect(await greets(port, /^220 /m)).toBe(false);
      expect(Date.now() - started).toBeLessThan(1500);
      greet = true;
      expect(await greets(port, /^220 /m)).toBe(true);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe("freePorts", () => {
  it("finds consecutive ports below the ephemeral range that outgoing connections take theirs from", async () => {
    const ephemeralLow = Number(fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0]);
    for (let round = 0; round < 20; round++) {
      const ports = await freePorts(21);
      expect(ports).toEqual(Array.from({ length: 21 }, (_, i) => ports[0]! + i));
      expect(ports[0]).toBeGreaterThanOrEqual(10_000);
      expect(ports[20]).toBeLessThan(ephemeralLow);
    }
  });

  it("never hands out a port something listens on", async () => {
    const [busy] = await freePorts(1);
    const server = await new Promise<net.Server>((resolve) => {
      const s = net.createServer().listen(busy, "127.0.0.1", () => resolve(s));
    });
    try {
      // Blocks of 500 at random places: some overlap the busy port; none may include it.
      for (let round = 0; round < 200; round++) expect(await freePorts(500)).not.toContain(busy);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
