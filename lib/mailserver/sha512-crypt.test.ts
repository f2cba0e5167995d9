import { execFileSync } from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import { mailPasswordHash, mailPasswordHashAsync, sha512Crypt } from "./sha512-crypt";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

describe("sha512Crypt", () => {
  // The test vectors of the specification (https://www.akkadia.org/drepper/SHA-crypt.txt).
  it.each([
    [
      "Hello world!",
      "saltstring",
      5000,
      "$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1",
    ],
    [
      "Hello world!",
      "saltstringsaltstring",
      10000,
      "$6$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v.",
    ],
    [
      "This is just a test",
      "toolongsaltstring",
      5000,
      "$6$toolongsaltstrin$lQ8jolhgVRVhY4b5pZKaysCLi0QBxGoNeKQzQ3glMhwllF7oGDZxUhx1yxdYcz/e1JSbq3y6JMxxl8audkUEm0",
    ],
    [
      "we have a short salt string but not a short password",
      "short",
      77777,
      "$6$rounds=77777$short$WuQyW2YR.hBNpjjRhpYD/ifIw05xdfeEyQoMxIXbkvr0gge1a1x3yRULJ5CCaUeOxFmtlcGZelFl5CxtgfiAc0",
    ],
    [
      "a very much longer text to encrypt.  This one even stretches over morethan one line.",
      "anotherlongsaltstring",
      1400,
      "$6$rounds=1400$anotherlongsalts$POfYwTEok97VWcjxIiSOjiykti.o/pQs.wPvMxQ6Fm7I6IoYN3CmLs66x9t0oSwbtEW7o7UmJEiDwGqd8p4ur1",
    ],
    [
      "the minimum number is still observed",
      "roundstoolow",
      10,
      "$6$rounds=1000$roundstoolow$kUMsbe306n21p9R.FRkW3IGn.S9NPN0x50YhH1xhLsPuWGsUSklZt58jaTfF4ZEQpyUNGc0dqbpBYYBaHHrsX.",
    ],
  ])("matches the specification for %j", (password, salt, rounds, expected) => {
    expect(sha512Crypt(password, salt, rounds)).toBe(expected);
  });

  it("agrees with OpenSSL for a UTF-8 password", () => {
    const openssl = execFileSync("openssl", ["passwd", "-6", "-salt", "abcdefgh", "zażółć-gęślą"], {
      encoding: "utf8",
    });
    expect(sha512Crypt("zażółć-gęślą", "abcdefgh")).toBe(openssl.trim());
  });

  it("prefixes Dovecot's scheme name and salts every hash", () => {
    const a = mailPasswordHash("Secret-1");
    expect(a).toMatch(/^\{SHA512-CRYPT\}\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/);
    expect(mailPasswordHash("Secret-1")).not.toBe(a);
  });

  it("hashes in turns of the event loop for a request handler, to the same hash as OpenSSL's for its salt", async () => {
    let turns = 0;
    let hashing = true;
    const count = () => {
      if (!hashing) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const hash = await mailPasswordHashAsync("zażółć-gęślą");
    hashing = false;
    // 5,000 rounds in turns of 250: the loop ran other callbacks between them.
    expect(turns).toBeGreaterThanOrEqual(19);
    const [, , salt] = hash.split("$");
    const openssl = execFileSync("openssl", ["passwd", "-6", "-salt", salt!, "zażółć-gęślą"], { encoding: "utf8" });
    expect(hash).toBe(`{SHA512-CRYPT}${openssl.trim()}`);
  });
});
