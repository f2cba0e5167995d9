import path from "node:path";
import { defineConfig } from "vitest/config";

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
      { extends: true, test: { name: "unit", include: ["lib/**/*.test.ts", "db/**/*.test.ts"] } },
      // The API integration tests call production servers started by their global setup (needs a build in
      // NEXT_DIST_DIR or .next); a separate project so that unit-test runs do not start them.
      {
        extends: true,
        test: { name: "api", include: ["e2e/api/**/*.test.ts"], globalSetup: ["e2e/api/global-setup.ts"] },
      },
    ],
  },
});
