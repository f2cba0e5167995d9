// `npm run db:migrate`: creates the database if needed and applies pending migrations: the SQLite file
// (DATABASE_PATH), or PostgreSQL when DATABASE_URL is a postgres:// URL (db/migrate.mjs, as `npm start` does).
import { migrateDatabase } from "./migrate.mjs";

console.log(`Database migrated: ${await migrateDatabase()}`);
