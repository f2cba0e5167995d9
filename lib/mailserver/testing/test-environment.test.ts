// The rule that keeps a CI host without the mail daemons from passing green: skip outside CI, fail in CI.
import { describe, expect, it } from "vitest";
import { inCi, requiredInCi } from "./test-environment";

describe("missing mail daemons", () => {
  it("CI counts as set for any value but empty, 0 and false", () => {
    for (const ci of ["true", "1", "yes", "TRUE"]) expect(inCi(ci), ci).toBe(true);
    for (const ci of ["", "0", "false", "False"]) expect(inCi(ci), ci).toBe(false);
  });

  it("outside CI the missing packages are answered, so that the caller skips", () => {
    expect(requiredInCi(["postfix", "dovecot-lmtpd"], "")).toEqual(["postfix", "dovecot-lmtpd"]);
    expect(requiredInCi(["postfix"], "false")).toEqual(["postfix"]);
  });

  it("in CI a missing package throws, naming it and the install script", () => {
    expect(() => requiredInCi(["postfix", "rspamd"], "true")).toThrow(
      "CI=true and these Debian packages are missing: postfix rspamd (bash .ci/system-packages.sh installs them)",
    );
    expect(() => requiredInCi(["postfix"], "1")).toThrow(/missing: postfix/);
  });

  it("in CI with nothing missing the tests run", () => {
    expect(requiredInCi([], "true")).toEqual([]);
  });
});
