// Hashes from another mail server (`account import`): every accepted scheme as Dovecot's own `doveadm pw` makes it is
// verified in Node (right password yes, wrong no), and Dovecot verifies the form we store (`doveadm pw -t`), a
// `{CRYPT}` or bare crypt hash renamed to its scheme included; schemes Node cannot check are refused.
import { spawnSync } from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import {
  IMPORTED_SCHEMES,
  MAX_IMPORTED_CHECKS_IN_LINE,
  MAX_IMPORTED_PASSWORD_BYTES,
  parseImportedHash,
  verifyImportedHash,
} from "./imported-hashes";
import { sha512Crypt } from "./sha512-crypt";
import { requiredInCi } from "./testing/test-environment";

vi.mock("server-only", () => ({}));

const doveadm = (...args: string[]) => spawnSync("doveadm", args, { encoding: "utf8" });
const missing = requiredInCi(doveadm("pw", "-l").status === 0 ? [] : ["dovecot-core"]);

describe.skipIf(missing.length > 0)("imported hashes against Dovecot's doveadm pw", () => {
  it.each(IMPORTED_SCHEMES)(
    "%s: made by Dovecot, verified in Node, stored in a form Dovecot verifies",
    async (scheme) => {
      const made = doveadm("pw", "-s", scheme, "-p", "Old-pass1").stdout.trim();
      const parsed = parseImportedHash(made);
      expect(parsed).toEqual({ hash: made });
      expect(await verifyImportedHash("Old-pass1", made)).toBe(true);
      expect(await verifyImportedHash("Old-pass2", made)).toBe(false);
      expect(doveadm("pw", "-t", made, "-p", "Old-pass1").status).toBe(0);
    },
  );

  it.each(["MD5-CRYPT", "SHA256-CRYPT", "SHA512-CRYPT", "BLF-CRYPT"])(
    "%s as {CRYPT} and bare: stored under its own scheme, which Dovecot verifies",
    async (scheme) => {
      const bare = doveadm("pw", "-s", scheme, "-p", "Old-pass1")
        .stdout.trim()
        .replace(/^\{[^}]+\}/, "");
      for (const given of [`{CRYPT}${bare}`, bare]) {
        const stored = (parseImportedHash(given) as { hash: string }).hash;
        expect(stored).toBe(`{${scheme}}${bare}`);
        expect(await verifyImportedHash("Old-pass1", stored)).toBe(true);
        expect(doveadm("pw", "-t", stored, "-p", "Old-pass1").status).toBe(0);
      }
    },
  );

  it("refuses schemes Node does not verify, DES crypt, malformed hashes and costs that would stall a sign-in", () => {
    const refusal = (value: string) => {
      const parsed = parseImportedHash(value);
      return "refused" in parsed ? parsed.refused : `accepted: ${parsed.hash}`;
    };
    for (const scheme of ["PLAIN", "PLAIN-MD5", "ARGON2ID", "CRAM-MD5", "SHA512"]) {
      const made = doveadm("pw", "-s", scheme, "-p", "Old-pass1").stdout.trim();
      expect(refusal(made)).toContain(`{${scheme}} is not accepted`);
    }
    expect(refusal("{CRYPT}ab01FAX.bQRSU")).toContain("DES");
    expect(refusal("{SHA512-CRYPT}$6$salt$short")).toContain("not a $6$ crypt hash");
    expect(refusal(`{SHA512-CRYPT}$6$rounds=5000000$salt$${"a".repeat(86)}`)).toContain("rounds");
    expect(refusal(`{BLF-CRYPT}$2y$15$${"a".repeat(53)}`)).toContain("cost");
    expect(refusal("secret")).toContain("{SCHEME}");
  });
});

describe("checking an imported hash at a sign-in (anyone may ask for one)", () => {
  it("checks a password of up to 256 bytes and refuses a longer one without hashing it", async () => {
    const longest = "ż".repeat(MAX_IMPORTED_PASSWORD_BYTES / 2);
    expect(await verifyImportedHash(longest, `{SHA512-CRYPT}${sha512Crypt(longest, "saltsalt")}`)).toBe(true);
    const tooLong = `${longest}x`;
    expect(await verifyImportedHash(tooLong, `{SHA512-CRYPT}${sha512Crypt(tooLong, "saltsalt")}`)).toBe(false);
    // Near the sign-in's 1 MB body limit: SHA-crypt's first step alone would hash 10^12 bytes before pausing.
    const started = performance.now();
    expect(await verifyImportedHash("a".repeat(1_000_000), `{SHA512-CRYPT}${sha512Crypt("x", "saltsalt")}`)).toBe(
      false,
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("runs one check at a time: a quick one asked second settles after a slow one asked first", async () => {
    const settled: string[] = [];
    const slow = `{SHA512-CRYPT}${sha512Crypt("Old-pass1", "saltsalt", 50_000)}`;
    const quick = `{SSHA}${Buffer.concat([
      (await import("node:crypto")).createHash("sha1").update("Old-pass1").update("salt").digest(),
      Buffer.from("salt"),
    ]).toString("base64")}`;
    await Promise.all([
      verifyImportedHash("Old-pass1", slow).then((ok) => settled.push(`slow ${ok}`)),
      verifyImportedHash("Old-pass1", quick).then((ok) => settled.push(`quick ${ok}`)),
    ]);
    expect(settled).toEqual(["slow true", "quick true"]);
  });

  it("lines up at most a few checks per process: those asked past them are refused unchecked, before the first check ends; then there is room again", async () => {
    const slow = `{SHA512-CRYPT}${sha512Crypt("Old-pass1", "saltsalt", 20_000)}`;
    const settled: string[] = [];
    // Ten sign-ins' checks asked at once, all with the right password: before the line had a bound, all ten ran.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        verifyImportedHash("Old-pass1", slow).then((ok) => settled.push(`${i} ${ok}`)),
      ),
    );
    const lined = Array.from({ length: MAX_IMPORTED_CHECKS_IN_LINE }, (_, i) => `${i} true`);
    const refused = Array.from(
      { length: 10 - MAX_IMPORTED_CHECKS_IN_LINE },
      (_, i) => `${i + MAX_IMPORTED_CHECKS_IN_LINE} false`,
    );
    expect(settled).toEqual([...refused, ...lined]);
    expect(MAX_IMPORTED_CHECKS_IN_LINE).toBeLessThanOrEqual(4);
    // The places are given back as the checks end.
    expect(await verifyImportedHash("Old-pass1", slow)).toBe(true);
  });
});
