import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

/** The tests that start the real mail daemons (the sandbox): run on SQLite by `mail`, on PostgreSQL by `mail-pg`. */
const MAIL_DAEMON_TESTS = [
  "lib/mailserver/mail-server.test.ts",
  "lib/mailserver/antispam.test.ts",
  "lib/mailserver/delivery.test.ts",
  "lib/mailserver/forwarding.test.ts",
  "lib/mailserver/send-limit.test.ts",
  "lib/lists/lists.test.ts",
  "lib/mailserver/sandbox/sandbox.test.ts",
  // PostgreSQL only: a streaming replica behind the production server (skipped by `mail`).
  "lib/mailserver/replica-api.test.ts",
  // PostgreSQL only: two mail hosts on loopback over one database.
  "lib/mailserver/mail-hosts.test.ts",
  // PostgreSQL only: a mail host delivering from its replica while the primary is down.
  "lib/mailserver/replica-delivery.test.ts",
  // PostgreSQL only: the documented failover (promote, repoint, pg_rewind) behind the production server.
  "lib/mailserver/failover.test.ts",
];

export default defineConfig({
  resolve: {
    alias: { "@": path.resolve(import.meta.dirname) },
    // The server modules import "server-only"; under this condition it resolves to an empty module.
    conditions: ["react-server"],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "db/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...MAIL_DAEMON_TESTS],
        },
      },
      // The real-daemon mail tests on SQLite: a project of their own, so that CI runs them beside `unit` and `api`
      // (.ci/test.sh): they mostly wait on Postfix and Dovecot, one core is enough for them.
      // A test may wait a minute for one SMTP reply on a loaded host (smtpSend), so these get 90 s.
      { extends: true, test: { name: "mail", include: MAIL_DAEMON_TESTS, testTimeout: 90_000 } },
      // The API integration tests call production servers started by their global setup (needs a build in
      // NEXT_DIST_DIR or .next); a separate project so that unit-test runs do not start them.
      {
        extends: true,
        test: { name: "api", include: ["e2e/api/**/*.test.ts"], globalSetup: ["e2e/api/global-setup.ts"] },
      },
      // The real-daemon mail tests again on PostgreSQL (`npm run test:mail:pg`): each file gets a private cluster
      // and DATABASE_URL from the setup file before it imports anything; the sandbox reads it over pgsql maps.
      ...(process.env.TEST_DATABASE === "postgres"
        ? [
            {
              extends: true as const,
              test: {
                name: "mail-pg",
                include: MAIL_DAEMON_TESTS,
                testTimeout: 90_000,
                setupFiles: ["lib/mailserver/testing/pg-setup.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
