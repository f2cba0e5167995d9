// The PostgreSQL pool per process: DATABASE_POOL_MAX, or by default a share that keeps every worker's pool together
// under PostgreSQL's default max_connections.
import { afterEach, describe, expect, it } from "vitest";
import { databasePoolMax, nodePgConnectionString } from "./config.mjs";

const saved = { WORKERS: process.env.WORKERS, DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("database pool size", () => {
  it("keeps workers × pool under 100 connections by default, whatever the number of workers", () => {
    delete process.env.DATABASE_POOL_MAX;
    for (const workers of [1, 2, 4, 8, 16, 24]) {
      process.env.WORKERS = String(workers);
      expect(workers * databasePoolMax(), `${workers} workers`).toBeLessThanOrEqual(60);
      expect(databasePoolMax()).toBeGreaterThanOrEqual(2);
    }
    process.env.WORKERS = "2";
    expect(databasePoolMax()).toBe(10);
  });

  it("takes DATABASE_POOL_MAX as set and refuses a bad value", () => {
    process.env.DATABASE_POOL_MAX = "25";
    expect(databasePoolMax()).toBe(25);
    process.env.DATABASE_POOL_MAX = "0";
    expect(() => databasePoolMax()).toThrow(/DATABASE_POOL_MAX must be a positive integer/);
  });
});

describe("DATABASE_URL as node-postgres gets it", () => {
  it("says how to write a password with URL characters, without printing it", () => {
    const raw = "postgres://mailadmin:pa#ss/1@db1.example.org/mailadmin";
    expect(() => nodePgConnectionString(raw)).toThrow(/^DATABASE_URL is not a valid URL: percent-encode .*# as %23/);
    expect(() => nodePgConnectionString(raw)).not.toThrow(/pa#ss/);
    const encoded = "postgres://mailadmin:pa%23ss%2F1@db1.example.org/mailadmin";
    expect(nodePgConnectionString(encoded)).toBe(encoded);
  });

  it("says so too when such a password leaves a URL whose host is the user name", () => {
    // Each parses: host "mailadmin", no user; node-postgres then said "getaddrinfo ENOTFOUND mailadmin".
    for (const pw of ["/Kx9", "123/x", "12#x", "12?x"]) {
      const raw = `postgres://mailadmin:${pw}@db1.example.org/mailadmin`;
      expect(() => nodePgConnectionString(raw)).toThrow(/^DATABASE_URL is not a valid URL: percent-encode /);
      expect(() => nodePgConnectionString(raw)).not.toThrow(pw);
    }
    // No user in the authority is fine when none is meant to be there.
    expect(nodePgConnectionString("postgres://db1.example.org/mailadmin?user=mailadmin")).toBe(
      "postgres://db1.example.org/mailadmin?user=mailadmin",
    );
    expect(nodePgConnectionString("postgres://db1.example.org/mailadmin")).toBe("postgres://db1.example.org/mailadmin");
  });
});
