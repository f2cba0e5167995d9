// The walk from an address to the lists its mail is handed to (destination.ts): onlyListsReached, which the policy
// service judges a recipient by, and listsReachedBy, which the API refuses nested lists by
// (lib/server/resources/list-nesting.ts). One walk, two answers: "lists and nothing else" and "any list".
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";
import { createAccount } from "@/lib/server/resources/accounts";
import { createAlias } from "@/lib/server/resources/aliases";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { createMailingList } from "@/lib/server/resources/mailing-lists";
import { forwardLeadsOutside, listsReachedBy, onlyListsReached } from "./destination";

vi.mock("server-only", () => ({}));

const D = "cel.test";
const at = (name: string) => `${name}@${D}`;
let dir: string;
let db: Db;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-destination-"));
  db = openDatabase(path.join(dir, "mail.db"));
  await runCommand(db, ["domain", "add", D, "--postmaster-password", "Test-pass1"]);
  const d = await getDomainOrThrow(db, D);
  await createMailingList(db, d, "lista", {});
  const account = (name: string, fields: Record<string, unknown>) =>
    createAccount(db, d, name, { password: "Secret-123", capacity: 1, ...fields });
  await account("jan", {});
  await account("tylko-lista", { keep_mail: 0, forwards: [at("lista")] });
  await account("lista-i-dalej", { keep_mail: 0, forwards: [at("lista"), "ktos@gdzie.indziej.test"] });
  await account("z-kopia", { keep_mail: 1, forwards: [at("lista")] });
  await createAlias(db, d, "alias", { target: at("lista") });
  await createAlias(db, d, "do-konta", { target: at("tylko-lista") });
  await account("tylko-daleko", { keep_mail: 0, forwards: ["daleko@gdzie.indziej.test"] });
  await account("przez-konto", { keep_mail: 0, forwards: [at("tylko-daleko")] });
  await account("kopia-daleko", { keep_mail: 1, forwards: ["daleko@gdzie.indziej.test"] });
  await account("kopia-dalej", { keep_mail: 1, forwards: [at("tylko-daleko")] });
  await account("zablokowane", { keep_mail: 0, forwards: ["daleko@gdzie.indziej.test"], blocked: 1 });
  await createAlias(db, d, "do-dalekiego", { target: at("tylko-daleko") });
  await createAlias(db, d, "wprost-daleko", { target: "daleko@gdzie.indziej.test" });
});

afterAll(() => {
  db?.$client.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the lists an address leads to", () => {
  it.each([
    // address, onlyListsReached, listsReachedBy
    ["lista", [at("lista")], [at("lista")]],
    ["alias", [at("lista")], [at("lista")]],
    ["tylko-lista", [at("lista")], [at("lista")]],
    ["do-konta", [at("lista")], [at("lista")]],
    ["lista-i-dalej", undefined, [at("lista")]],
    ["z-kopia", undefined, []],
    ["jan", undefined, []],
    ["nikt", undefined, []],
  ])("%s", async (name, only, any) => {
    expect(await onlyListsReached(db, at(name))).toEqual(only);
    expect(await listsReachedBy(db, at(name))).toEqual(any);
  });

  it("does not follow an address `follows` turns down", async () => {
    expect(await listsReachedBy(db, at("alias"), (a) => a !== at("lista"))).toEqual([]);
    expect(await listsReachedBy(db, "lista@gdzie.indziej.test")).toEqual([]);
  });
});

describe("another server's address a forward-only account sends a message on to (forwardLeadsOutside)", () => {
  it.each([
    // address, what it reaches outside through forward-only accounts
    ["tylko-daleko", "daleko@gdzie.indziej.test"],
    ["przez-konto", "daleko@gdzie.indziej.test"],
    ["do-dalekiego", "daleko@gdzie.indziej.test"],
    ["lista-i-dalej", "ktos@gdzie.indziej.test"],
    // A kept copy ends the walk: that account's own script holds back what it would send outside.
    ["kopia-daleko", undefined],
    ["kopia-dalej", undefined],
    ["zablokowane", undefined],
    // An alias's own chain is aliasLeadsOutside's.
    ["wprost-daleko", undefined],
    ["tylko-lista", undefined],
    ["jan", undefined],
  ])("%s", async (name, outside) => {
    expect(await forwardLeadsOutside(db, at(name))).toBe(outside);
  });

  it("stops at a forward-only account whose filter keeps this message as spam", async () => {
    expect(
      await forwardLeadsOutside(db, at("przez-konto"), (a) => Promise.resolve(a === at("tylko-daleko"))),
    ).toBeUndefined();
    expect(await forwardLeadsOutside(db, at("przez-konto"), (a) => Promise.resolve(a === at("jan")))).toBe(
      "daleko@gdzie.indziej.test",
    );
  });
});
