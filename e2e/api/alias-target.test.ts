/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON */
// An alias may not point at a local mailbox that does not exist (the catchall refuses the same case), a
// search for a full address finds the record, and the CLI names a duplicate domain as a domain.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { errorCatalog } from "@/lib/errors/catalog";
import { api, createAccount, expectError, expectStatus, postmaster, recordAsserted } from "./client";

const D = "target.example.com";
const admin = postmaster(D);
const ROOT = path.resolve(import.meta.dirname, "../..");
/** The names of a list answer (result_data is keyed by name). */
const names = (res: { json: unknown }) => Object.keys((res.json as { result_data: object }).result_data);

beforeAll(async () => {
  await createAccount(D, "marta.krajewska", { description: "Sekretariat" });
  await createAccount(D, "gone");
  expectStatus(await api("POST", `mailinglists/${D}/zespol`, { auth: admin, body: {} }), 201);
});

describe("alias targets in the alias's own domain", () => {
  it("refuses a target that is no account, alias or list of the domain, naming it", async () => {
    const res = await api("POST", `aliases/${D}/a1`, { auth: admin, body: { target: `nobody@${D}` } });
    expectError(res, "aliasTargetMissing", "target");
    expect(res.json.attributes).toEqual({ target: `nobody@${D}` });
    expect((await api("GET", `aliases/${D}/a1`, { auth: admin })).status).toBe(404);
  });

  it("tells nothing about another domain hosted here: its addresses are taken as any address elsewhere", async () => {
    // other.example.com is hosted (e2e/api/fixtures.ts) and has a postmaster but no "nobody". Checked there, the
    // answers told another domain's postmaster which domains are hosted and which of their addresses exist
    // (contract §9); on an alias that does not exist, a check before the lookup told it without writing anything.
    for (const target of [
      "nobody@other.example.com",
      "postmaster@other.example.com",
      "nobody@not-hosted.example.net",
    ]) {
      expectError(await api("PUT", `aliases/${D}/no-such-alias`, { auth: admin, body: { target } }), "recordNotFound");
    }
    expectStatus(
      await api("POST", `aliases/${D}/a1`, { auth: admin, body: { target: "nobody@other.example.com" } }),
      201,
    );
    expectStatus(
      await api("PUT", `aliases/${D}/a1`, { auth: admin, body: { target: "postmaster@other.example.com" } }),
      200,
    );
    expectStatus(await api("DELETE", `aliases/${D}/a1`, { auth: admin }), 204);
  });

  it("accepts an existing account, list or alias, and any address of a domain not hosted here", async () => {
    for (const [name, target] of [
      ["a2", `marta.krajewska@${D}`],
      ["a3", `zespol@${D}`],
      ["a4", `a2@${D}`],
      ["a5", "someone@elsewhere.example.net"],
    ]) {
      expectStatus(await api("POST", `aliases/${D}/${name}`, { auth: admin, body: { target } }), 201);
    }
  });

  it("refuses an alias to a just-deleted account, and a PUT onto it", async () => {
    expectStatus(await api("DELETE", `emails/${D}/gone`, { auth: admin }), 204);
    expectError(
      await api("POST", `aliases/${D}/a6`, { auth: admin, body: { target: `gone@${D}` } }),
      "aliasTargetMissing",
      "target",
    );
    expectError(
      await api("PUT", `aliases/${D}/a2`, { auth: admin, body: { target: `gone@${D}` } }),
      "aliasTargetMissing",
      "target",
    );
    expect((await api("GET", `aliases/${D}/a2`, { auth: admin })).json.target).toBe(`marta.krajewska@${D}`);
  });

  it("a target without @domain is refused with the reason in the message", async () => {
    const res = await api("POST", `aliases/${D}/a7`, { auth: admin, body: { target: "marta.krajewska" } });
    expectError(res, "invalidAliasTarget", "target");
    expect(res.json.message).toMatch(/pełny adres/);
  });
});

