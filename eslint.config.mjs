// Type-aware lint rules of the house style, plus drizzle's guards against unscoped updates and deletes.
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import drizzle from "eslint-plugin-drizzle";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { engineNeutralDb } from "./db/lint/engine-neutral-db.mjs";

export default tseslint.config(
  {
    ignores: [
      ".next*/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      "bench/data/**",
      "next-env.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { "@next/next": nextPlugin, "react-hooks": reactHooks, drizzle },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "drizzle/enforce-delete-with-where": ["error", { drizzleObjectName: ["db", "tx"] }],
      "drizzle/enforce-update-with-where": ["error", { drizzleObjectName: ["db", "tx"] }],
    },
  },
  {
    // Code that runs on both engines; the exempt files open or query one engine's own handle on purpose.
    files: ["app/**/*.ts", "app/**/*.tsx", "lib/server/**/*.ts", "lib/lists/**/*.ts", "lib/mailserver/**/*.ts"],
    ignores: [
      "lib/mailserver/sandbox/**", // opens, seeds and closes the test database of either engine by its driver
      "lib/mailserver/check.ts", // `mailserver check` on SQLite; its PostgreSQL checks are in check-pg.ts
      "lib/mailserver/testing/mail-daemons.ts", // closes the test database by its engine's driver
      "**/*.test.ts", // tests set up, break and inspect one engine's database through its driver
    ],
    plugins: { local: { rules: { "engine-neutral-db": engineNeutralDb } } },
    rules: { "local/engine-neutral-db": "error" },
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
