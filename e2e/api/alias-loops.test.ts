/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- response bodies are untyped JSON */
// Mail that would come back where it started: the mail server refuses such a recipient at RCPT (expansionLoops in
// lib/mailserver/policy/destination.ts), so the API refuses an alias whose target leads back to it (500.368, the
// round named) and a forward that leads back to its own account through an alias (500.313).
import { beforeAll, describe, expect, it } from "vitest";
import { api, createAccount, expectError, expectStatus, postmaster } from "./client";

const D = "loop.example.com";
const admin = postmaster(D);
const at = (name: string) => `${name}@${D}`;
const targetOf = async (name: string) => (await api("GET", `aliases/${D}/${name}`, { auth: admin })).json.target;
const post = async (name: string, target: string) =>
  expectStatus(await api("POST", `aliases/${D}/${name}`, { auth: admin, body: { target } }), 201);

beforeAll(async () => {
  await createAccount(D, "jan.nowak");
  await post("petla-a", at("jan.nowak"));
  await post("petla-b", at("petla-a"));
  await post("petla-c", at("petla-b"));
});

describe("an alias whose target leads back to it", () => {
  it("PUT: refused with the round named, the target kept", async () => {
    const res = await api("PUT", `aliases/${D}/petla-a`, { auth: admin, body: { target: at("petla-b") } });
    expectError(res, "aliasTargetLoop", "target");
    expect(res.json.attributes).toEqual({
      target: at("petla-b"),
      loop: [at("petla-a"), at("petla-b"), at("petla-a")],
    });
    const longer = await api("PUT", `aliases/${D}/petla-a`, { auth: admin, body: { target: at("petla-c") } });
    expectError(longer, "aliasTargetLoop", "target");
    expect(longer.json.attributes.loop).toEqual([at("petla-a"), at("petla-c"), at("petla-b"), at("petla-a")]);
    expect(await targetOf("petla-a")).toBe(at("jan.nowak"));
  });

  it("PUT of several names: a child for each alias in the round, nothing changed", async () => {
    // petla-c -> petla-b -> petla-a -> petla-b goes round, but not through petla-c: not petla-c's loop.
    const res = await api("PUT", `aliases/${D}/petla-a,petla-c`, { auth: admin, body: { target: at("petla-b") } });
    expectError(res, "aliasTargetLoop", "petla-a");
    expect(res.json.children.map((c: { source: string }) => c.source)).toEqual(["petla-a"]);
    expect(res.json.children[0].attributes.field).toBe("target");
    expect(await targetOf("petla-a")).toBe(at("jan.nowak"));
    expect(await targetOf("petla-c")).toBe(at("petla-b"));
  });

  it("POST: through an account that only forwards back to it", async () => {
    await createAccount(D, "przekaz", { keep_mail: 0, forwards: [at("petla-f")] });
    const res = await api("POST", `aliases/${D}/petla-f`, { auth: admin, body: { target: at("przekaz") } });
    expectError(res, "aliasTargetLoop", "target");
    expect(res.json.attributes.loop).toEqual([at("petla-f"), at("przekaz"), at("petla-f")]);
    expectError(await api("GET", `aliases/${D}/petla-f`, { auth: admin }), "recordNotFound", "petla-f");
    // The account's own `aliases` field makes the same alias: refused the same way, naming it.
    const own = await api("PUT", `emails/${D}/przekaz`, { auth: admin, body: { aliases: [at("petla-f")] } });
    expectError(own, "aliasTargetLoop", "aliases");
    expect(own.json.attributes.address).toBe(at("petla-f"));
    expectError(await api("GET", `aliases/${D}/petla-f`, { auth: admin }), "recordNotFound", "petla-f");
    // An account that keeps a copy ends the round there: its alias among its forwards is no loop.
    expectStatus(await api("PUT", `emails/${D}/przekaz`, { auth: admin, body: { keep_mail: 1 } }), 200);
    await post("petla-f", at("przekaz"));
  });
});

describe("a forward that leads back to its own account", () => {
  it("to its alias, or an alias of that alias: refused as a forward to itself", async () => {
    await createAccount(D, "marta");
    await post("jn2", at("marta"));
    await post("jn3", at("jn2"));
    for (const [forwards, invalid] of [
      [[at("jn2")], [at("jn2")]],
      [["kto@zewnetrzna.example.org", at("jn3")], [at("jn3")]],
    ]) {
      const res = await api("PUT", `emails/${D}/marta`, { auth: admin, body: { forwards } });
      expectError(res, "invalidForward", "forwards");
      expect(res.json.attributes).toEqual({ invalid });
    }
    expect((await api("GET", `emails/${D}/marta`, { auth: admin })).json.forwards).toEqual([]);
    // Another account's alias is another account.
    expectStatus(await api("PUT", `emails/${D}/marta`, { auth: admin, body: { forwards: [at("petla-a")] } }), 200);
  });

  it("to an alias the same body gives it, on PUT and on POST", async () => {
    const put = await api("PUT", `emails/${D}/marta`, {
      auth: admin,
      body: { aliases: [at("jn2"), at("jn3x")], forwards: [at("jn3x")] },
    });
    expectError(put, "invalidForward", "forwards");
    expectError(await api("GET", `aliases/${D}/jn3x`, { auth: admin }), "recordNotFound", "jn3x");
    const created = await api("POST", `emails/${D}/nowa`, {
      auth: admin,
      body: { password: "Secret-123", capacity: 1, aliases: [at("nowa2")], forwards: [at("nowa2")] },
    });
    expectError(created, "invalidForward", "forwards");
    expectError(await api("GET", `emails/${D}/nowa`, { auth: admin }), "recordNotFound", "nowa");
  });

  it("a stored forward that became its own alias later stays accepted when sent back unchanged", async () => {
    // petla-a pointed elsewhere when marta's forward to it was set (above).
    expectStatus(await api("PUT", `aliases/${D}/petla-a`, { auth: admin, body: { target: at("marta") } }), 200);
    const record = await api("GET", `emails/${D}/marta`, { auth: admin });
    expect(record.json.forwards).toEqual([at("petla-a")]);
    expectStatus(await api("PUT", `emails/${D}/marta`, { auth: admin, body: record.json }), 200);
  });
});
