// Test support: what the environment gives the real-daemon tests: the engine, the file's cluster, and whether they
// may skip. Outside CI a missing Debian package makes them skip, saying so; in CI it fails the run, so a CI host
// without Postfix cannot pass green with the mail tests skipped.
import type { PgCluster } from "@/e2e/support/pg-cluster";

/** The mail tests run on PostgreSQL (TEST_DATABASE=postgres, `npm run test:mail:pg`). */
export const mailTestsOnPostgres = () => process.env.TEST_DATABASE === "postgres";

/** Whether the tests run in CI: CI set to anything but empty, "0" or "false" (CI services set "true" or "1"). */
export const inCi = (ci = process.env.CI) => !!ci && ci !== "0" && ci.toLowerCase() !== "false";

/** `missing` as it is (the caller skips), unless in CI and it is not empty: then it throws, naming the packages. */
export function requiredInCi(missing: string[], ci = process.env.CI): string[] {
  if (missing.length > 0 && inCi(ci)) {
    throw new Error(
      `CI=${ci} and these Debian packages are missing: ${missing.join(" ")} (bash .ci/system-packages.sh installs them)`,
    );
  }
  return missing;
}

/** The test file's private cluster, started by ./pg-setup.ts under TEST_DATABASE=postgres. */
export function testPgCluster(): PgCluster {
  const cluster = (globalThis as { __mailTestPg?: PgCluster }).__mailTestPg;
  if (!cluster)
    throw new Error(
      "TEST_DATABASE=postgres without the cluster of lib/mailserver/testing/pg-setup.ts (run npm run test:mail:pg)",
    );
  return cluster;
}
