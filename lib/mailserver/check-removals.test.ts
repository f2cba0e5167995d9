// mailserver check's "deleted accounts' mailboxes removed" line: overdue removals that go away while it watches are
// a removal under way (a large domain's takes minutes), not a stopped events service; every host with some must
// make progress. The watch's time is faked: each step below is an event of the test, not a wait.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { eq, like } from "drizzle-orm";
import { openDatabase, type Db } from "@/db/client";
import { removedMailboxes } from "@/db/schema";

vi.mock("server-only", () => ({}));

import { REMOVAL_OVERDUE_MS, REMOVAL_PROGRESS_MS, removalsDone } from "./check";

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
beforeEach(() => void vi.useFakeTimers({ toFake: ["setTimeout", "Date"] }));
afterEach(async () => {
  vi.useRealTimers();
  await db.delete(removedMailboxes).where(like(removedMailboxes.email, "%@removal.test"));
});

const overdue = async (email: string, host: string | null = null) =>
  (
    await db
      .insert(removedMailboxes)
      .values({ email, host, removedAt: Date.now() - 2 * REMOVAL_OVERDUE_MS })
      .returning({ id: removedMailboxes.id })
  )[0]!.id;
const removed = (id: number) => db.delete(removedMailboxes).where(eq(removedMailboxes.id, id));

it("passes while overdue removals are being made, naming how many went and how many are left", async () => {
  const ids = [await overdue("a@removal.test"), await overdue("b@removal.test"), await overdue("c@removal.test")];
  const check = removalsDone(db, undefined)();
  await vi.advanceTimersByTimeAsync(600);
  await removed(ids[0]!); // the events service removing one while the check watches
  await vi.advanceTimersByTimeAsync(500);
  expect(await check).toEqual({
    ok: true,
    detail: "3 waited longer than a minute and are being removed (1 in 1.0 s, 2 left)",
  });
});

it("fails when none of them goes while it watches", async () => {
  await overdue("stuck@removal.test");
  const check = removalsDone(db, undefined)();
  await vi.advanceTimersByTimeAsync(REMOVAL_PROGRESS_MS + 1000);
  const result = await check;
  expect(result.ok).toBe(false);
  expect(result.detail).toMatch(/^1 waits longer than a minute, none removed in 8 s, the oldest stuck@removal\.test /);
});

it("fails naming the host whose removals do not move while another host's do", async () => {
  const moving = await overdue("a@removal.test", "imap1");
  await overdue("b@removal.test", "imap1");
  await overdue("c@removal.test", "imap2");
  const check = removalsDone(db, undefined)();
  await vi.advanceTimersByTimeAsync(600);
  await removed(moving);
  await vi.advanceTimersByTimeAsync(REMOVAL_PROGRESS_MS);
  const result = await check;
  expect(result.ok).toBe(false);
  expect(result.detail).toMatch(
    /^1 waits longer than a minute, none removed in 8 s, the oldest c@removal\.test \(on mail host imap2\)/,
  );
});

it("fails naming every host whose removals do not move, each with its oldest and how many wait there", async () => {
  await overdue("c@removal.test", "imap2");
  await overdue("d@removal.test", "imap3");
  await overdue("e@removal.test", "imap3");
  const check = removalsDone(db, undefined)();
  await vi.advanceTimersByTimeAsync(REMOVAL_PROGRESS_MS + 1000);
  const result = await check;
  expect(result.ok).toBe(false);
  expect(result.detail).toMatch(
    /^3 wait longer than a minute, none removed in 8 s, the oldest c@removal\.test \(on mail host imap2, 1 waiting\), d@removal\.test \(on mail host imap3, 2 waiting\): is `mailserver events` running on each\? /,
  );
});
