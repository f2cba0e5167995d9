/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON */
// Domain limits and their usage counters (limits.example.com is seeded with 3 accounts, 2 aliases, 1 list and
// 3000 MB; its postmaster holds one account and 1024 MB), and the account's usage reported by the mail server.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, createAccount, expectError, expectStatus, postmaster } from "./client";

const D = "limits.example.com";
const admin = postmaster(D);

async function usage() {
  const res = await api("GET", `domains/${D}`, { auth: admin });
  expectStatus(res, 200);
  const r = res.json as Record<string, string>;
  return {
    accounts: r.account_limit_usage,
    aliases: r.alias_limit_usage,
    lists: r.mailinglist_limit_usage,
    capacity: r.capacity_limit_usage,
  };
}

/** The operator CLI, as the mail server's quota accounting would call it. */
function cli(...args: string[]): string {
  return execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: { ...process.env, DATABASE_PATH: inject("mainDbPath") },
    encoding: "utf8",
  });
}

// The steps build on each other, in order.
describe("limits of limits.example.com", () => {
  it("reports limits as strings and starts with the postmaster counted", async () => {
    const res = await api("GET", `domains/${D}`, { auth: admin });
    expect(res.json).toMatchObject({
      account_limit: "3",
      alias_limit: "2",
      mailinglist_limit: "1",
      capacity_limit: "3000",
    });
    expect(await usage()).toEqual({ accounts: "1", aliases: "0", lists: "0", capacity: "1024" });
  });

  it("capacity: creating beyond capacity_limit is refused (500.367), up to it is accepted", async () => {
    await createAccount(D, "a1", { capacity: 1000 });
    expect(await usage()).toMatchObject({ accounts: "2", capacity: "2024" });
    const over = await api("POST", `emails/${D}/a2`, { auth: admin, body: { password: "Secret-123", capacity: 977 } });
    expectError(over, "capacityLimitReached", "capacity");
    // The limit and the MB still free, so that the panel can say them.
    expect(over.json.attributes).toEqual({ capacity_limit: 3000, free_mb: 976, requested: 3001 });
    expect(await usage()).toMatchObject({ accounts: "2", capacity: "2024" });
    await createAccount(D, "a2", { capacity: 976 });
    expect(await usage()).toMatchObject({ accounts: "3", capacity: "3000" });
  });

  it("capacity: raising an account past the limit is refused, lowering is accepted", async () => {
    expectError(
      await api("PUT", `emails/${D}/a1`, { auth: admin, body: { capacity: 1001 } }),
      "capacityLimitReached",
      "capacity",
    );
    expect(await usage()).toMatchObject({ capacity: "3000" });
    expectStatus(await api("PUT", `emails/${D}/a1`, { auth: admin, body: { capacity: 900 } }), 200);
    expect(await usage()).toMatchObject({ capacity: "2900" });
  });

  it("accounts: the fourth account is refused (500.364) and nothing is created", async () => {
    const res = await api("POST", `emails/${D}/a3`, { auth: admin, body: { password: "Secret-123", capacity: 1 } });
    expectError(res, "accountLimitReached", "name");
    expectError(await api("GET", `emails/${D}/a3`, { auth: admin }), "recordNotFound", "a3");
    expect(await usage()).toMatchObject({ accounts: "3", capacity: "2900" });
  });

  it("aliases: two are allowed, the third is refused (500.365), also through an account's aliases field", async () => {
    expectStatus(await api("POST", `aliases/${D}/x1`, { auth: admin, body: { target: `a1@${D}` } }), 201);
    expectStatus(await api("POST", `aliases/${D}/x2`, { auth: admin, body: { target: `a1@${D}` } }), 201);
    expect(await usage()).toMatchObject({ aliases: "2" });
    expectError(
      await api("POST", `aliases/${D}/x3`, { auth: admin, body: { target: `a1@${D}` } }),
      "aliasLimitReached",
      "name",
    );
    const viaAccount = await api("PUT", `emails/${D}/a2`, { auth: admin, body: { aliases: [`y1@${D}`] } });
    expectError(viaAccount, "aliasLimitReached", "aliases");
    expect((await api("GET", `emails/${D}/a2`, { auth: admin })).json.aliases).toEqual([]);
    expect(await usage()).toMatchObject({ aliases: "2" });
  });

  it("aliases: deleting one frees a place; an account's aliases field counts as aliases", async () => {
    expectStatus(await api("DELETE", `aliases/${D}/x1`, { auth: admin }), 204);
    expect(await usage()).toMatchObject({ aliases: "1" });
    const res = await api("PUT", `emails/${D}/a2`, { auth: admin, body: { aliases: [`y1@${D}`] } });
    expectStatus(res, 200);
    expect(res.json.aliases).toEqual([`y1@${D}`]);
    expect(await usage()).toMatchObject({ aliases: "2" });
    const list = await api("GET", `aliases/${D}`, { auth: admin });
    expect(Object.keys(list.json.result_data as object).sort()).toEqual(["x2", "y1"]);
  });

  it("lists: one is allowed, the second is refused (500.366)", async () => {
    expectStatus(await api("POST", `mailinglists/${D}/l1`, { auth: admin, body: {} }), 201);
    expectError(
      await api("POST", `mailinglists/${D}/l2`, { auth: admin, body: {} }),
      "mailinglistLimitReached",
      "name",
    );
    expect(await usage()).toMatchObject({ lists: "1" });
  });

  it("deleting an account frees its place and its capacity", async () => {
    expectStatus(await api("DELETE", `emails/${D}/a2`, { auth: admin }), 204);
    expect(await usage()).toEqual({ accounts: "2", aliases: "1", lists: "1", capacity: "1924" });
    await createAccount(D, "a3", { capacity: 50 });
    expect(await usage()).toMatchObject({ accounts: "3", capacity: "1974" });
  });

  it("usage: the mail server's report shows as a percentage in the record and with % in the list", async () => {
    cli("usage", "report", `a1@${D}`, "--bytes", String(450 * 1024 * 1024));
    const record = await api("GET", `emails/${D}/a1`, { auth: admin });
    expect(record.json.usage).toBe(50);
    const list = await api("GET", `emails/${D}?sort=usage&sort_dir=desc`, { auth: admin });
    expect(Object.keys(list.json.result_data as object)[0]).toBe("a1");
    expect(list.json.result_data.a1).toMatchObject({ usage: "50%", capacity: "900", blocked: "0" });
  });
});

// The API remembers callers and domains between calls while the database is unchanged (lib/server/store/db-generation.ts);
// a change the operator makes from the CLI, in another process, must still show in the very next call.
describe("the operator's changes from the CLI", () => {
  it("show in the next call: a new limit, then the domain's removal", async () => {
    expectStatus(await api("GET", `domains/${D}`, { auth: admin }), 200);
    cli("domain", "set-limits", D, "--alias-limit", "7");
    expect((await api("GET", `domains/${D}`, { auth: admin })).json).toMatchObject({ alias_limit: "7" });
    // Audited under the record's field names, which the panel's audit page has words for (not accountLimit).
    const log = cli("audit", "list", "--domain", D);
    // (Keys in any order: PostgreSQL's jsonb keeps its own.)
    expect(log).toMatch(/\tupdate domain\t\S+\t\{"alias_limit":\{("old":\d+,"new":7|"new":7,"old":\d+)\}\}$/m);
    expect(log).toMatch(/\tcreate domain\t\S+\t\{.*"account_limit":\{/m);
    cli("domain", "remove", D, "--yes");
    expectError(await api("GET", `domains/${D}`, { auth: admin }), "badCredentials");
  });
});
