// mailserver check's "deleted accounts' mailboxes removed" line: overdue removals that go away while it watches are
// a removal under way (a large domain's takes minutes), not a stopped events service.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { eq, like } from "drizzle-orm";
import { openDatabase, type Db } from "@/db/client";
import { removedMailboxes } from "@/db/schema";
vi.mock("server-only", () => ({}));

import { REMOVAL_OVERDUE_MS, removalsDone } from "./check";

let dir: string;
let db: Db;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-check-removals-"));
  db = openDatabase(path.join(dir, "mail.db"));
});
afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const overdue = (email: string) =>
  db
    .insert(removedMailboxes)
    .values({ email, host: null, removedAt: Date.now() - 2 * REMOVAL_OVERDUE_MS })
    .returning({ id: removedMailboxes.id })
    .then((rows) => rows[0]!.id);

it("passes while overdue removals are being made, naming how many went and how many are left", async () => {
  const ids = [await overdue("a@removal.test"), await overdue("b@removal.test"), await overdue("c@removal.test")];
  const check = removalsDone(db, undefined)();
  // The events service removing one while the check watches.
  setTimeout(() => void db.delete(removedMailboxes).where(eq(removedMailboxes.id, ids[0]!)).then(), 700);
  const result = await check;
  expect(result.ok).toBe(true);
  expect(result.detail).toMatch(/^3 waited longer than a minute and are being removed \(1 in \d\.\d s, 2 left\)$/);
  await db.delete(removedMailboxes).where(like(removedMailboxes.email, "%@removal.test"));
});

it("fails when none of them goes while it watches", async () => {
  await overdue("stuck@removal.test");
  const result = await removalsDone(db, undefined)();
  expect(result.ok).toBe(false);
  expect(result.detail).toMatch(/^1 waits longer than a minute, none removed in 8 s, the oldest stuck@removal\.test/);
  await db.delete(removedMailboxes).where(like(removedMailboxes.email, "%@removal.test"));
}, 20_000);
