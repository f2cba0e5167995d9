import "server-only";
// What the API verifies against: a salted scrypt hash of the SHA-1 hex digest of the password (contract §7).
// The clear password is never stored; the digest alone is never stored either.
import crypto from "node:crypto";
import { env } from "./env";

export const sha1Hex = (password: string) => crypto.createHash("sha1").update(password, "utf8").digest("hex");

const KEY_LENGTH = 32;

/** `scrypt$N$salt$hash` of a SHA-1 hex digest. */
export function hashDigest(digest: string, cost = env().SCRYPT_COST): string {
  const salt = crypto.randomBytes(16);
  const hash = crypto.scryptSync(digest.toLowerCase(), salt, KEY_LENGTH, { N: cost, maxmem: 256 * cost * 8 });
  return `scrypt$${cost}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

export function verifyDigest(digest: string, stored: string): boolean {
  const [scheme, costText, saltText, hashText] = stored.split("$");
  if (scheme !== "scrypt" || !costText || !saltText || !hashText) return false;
  const cost = Number(costText);
  const expected = Buffer.from(hashText, "base64");
  const actual = crypto.scryptSync(digest.toLowerCase(), Buffer.from(saltText, "base64"), expected.length, {
    N: cost,
    maxmem: 256 * cost * 8,
  });
  return crypto.timingSafeEqual(actual, expected);
}

export const hashPassword = (password: string) => hashDigest(sha1Hex(password));

// The same work on libuv's thread pool: what request handlers use, so that a sign-in never blocks the worker's
// event loop (issue 29: bad sign-ins slowed everyone's requests 26x while scrypt ran on the loop). At most
// SCRYPT_CONCURRENCY hashes run at once per process (1 by default), the others wait their turn: a flood of sign-ins
// then takes one core per worker, not every core, and the requests of signed-in users keep theirs
// (bench/bad-sign-ins.ts). Unknown and known addresses wait and cost alike.
let running = 0;
const queue: (() => void)[] = [];

async function scryptAsync(digest: string, salt: Buffer, length: number, cost: number): Promise<Buffer> {
  if (running >= env().SCRYPT_CONCURRENCY) await new Promise<void>((resolve) => queue.push(resolve));
  else running++;
  try {
    return await new Promise<Buffer>((resolve, reject) =>
      crypto.scrypt(digest.toLowerCase(), salt, length, { N: cost, maxmem: 256 * cost * 8 }, (err, key) =>
        err ? reject(err) : resolve(key),
      ),
    );
  } finally {
    // The slot passes to the next in line (running stays the same), or is freed.
    const next = queue.shift();
    if (next) next();
    else running--;
  }
}

export async function hashDigestAsync(digest: string, cost = env().SCRYPT_COST): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scryptAsync(digest, salt, KEY_LENGTH, cost);
  return `scrypt$${cost}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

export async function verifyDigestAsync(digest: string, stored: string): Promise<boolean> {
  const [scheme, costText, saltText, hashText] = stored.split("$");
  if (scheme !== "scrypt" || !costText || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, "base64");
  const actual = await scryptAsync(digest, Buffer.from(saltText, "base64"), expected.length, Number(costText));
  return crypto.timingSafeEqual(actual, expected);
}
