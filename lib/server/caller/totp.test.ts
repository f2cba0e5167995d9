// TOTP against RFC 6238's own test vectors (SHA-1), base32 round trips, and the secret's encryption at rest.
import { describe, expect, it, vi } from "vitest";
import { decryptSecret, encryptSecret } from "./totp";
import { base32Decode, base32Encode, hotp, matchStep, timeStep, totpAt } from "./totp-code";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

const RFC_SECRET = Buffer.from("12345678901234567890", "ascii");

describe("RFC 6238 appendix B (SHA-1)", () => {
  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ])("T=%i gives %s", (seconds, code) => {
    expect(hotp(RFC_SECRET, timeStep(seconds * 1000), 8)).toBe(code);
    expect(totpAt(RFC_SECRET, seconds * 1000)).toBe(code.slice(-6));
  });

  it("accepts the code of one step before or after (clock drift), not two", () => {
    const now = 1234567890_000;
    expect(matchStep(RFC_SECRET, totpAt(RFC_SECRET, now - 30_000), now)).toBe(timeStep(now) - 1);
    expect(matchStep(RFC_SECRET, totpAt(RFC_SECRET, now + 30_000), now)).toBe(timeStep(now) + 1);
    expect(matchStep(RFC_SECRET, totpAt(RFC_SECRET, now - 90_000), now)).toBeNull();
    expect(matchStep(RFC_SECRET, "12345", now)).toBeNull();
  });
});

describe("base32 (RFC 4648)", () => {
  it("encodes the RFC's examples and round-trips", () => {
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI");
    expect(base32Decode("MZXW6YTBOI").toString()).toBe("foobar");
    expect(base32Decode(base32Encode(RFC_SECRET)).equals(RFC_SECRET)).toBe(true);
  });
});

describe("the secret at rest", () => {
  it("is AES-256-GCM under TOTP_ENCRYPTION_KEY: never the secret's bytes, tamper-evident", () => {
    process.env.TOTP_ENCRYPTION_KEY ??= "a".repeat(64);
    const stored = encryptSecret(RFC_SECRET);
    expect(stored).not.toContain(base32Encode(RFC_SECRET));
    expect(stored).not.toContain(RFC_SECRET.toString("base64"));
    expect(decryptSecret(stored).equals(RFC_SECRET)).toBe(true);
    const [v, iv, tag, ct] = stored.split(".");
    const flipped = Buffer.from(ct!, "base64");
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptSecret([v, iv, tag, flipped.toString("base64")].join("."))).toThrow();
  });
});
