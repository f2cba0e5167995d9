// Seeds a test database through the operator CLI's own command runner (one process per database, so seeding
// costs one tsx start-up instead of one per command). Run with the react-server condition, like the CLI:
//   DATABASE_PATH=... node --conditions=react-server --import tsx e2e/api/seed.ts '[["domain","add",...], ...]'
import { closeDb, getReadyDb } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";

const commands = JSON.parse(process.argv[2] ?? "[]") as string[][];
const db = await getReadyDb();
for (const argv of commands) await runCommand(db, argv);
await closeDb();
