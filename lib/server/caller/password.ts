import "server-only";
// What the API verifies against: a salted scrypt hash of the SHA-1 hex digest of the password (contract §7).
// The clear password is never stored; the digest alone is never stored either.
import crypto from "node:crypto";
import { Worker } from "node:worker_threads";
import { env } from "../env";

export const sha1Hex = (password: string) => crypto.createHash("sha1").update(password, "utf8").digest("hex");

const KEY_LENGTH = 32;

/**
 * The password_hash of an imported account (`account import`) until its first panel sign-in: the import brings or
 * makes only the mail hash, and the scrypt hash of the digest is made from the password typed at that sign-in
 * (lib/server/caller/auth.ts). No digest matches it, so /api/v1 refuses the account until then.
 */
export const API_HASH_AT_FIRST_SIGN_IN = "first-sign-in";

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

// Checking a password off the event loop, for sign-ins (anyone can ask for one, no credentials needed): a sign-in
// never blocks the worker's event loop (scrypt on the loop would make a flood of bad sign-ins slow every request).
// The checks run in SCRYPT_CONCURRENCY worker threads (1 by default), each at the lowest CPU priority
// (nice 19 for that thread alone, Linux): a flood of sign-ins then takes at most that many cores, and only what the
// rest of the server leaves over, so signed-in users keep their speed (bench/bad-sign-ins.ts). Unknown and known
// addresses wait and cost alike.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const crypto = require("node:crypto");
try {
  const tid = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
  require("node:os").setPriority(tid, 19);
} catch {}
parentPort.on("message", ({ id, digest, salt, length, cost }) => {
  try {
    const key = crypto.scryptSync(digest, Buffer.from(salt), length, { N: cost, maxmem: 256 * cost * 8 });
    parentPort.postMessage({ id, key });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err) });
  }
});
`;

interface Job {
  digest: string;
  salt: Buffer;
  length: number;
  cost: number;
  resolve: (key: Buffer) => void;
  reject: (err: Error) => void;
}
interface HashThread {
  worker: Worker;
  job: Job | null;
}
const threads: HashThread[] = [];
const queue: Job[] = [];

function startThread(): HashThread {
  const thread: HashThread = { worker: new Worker(WORKER_SOURCE, { eval: true }), job: null };
  thread.worker.unref();
  thread.worker.on("message", (m: { key?: Uint8Array; error?: string }) => {
    const job = thread.job!;
    thread.job = null;
    if (m.key) job.resolve(Buffer.from(m.key));
    else job.reject(new Error(m.error));
    next(thread);
  });
  thread.worker.on("error", (err) => {
    // A thread that dies takes its job down with it; another replaces it.
    thread.job?.reject(err);
    threads.splice(threads.indexOf(thread), 1);
    const fresh = startThread();
    threads.push(fresh);
    next(fresh);
  });
  return thread;
}

function next(thread: HashThread) {
  const job = queue.shift();
  if (!job) return;
  thread.job = job;
  thread.worker.postMessage({ id: 0, digest: job.digest, salt: job.salt, length: job.length, cost: job.cost });
}

function scryptAsync(digest: string, salt: Buffer, length: number, cost: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    queue.push({ digest: digest.toLowerCase(), salt, length, cost, resolve, reject });
    while (threads.length < env().SCRYPT_CONCURRENCY) threads.push(startThread());
    const idle = threads.find((t) => !t.job);
    if (idle) next(idle);
  });
}

let hashing = 0;
const waitingToHash: (() => void)[] = [];

/** Runs `work` once fewer than PASSWORD_HASH_CONCURRENCY new-password hashes are running in this process. */
async function inHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (hashing < env().PASSWORD_HASH_CONCURRENCY) hashing++;
  else await new Promise<void>((resolve) => waitingToHash.push(resolve)); // a finishing hash hands its slot over
  try {
    return await work();
  } finally {
    const next = waitingToHash.shift();
    if (next) next();
    else hashing--;
  }
}

/**
 * A new password's hash, for an authenticated change (an administrator creating accounts, an owner's new
 * password): off the event loop on libuv's pool at normal priority, since only signed-in callers can ask for it,
 * and PASSWORD_HASH_CONCURRENCY at a time: four clients importing accounts kept four scrypts running on a 2-core
 * host and doubled the mail lookups' p99.
 */
export async function hashDigestAsync(digest: string, cost = env().SCRYPT_COST): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await inHashSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        crypto.scrypt(digest.toLowerCase(), salt, KEY_LENGTH, { N: cost, maxmem: 256 * cost * 8 }, (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      ),
  );
  return `scrypt$${cost}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

export async function verifyDigestAsync(digest: string, stored: string): Promise<boolean> {
  const [scheme, costText, saltText, hashText] = stored.split("$");
  if (scheme !== "scrypt" || !costText || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, "base64");
  const actual = await scryptAsync(digest, Buffer.from(saltText, "base64"), expected.length, Number(costText));
  return crypto.timingSafeEqual(actual, expected);
}
