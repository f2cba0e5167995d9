// Password hashing off the event loop (so sign-ins never stall other requests): the async hash and check agree with the synchronous ones, and run
// in a thread at the lowest CPU priority, one at a time.
import crypto from "node:crypto";
import fs from "node:fs";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as password from "./password";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

beforeAll(() => {
  // Read once per process at first use (lib/server/env.ts): set before anything reads it.
  Object.assign(process.env, { SCRYPT_COST: "1024" });
});

/** The nice value of each thread of this process (/proc/self/task/<tid>/stat, field 19). */
function threadNices(): number[] {
  return fs.readdirSync("/proc/self/task").map((tid) => {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

describe("password hashing off the event loop", () => {
  it("agrees with the synchronous hash both ways, and refuses a wrong digest", async () => {
    const digest = password.sha1Hex("Secret-123");
    const asyncHash = await password.hashDigestAsync(digest);
    expect(password.verifyDigest(digest, asyncHash)).toBe(true);
    expect(await password.verifyDigestAsync(digest, password.hashDigest(digest))).toBe(true);
    expect(await password.verifyDigestAsync(password.sha1Hex("Wrong-123"), asyncHash)).toBe(false);
  });

  it("runs in one thread at nice 19, and the event loop keeps turning meanwhile", async () => {
    const digest = password.sha1Hex("Secret-123");
    const stored = password.hashDigest(digest, 16384);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const results = await Promise.all(Array.from({ length: 4 }, () => password.verifyDigestAsync(digest, stored)));
    clearInterval(timer);
    expect(results).toEqual([true, true, true, true]);
    expect(ticks).toBeGreaterThan(5);
    expect(threadNices().filter((n) => n === 19)).toHaveLength(1);
  });

  it("hashes new passwords PASSWORD_HASH_CONCURRENCY (1) at a time: an import does not take every core", async () => {
    const scrypt = crypto.scrypt;
    let running = 0;
    let most = 0;
    const spy = vi.spyOn(crypto, "scrypt").mockImplementation((...args: Parameters<typeof crypto.scrypt>) => {
      most = Math.max(most, ++running);
      const done = args.pop() as (err: Error | null, key: Buffer) => void;
      scrypt(...(args as unknown as [string, Buffer, number, crypto.ScryptOptions]), (err, key) => {
        running--;
        done(err, key);
      });
    });
    try {
      const digests = ["Secret-1", "Secret-2", "Secret-3", "Secret-4"].map(password.sha1Hex);
      const hashes = await Promise.all(digests.map((d) => password.hashDigestAsync(d)));
      expect(spy).toHaveBeenCalledTimes(4);
      expect(most).toBe(1);
      expect(hashes.map((h, i) => password.verifyDigest(digests[i]!, h))).toEqual([true, true, true, true]);
    } finally {
      spy.mockRestore();
    }
  });
});
