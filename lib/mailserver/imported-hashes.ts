import "server-only";
// Password hashes brought from another mail server (`account import`), in Dovecot's `{SCHEME}hash` form. One is
// accepted only when Dovecot 2.3 verifies its scheme (so mail logins keep working with the old password at once: it
// goes into mail_password_hash as it is) AND this module verifies it in Node (so the panel's first sign-in can check
// the password against it and make the account's normal hashes: lib/server/caller/auth.ts).
import crypto from "node:crypto";
import bcrypt from "bcryptjs";
import { shaCryptSteps } from "./sha512-crypt";

const CRYPT64 = "[./0-9A-Za-z]";
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Past these, one check of an imported hash at a sign-in would hold the server for seconds: refused at import. */
const MAX_SHA_CRYPT_ROUNDS = 1_000_000;
const MAX_BCRYPT_COST = 14;
/**
 * The longest password checked against an imported hash (UTF-8 bytes): SHA-crypt's cost grows with the square of
 * the password's length, before its first pause: a 30 kB password held the event loop for 2 s, one near the 1 MB
 * body limit would for hours. Anyone may send one to the panel's sign-in with an imported account's address.
 */
export const MAX_IMPORTED_PASSWORD_BYTES = 256;

interface Scheme {
  /** The hash after `{SCHEME}`, well formed, or a reason it is not. */
  check(hash: string): string | null;
  verify(password: string, hash: string): Promise<boolean>;
}

