import "server-only";
// SHA512-CRYPT ("$6$", Ulrich Drepper's SHA-crypt, the glibc crypt(3) scheme) on node:crypto alone: the
// scheme Dovecot verifies for mail logins without any native add-on. Spec: https://www.akkadia.org/drepper/SHA-crypt.txt
// Its SHA-256 variant ("$5$", SHA256-CRYPT) differs only in the hash and the order of the output's bytes: imported
// hashes of that scheme are verified with it (lib/mailserver/imported-hashes.ts).
import crypto from "node:crypto";

const ALPHABET = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const DEFAULT_ROUNDS = 5000;
const MIN_ROUNDS = 1000;
const MAX_ROUNDS = 999_999_999;
const SALT_MAX = 16;

type ShaAlgorithm = "sha256" | "sha512";

function digestOf(algorithm: ShaAlgorithm, ...parts: Buffer[]): Buffer {
  const h = crypto.createHash(algorithm);
  for (const p of parts) h.update(p);
  return h.digest();
}

/** `length` bytes of `block` repeated. */
function repeatTo(block: Buffer, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += block.length) block.copy(out, i, 0, Math.min(block.length, length - i));
  return out;
}

function encode24(b2: number, b1: number, b0: number, chars: number): string {
  let w = (b2 << 16) | (b1 << 8) | b0;
  let out = "";
  for (let i = 0; i < chars; i++) {
    out += ALPHABET[w & 0x3f];
    w >>>= 6;
  }
  return out;
}

function encodeDigest(algorithm: ShaAlgorithm, c: Buffer): string {
  let out = "";
  if (algorithm === "sha256") {
    // Byte i, i+10 and i+20 go together, rotated by two places per group; the last two bytes swapped.
    for (let i = 0; i < 10; i++) {
      const group = [i, i + 10, i + 20];
      const [b2, b1, b0] = [0, 1, 2].map((k) => c[group[(k + 2 * i) % 3]!]!) as [number, number, number];
      out += encode24(b2, b1, b0, 4);
    }
    return out + encode24(0, c[31]!, c[30]!, 3);
  }
  // Byte i, i+21 and i+42 go together, rotated by one place per group (the order of the spec's reference code).
  for (let i = 0; i < 21; i++) {
    const group = [i, i + 21, i + 42];
    const [b2, b1, b0] = [0, 1, 2].map((k) => c[group[(k + i) % 3]!]!) as [number, number, number];
    out += encode24(b2, b1, b0, 4);
  }
  return out + encode24(0, 0, c[63]!, 2);
}

/** Rounds between two turns of the event loop in `mailPasswordHashAsync` (5,000 rounds take about 6 ms here). */
const ROUNDS_PER_TURN = 250;

/**
 * The algorithm, pausing (a `yield`) every ROUNDS_PER_TURN rounds; it returns `$6$[rounds=N$]salt$hash` (`$5$` for
 * SHA-256).
 */
export function* shaCryptSteps(
  password: string,
  salt: string,
  rounds: number,
  algorithm: ShaAlgorithm = "sha512",
): Generator<void, string> {
  const sha = (...parts: Buffer[]) => digestOf(algorithm, ...parts);
  const p = Buffer.from(password, "utf8");
  const s = Buffer.from(salt.slice(0, SALT_MAX), "utf8");
  const r = Math.min(MAX_ROUNDS, Math.max(MIN_ROUNDS, rounds));

  const b = sha(p, s, p);
  const a = crypto.createHash(algorithm).update(p).update(s).update(repeatTo(b, p.length));
  for (let n = p.length; n > 0; n >>= 1) a.update(n & 1 ? b : p);
  let c = a.digest();

  const pSeq = repeatTo(sha(...Array<Buffer>(p.length).fill(p)), p.length);
  const sSeq = repeatTo(sha(...Array<Buffer>(16 + c[0]!).fill(s)), s.length);

  for (let i = 0; i < r; i++) {
    if (i > 0 && i % ROUNDS_PER_TURN === 0) yield;
    const h = crypto.createHash(algorithm);
    h.update(i & 1 ? pSeq : c);
    if (i % 3) h.update(sSeq);
    if (i % 7) h.update(pSeq);
    h.update(i & 1 ? c : pSeq);
    c = h.digest();
  }
  const roundsPart = rounds === DEFAULT_ROUNDS ? "" : `rounds=${r}$`;
  return `$${algorithm === "sha256" ? 5 : 6}$${roundsPart}${s.toString("utf8")}$${encodeDigest(algorithm, c)}`;
}

/** The raw algorithm: `$6$[rounds=N$]salt$hash`. */
export function sha512Crypt(password: string, salt: string, rounds = DEFAULT_ROUNDS): string {
  const steps = shaCryptSteps(password, salt, rounds);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** A fresh random salt from the crypt alphabet. */
export function cryptSalt(length = SALT_MAX): string {
  return Array.from(crypto.randomBytes(length), (byte) => ALPHABET[byte & 0x3f]).join("");
}

/** What the mail server verifies: `{SHA512-CRYPT}$6$...` (Dovecot's scheme prefix, so the column says how to check it). */
export const mailPasswordHash = (password: string) => `{SHA512-CRYPT}${sha512Crypt(password, cryptSalt())}`;

/**
 * The same, for a request handler: the rounds run in turns of the event loop, so other requests on the worker wait
 * a fraction of a millisecond for it, not the whole hash (about 6 ms).
 */
export async function mailPasswordHashAsync(password: string): Promise<string> {
  const steps = shaCryptSteps(password, cryptSalt(), DEFAULT_ROUNDS);
  for (;;) {
    const step = steps.next();
    if (step.done) return `{SHA512-CRYPT}${step.value}`;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
