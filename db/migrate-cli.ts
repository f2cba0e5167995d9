// `npm run db:migrate`: creates the database if needed and applies pending migrations: the SQLite file
// (DATABASE_PATH), or PostgreSQL when DATABASE_URL is a postgres:// URL (db/pg).
import { databasePath, openDatabase } from "./client";
import { isPostgresUrl, openPostgres } from "./pg/client";

const url = process.env.DATABASE_URL;
if (isPostgresUrl(url)) {
  const db = await openPostgres(url);
  await db.$client.end();
  console.log(`Database migrated: ${new URL(url).host}${new URL(url).pathname}`);
} else {
  const file = databasePath();
  openDatabase(file).$client.close();
  console.log(`Database migrated: ${file}`);
}
