import { defineConfig } from "drizzle-kit";
import { databasePath } from "./lib/config.mjs";

export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema.ts",
  out: "./db/migrations",
  dbCredentials: { url: databasePath() },
});
