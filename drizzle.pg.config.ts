// drizzle-kit for the PostgreSQL schema: `npx drizzle-kit generate --config drizzle.pg.config.ts`.
// drizzle.config.ts stays the SQLite one; db/pg/schema.ts must be kept in step with db/schema.ts.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/pg/schema.ts",
  out: "./db/pg/migrations",
  dbCredentials: { url: process.env.DATABASE_URL ?? "postgres://localhost/mailadmin" },
});
