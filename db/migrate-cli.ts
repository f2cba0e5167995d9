// `npm run db:migrate`: creates the database if needed and applies pending migrations: the SQLite file
// (DATABASE_PATH), or PostgreSQL when DATABASE_URL is a postgres:// URL (db/migrate.mjs, as `npm start` does).
import { migrateDatabase } from "./migrate.mjs";

try {
  console.log(await migrateDatabase({ refuseStandby: true }));
} catch (err) {
  // The operator's next step is in the message (a refused upgrade names the release to migrate through first).
  console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
