import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@": path.resolve(import.meta.dirname) },
    // The server modules import "server-only"; under this condition it resolves to an empty module.
    conditions: ["react-server"],
  },
  test: {
    include: ["lib/**/*.test.ts", "e2e/api/**/*.test.ts", "db/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