describe("an address that goes away takes the aliases that led to it", () => {
  const status = async (name: string) => (await api("GET", `aliases/${D}/${name}`, { auth: admin })).status;
  const alias = async (name: string, target: string) =>
    expectStatus(await api("POST", `aliases/${D}/${name}`, { auth: admin, body: { target } }), 201);

  it("a deleted list: its aliases and the chains through them go, and a new holder of the name gets none of their mail", async () => {
    expectStatus(await api("POST", `mailinglists/${D}/team2`, { auth: admin, body: {} }), 201);
    await alias("team", `team2@${D}`);
    await alias("team-all", `team@${D}`);
    expectStatus(await api("DELETE", `mailinglists/${D}/team2`, { auth: admin }), 204);
    expect([await status("team"), await status("team-all")]).toEqual([404, 404]);
    // An ordinary account takes the freed name as its alias: nothing of the administrator's leads to it.
    const owner = await createAccount(D, "claimer", { alias_limit: 2 });
    expectStatus(await api("PUT", `emails/${D}/claimer`, { auth: owner, body: { aliases: [`team2@${D}`] } }), 200);
    const all = await api("GET", `aliases/${D}?search=team`, { auth: admin });
    expect(names(all)).toEqual(["team2"]);
  });

  it("a deleted account: the aliases two steps away go too", async () => {
    await createAccount(D, "victim");
    await alias("lvl1", `victim@${D}`);
    await alias("lvl2", `lvl1@${D}`);
    await alias("lvl3", `lvl2@${D}`);
    expectStatus(await api("DELETE", `emails/${D}/victim`, { auth: admin }), 204);
    expect([await status("lvl1"), await status("lvl2"), await status("lvl3")]).toEqual([404, 404, 404]);
  });

  it("a deleted alias, and an alias an account owner drops: what led through them goes; a loop ends", async () => {
    await createAccount(D, "keeper");
    await alias("hop", `keeper@${D}`);
    await alias("via-hop", `hop@${D}`);
    expectStatus(await api("DELETE", `aliases/${D}/hop`, { auth: admin }), 204);
    expect(await status("via-hop")).toBe(404);

    const owner = await createAccount(D, "dropper", { alias_limit: 2 });
    expectStatus(await api("PUT", `emails/${D}/dropper`, { auth: owner, body: { aliases: [`drop-me@${D}`] } }), 200);
    await alias("via-drop", `drop-me@${D}`);
    expectStatus(await api("PUT", `emails/${D}/dropper`, { auth: owner, body: { aliases: [] } }), 200);
    expect([await status("drop-me"), await status("via-drop")]).toEqual([404, 404]);

    // loop1 -> loop2 -> loop1: deleting one removes the other and stops. The API refuses to close the round
    // (alias-loops.test.ts), so it is written into the database, as older data may hold it.
    await alias("loop1", `keeper@${D}`);
    await alias("loop2", `loop1@${D}`);
    const written = spawnSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "e2e/api/alias-row.ts", `loop1@${D}`, `loop2@${D}`],
      { cwd: ROOT, env: { ...process.env, DATABASE_PATH: inject("mainDbPath") }, encoding: "utf8" },
    );
    expect(written.status, written.stderr).toBe(0);
    expect((await api("GET", `aliases/${D}/loop1`, { auth: admin })).json.target).toBe(`loop2@${D}`);
    expectStatus(await api("DELETE", `aliases/${D}/loop1`, { auth: admin }), 204);
    expect(await status("loop2")).toBe(404);
    // Aliases to addresses that stay are untouched.
    expect(await status("a4")).toBe(200);
  });
});

describe("search by full address", () => {
  it("finds the account, alias and list by name@domain", async () => {
    const accounts = await api("GET", `emails/${D}?search=${encodeURIComponent(`marta.krajewska@${D}`)}`, {
      auth: admin,
    });
    expect(names(accounts)).toEqual(["marta.krajewska"]);
    const lists = await api("GET", `mailinglists/${D}?search=${encodeURIComponent(`zespol@${D}`)}`, { auth: admin });
    expect(names(lists)).toEqual(["zespol"]);
    const aliases = await api("GET", `aliases/${D}?search=${encodeURIComponent(`a4@${D}`)}`, { auth: admin });
    expect(names(aliases)).toEqual(["a4"]);
    // Another domain's address is searched as typed.
    const none = await api("GET", `emails/${D}?search=${encodeURIComponent("marta.krajewska@other.example.com")}`, {
      auth: admin,
    });
    expect(names(none)).toEqual([]);
  });
});

describe("CLI", () => {
  it("a duplicate domain is named as a domain, not as an account, alias or list", () => {
    const r = spawnSync(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "lib/cli/index.ts",
        "domain",
        "add",
        D,
        "--postmaster-password",
        "Abc-12345",
      ],
      { cwd: ROOT, env: { ...process.env, DATABASE_PATH: inject("mainDbPath") }, encoding: "utf8" },
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(errorCatalog.domainTaken.message);
    expect(r.stderr).not.toMatch(/konto, alias lub lista/);
    recordAsserted("domainTaken");
  });
});
