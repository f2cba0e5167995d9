// Sets an alias's target in the database directly, past the API's checks: a round of aliases such as data written
// before the API refused them (2026-12-05) may hold. Run with the react-server condition, like seed.ts:
//   DATABASE_PATH=... node --conditions=react-server --import tsx e2e/api/alias-row.ts <alias address> <target>
import { eq } from "drizzle-orm";
import { closeDb, getReadyDb } from "@/db/client";
import { aliases } from "@/db/schema";
import { searchKey } from "@/lib/server/resources/page";

const [email = "", target = ""] = process.argv.slice(2);
const db = await getReadyDb();
const updated = await db
  .update(aliases)
  .set({ target, searchKey: searchKey(email.slice(0, email.lastIndexOf("@")), target) })
  .where(eq(aliases.email, email))
  .returning();
await closeDb();
if (updated.length !== 1) throw new Error(`no alias ${email}`);
