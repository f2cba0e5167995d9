// A PUT of a big list's `accounts` (lib/server/resources/list-members-put.ts): the difference is planned in slices
// outside the write transaction, so these check what that must not change: the result is exactly the PUT's list
// even when another writer changes the members meanwhile, a refused PUT writes nothing, the answer and the audit
// entry are what one transaction gives, and other requests get turns of the event loop while it works.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";
import { listStore } from "@/lib/lists/store";
import { listAudit } from "./audit";
import { getDomainOrThrow } from "./domains";
import { createMailingList, getListOrThrow, listRecord, updateMailingLists } from "./mailing-lists";

vi.mock("server-only", () => ({}));

const D = "listy.test";
let dir: string;
let db: Db;
const domain = () => getDomainOrThrow(db, D);
const members = async (name: string) =>
  (await listRecord(db, await domain(), await getListOrThrow(db, await domain(), name))).accounts;
const addresses = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `u${i + from}@adr.pl`);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-list-put-"));
  process.env.DATABASE_PATH = path.join(dir, "mail.db");
  db = openDatabase(process.env.DATABASE_PATH);
  await runCommand(db, ["domain", "add", D, "--postmaster-password", "Test-pass1"]);
});

afterAll(() => {
  db?.$client.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("PUT of a big list's accounts", () => {
  it("writes only the difference; members keep their place and new ones follow in the PUT's order", async () => {
    await createMailingList(db, await domain(), "a", {});
    const base = addresses(20_000);
    await updateMailingLists(db, await domain(), ["a"], { accounts: base });
    const wanted = [...base.filter((_, i) => i % 1000 !== 7), "nowy2@adr.pl", "nowy1@adr.pl"];
    const [updated] = await updateMailingLists(db, await domain(), ["a"], {
      description: "Duża",
      accounts: [...wanted].reverse(),
    });
    const expected = [...base.filter((_, i) => i % 1000 !== 7), "nowy1@adr.pl", "nowy2@adr.pl"];
    expect((await updated!.record()).accounts).toEqual(expected);
    expect((await updated!.record()).description).toBe("Duża");
    expect(await members("a")).toEqual(expected);
    const entry = (await listAudit(db, { domain: D })).entries[0]!;
    expect(entry.changes).toEqual({
      description: { old: "", new: "Duża" },
      accounts: {
        old_count: 20_000,
        new_count: 19_982,
        added: ["nowy1@adr.pl", "nowy2@adr.pl"],
        removed: base.filter((_, i) => i % 1000 === 7),
      },
    });
  });

  it("a member added or removed by another writer while the PUT plans is not lost or kept: the result is the PUT's list", async () => {
    await createMailingList(db, await domain(), "b", {});
    const base = addresses(30_000);
    await updateMailingLists(db, await domain(), ["b"], { accounts: base });
    const list = await getListOrThrow(db, await domain(), "b");
    const wanted = [...base.slice(1), "x@adr.pl"];
    // The PUT yields to the event loop while it plans: another writer (the list service) acts on every turn.
    let n = 0;
    let done = false;
    let inflight: Promise<void> = Promise.resolve();
    const interfere = async () => {
      if (done) return;
      await listStore(db).subscribe(list.id, `intruz${n++}@adr.pl`);
      if (n === 3) await listStore(db).unsubscribe(list.id, base[5]!);
      setImmediate(() => {
        inflight = interfere();
      });
    };
    setImmediate(() => {
      inflight = interfere();
    });
    await updateMailingLists(db, await domain(), ["b"], { accounts: wanted });
    done = true;
    await inflight;
    expect(n).toBeGreaterThan(10);
    // u5 left and came back with the PUT: a new member, after the others.
    expect(await members("b")).toEqual([
      ...wanted.filter((a) => a !== base[5] && a !== "x@adr.pl"),
      base[5],
      "x@adr.pl",
    ]);
  });

  it("other work gets turns of the event loop while a 50,000-member PUT runs", async () => {
    await createMailingList(db, await domain(), "c", {});
    await updateMailingLists(db, await domain(), ["c"], { accounts: addresses(50_000) });
    let turns = 0;
    let longest = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      turns++;
    }, 1);
    await updateMailingLists(db, await domain(), ["c"], { accounts: addresses(50_000, 10) });
    clearInterval(ticker);
    expect(turns).toBeGreaterThan(10);
    // Slices are ~5 ms; the write transaction of 20 rows and the answer are short. Generous for a shared host.
    expect(longest).toBeLessThan(150);
    expect(await members("c")).toEqual(addresses(50_000, 10));
  });

  it("a refused PUT (a bad address, an unknown list) changes nothing", async () => {
    await createMailingList(db, await domain(), "d", { accounts: ["a@adr.pl", "b@adr.pl"] });
    await expect(
      updateMailingLists(db, await domain(), ["d"], { accounts: [...addresses(5000), "zły adres"] }),
    ).rejects.toMatchObject({
      key: "invalidListOption",
    });
    await expect(
      updateMailingLists(db, await domain(), ["d", "nie-ma"], { accounts: addresses(5000) }),
    ).rejects.toMatchObject({
      key: "recordNotFound",
    });
    await expect(
      updateMailingLists(db, await domain(), ["d"], { replyto_mode: 2, accounts: addresses(5000) }),
    ).rejects.toMatchObject({
      key: "invalidListOption",
    });
    expect(await members("d")).toEqual(["a@adr.pl", "b@adr.pl"]);
  });
});
