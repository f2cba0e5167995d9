import { defineConfig } from "drizzle-kit";
import { databasePath } from "./lib/config.mjs";

export default defineConfig({
  dialect: "sqlite",
  schema: "./db/sqlite/schema.ts",
  out: "./db/sqlite/migrations",
  dbCredentials: { url: databasePath() },
});
