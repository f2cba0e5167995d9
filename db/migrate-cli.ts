// `npm run db:migrate`: creates the database file if needed and applies pending migrations.
import { databasePath, openDatabase } from "./client";

const file = databasePath();
openDatabase(file).$client.close();
console.log(`Database migrated: ${file}`);