const shaCrypt = (id: "5" | "6", length: number): Scheme => ({
  check(hash) {
    const m = new RegExp(`^\\$${id}\\$(?:rounds=(\\d+)\\$)?[^$]{0,16}\\$${CRYPT64}{${length}}$`).exec(hash);
    if (!m) return `not a $${id}$ crypt hash`;
    if (m[1] && Number(m[1]) > MAX_SHA_CRYPT_ROUNDS) return `more than ${MAX_SHA_CRYPT_ROUNDS} rounds`;
    return null;
  },
  async verify(password, hash) {
    const [, , roundsOrSalt, ...rest] = hash.split("$");
    const rounds = roundsOrSalt!.startsWith("rounds=") ? Number(roundsOrSalt!.slice(7)) : 5000;
    const salt = roundsOrSalt!.startsWith("rounds=") ? rest[0]! : roundsOrSalt!;
    const steps = shaCryptSteps(password, salt, rounds, id === "5" ? "sha256" : "sha512");
    // The rounds run in turns of the event loop, as new mail hashes are made (lib/mailserver/sha512-crypt.ts).
    for (;;) {
      const step = steps.next();
      if (step.done) return equalText(step.value.split("$").pop()!, hash.split("$").pop()!);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  },
});

/** Salted SHA (`{SSHA512}` and the like): base64 of the digest of password + salt, then the salt. */
const saltedSha = (algorithm: "sha1" | "sha256" | "sha512", length: number): Scheme => ({
  check(hash) {
    return BASE64.test(hash) && Buffer.from(hash, "base64").length > length ? null : "not base64 of a digest and salt";
  },
  verify(password, hash) {
    const raw = Buffer.from(hash, "base64");
    const digest = crypto.createHash(algorithm).update(password, "utf8").update(raw.subarray(length)).digest();
    return Promise.resolve(crypto.timingSafeEqual(digest, raw.subarray(0, length)));
  },
});

const SCHEMES: Record<string, Scheme> = {
  "SHA512-CRYPT": shaCrypt("6", 86),
  "SHA256-CRYPT": shaCrypt("5", 43),
  "BLF-CRYPT": {
    check(hash) {
      const m = new RegExp(`^\\$2[aby]\\$(\\d\\d)\\$${CRYPT64}{53}$`).exec(hash);
      if (!m) return "not a $2y$ bcrypt hash";
      return Number(m[1]) > MAX_BCRYPT_COST ? `a cost above ${MAX_BCRYPT_COST}` : null;
    },
    // bcryptjs knows $2a$ and $2b$; $2y$ (PHP's, mailcow's) is the same algorithm under another name.
    verify: (password, hash) => bcrypt.compare(password, hash.replace(/^\$2y\$/, "$2b$")),
  },
  "MD5-CRYPT": {
    check: (hash) => (new RegExp(`^\\$1\\$[^$]{0,8}\\$${CRYPT64}{22}$`).test(hash) ? null : "not a $1$ crypt hash"),
    verify: (password, hash) => {
      const salt = hash.split("$")[2]!;
      return Promise.resolve(equalText(md5Crypt(password, salt), hash));
    },
  },
  SSHA512: saltedSha("sha512", 64),
  SSHA256: saltedSha("sha256", 32),
  SSHA: saltedSha("sha1", 20),
};

/** The schemes an import accepts, strongest first (docs/migration.md). */
export const IMPORTED_SCHEMES = Object.keys(SCHEMES);

/** `{CRYPT}` is crypt(3): Dovecot reads the scheme from the hash's `$id$`, as we do. */
const CRYPT_IDS: Record<string, string> = {
  "1": "MD5-CRYPT",
  "5": "SHA256-CRYPT",
  "6": "SHA512-CRYPT",
  "2y": "BLF-CRYPT",
};

/**
 * The hash as mail_password_hash stores it (`{SCHEME}hash`, a `{CRYPT}` one under its own scheme's name), or the
 * reason it is refused.
 */
export function parseImportedHash(value: string): { hash: string } | { refused: string } {
  // A bare crypt hash (postfixadmin's md5crypt is stored so) is read as {CRYPT}.
  const m = /^\{([A-Z0-9.-]+)\}(.+)$/i.exec(value.startsWith("$") ? `{CRYPT}${value}` : value);
  if (!m) return { refused: "a hash must start with its {SCHEME} as Dovecot writes it, or be a $id$ crypt hash" };
  let scheme = m[1]!.toUpperCase();
  const hash = m[2]!;
  if (scheme === "CRYPT") {
    const id = /^\$(1|5|6|2[aby])\$/.exec(hash)?.[1];
    scheme = id ? CRYPT_IDS[id.startsWith("2") ? "2y" : id]! : "";
    if (!scheme) return { refused: "{CRYPT} only with a $1$, $5$, $6$ or $2y$ hash (DES crypt is not accepted)" };
  }
  const known = SCHEMES[scheme];
  if (!known) return { refused: `the scheme {${scheme}} is not accepted (accepted: ${IMPORTED_SCHEMES.join(", ")})` };
  const problem = known.check(hash);
  return problem ? { refused: `{${scheme}}: ${problem}` } : { hash: `{${scheme}}${hash}` };
}

/**
 * Checks per process that may be running or waiting for their turn. A SHA-crypt hash at the import's cap takes
 * seconds (3.9 s at load 7 on a 2-core host; Dovecot's default 5,000 rounds 30 ms), so the last of them may wait
 * several; a sign-in past them is not checked (lib/server/caller/auth.ts answers it "try again"), so a flood of
 * sign-ins cannot line up checks that keep the event loop busy for minutes and hold every imported account's first
 * sign-in behind them.
 */
export const MAX_IMPORTED_CHECKS_IN_LINE = 3;
/** Places taken: checks running or waiting, and places not used yet. */
let inLine = 0;
/** The check running now, if any: the next one starts when it settles. */
let running: Promise<unknown> = Promise.resolve();

/** A place in the line of imported-hash checks (importedCheckPlace). */
export interface ImportedCheckPlace {
  /**
   * Whether `password` matches a hash parseImportedHash accepted (false for anything else, and for a password longer
   * than MAX_IMPORTED_PASSWORD_BYTES); the place is given back when it settles. Once per place.
   */
  verify(password: string, stored: string): Promise<boolean>;
  /** Gives the place back unused (the sign-in stopped before its check). */
  release(): void;
}

/**
 * A place in the line of checks, or undefined when MAX_IMPORTED_CHECKS_IN_LINE are taken. The sign-in takes it before
 * it counts the attempt as a failure, so an attempt refused for want of a place counts nothing. The checks run on the
 * event loop in short turns, one at a time per process: a flood of sign-ins for imported accounts costs at most one
 * check's turns between other requests' work (the API's own scrypt checks run on low-priority threads instead:
 * lib/server/caller/password.ts).
 */
export function importedCheckPlace(): ImportedCheckPlace | undefined {
  if (inLine >= MAX_IMPORTED_CHECKS_IN_LINE) return undefined;
  inLine += 1;
  let held = true;
  let used = false;
  const release = () => {
    if (held) inLine -= 1;
    held = false;
  };
  return {
    release,
    verify(password, stored) {
      if (used || !held) return Promise.reject(new Error("this place in the line was used or given back"));
      used = true;
      const m = /^\{([A-Z0-9-]+)\}(.+)$/.exec(stored);
      const scheme = m && SCHEMES[m[1]!];
      if (!scheme || scheme.check(m[2]!) || Buffer.byteLength(password, "utf8") > MAX_IMPORTED_PASSWORD_BYTES) {
        release();
        return Promise.resolve(false);
      }
      const check = running.then(() => scheme.verify(password, m[2]!)).finally(release);
      running = check.catch(() => undefined);
      return check;
    },
  };
}

/** One check with a place of its own (tests, e2e/support); false without checking when the line is full. */
export function verifyImportedHash(password: string, stored: string): Promise<boolean> {
  return importedCheckPlace()?.verify(password, stored) ?? Promise.resolve(false);
}

function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

const CRYPT_ALPHABET = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** MD5-crypt (`$1$`, Poul-Henning Kamp's FreeBSD scheme, postfixadmin's `md5crypt`). */
export function md5Crypt(password: string, salt: string): string {
  const md5 = (...parts: Buffer[]) => parts.reduce((h, p) => h.update(p), crypto.createHash("md5")).digest();
  const p = Buffer.from(password, "utf8");
  const s = Buffer.from(salt.slice(0, 8), "utf8");
  const alternate = md5(p, s, p);
  const parts = [p, Buffer.from("$1$"), s];
  for (let left = p.length; left > 0; left -= 16) parts.push(alternate.subarray(0, Math.min(16, left)));
  for (let i = p.length; i; i >>= 1) parts.push(i & 1 ? Buffer.from([0]) : p.subarray(0, 1));
  let c = md5(...parts);
  for (let i = 0; i < 1000; i++) {
    const round = [i & 1 ? p : c];
    if (i % 3) round.push(s);
    if (i % 7) round.push(p);
    round.push(i & 1 ? c : p);
    c = md5(...round);
  }
  let out = "";
  const put = (w: number, chars: number) => {
    for (let k = 0; k < chars; k++, w >>>= 6) out += CRYPT_ALPHABET[w & 0x3f];
  };
  for (const [a, b, d] of [
    [0, 6, 12],
    [1, 7, 13],
    [2, 8, 14],
    [3, 9, 15],
    [4, 10, 5],
  ] as const)
    put((c[a]! << 16) | (c[b]! << 8) | c[d]!, 4);
  put(c[11]!, 2);
  return `$1$${s.toString("utf8")}$${out}`;
}
