/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- response bodies are untyped JSON */
// Multi-name PUT and DELETE (contract §3): atomic, 204 on success, and on failure one child error per failing name
// with `source` set to that name, while nothing at all was changed.
import { beforeAll, describe, expect, it } from "vitest";
import { api, createAccount, expectError, expectStatus, postmaster } from "./client";

const D = "multi.example.com";
const admin = postmaster(D);

const get = async (path: string) => (await api("GET", path, { auth: admin })).json as Record<string, unknown>;
const children = (body: { children?: { code: string; source: string }[] }) =>
  (body.children ?? []).map((c) => [c.code, c.source]);

beforeAll(async () => {
  for (const name of ["m1", "m2", "m3", "d1", "d2", "d3"]) await createAccount(D, name);
  for (const name of ["a1", "a2", "a3"]) {
    expectStatus(await api("POST", `aliases/${D}/${name}`, { auth: admin, body: { target: `m1@${D}` } }), 201);
  }
  for (const name of ["l1", "l2", "l3"])
    expectStatus(await api("POST", `mailinglists/${D}/${name}`, { auth: admin, body: {} }), 201);
});

describe("accounts", () => {
  it("PUT of several names changes all of them and answers 204 with an empty body", async () => {
    const res = await api("PUT", `emails/${D}/m1,m2,m3`, { auth: admin, body: { description: "Zespół A" } });
    expectStatus(res, 204);
    expect(res.text).toBe("");
    for (const n of ["m1", "m2", "m3"]) expect((await get(`emails/${D}/${n}`)).description).toBe("Zespół A");
  });

  it("one missing name: 404.2 with a child naming it, and no account changed", async () => {
    const res = await api("PUT", `emails/${D}/m1,ghost,m2,ghost2`, { auth: admin, body: { description: "Zmiana" } });
    expectError(res, "recordNotFound", "ghost");
    expect(children(res.json)).toEqual([
      ["404.2", "ghost"],
      ["404.2", "ghost2"],
    ]);
    // About the name, not a field: no `field` repeating it, as aliases and lists answer (the name is the source).
    expect(res.json.attributes).toEqual({ resource: "account" });
    expect(res.json.children[0].attributes).toEqual({ resource: "account" });
    for (const n of ["m1", "m2"]) expect((await get(`emails/${D}/${n}`)).description).toBe("Zespół A");
  });

  it("one name failing a rule (blocking postmaster): 403.2 child for it, the others untouched", async () => {
    const res = await api("PUT", `emails/${D}/m1,postmaster,m2`, { auth: admin, body: { blocked: 1 } });
    expectError(res, "postmasterProtected", "postmaster");
    expect(children(res.json)).toEqual([["403.2", "postmaster"]]);
    for (const n of ["m1", "m2"]) expect((await get(`emails/${D}/${n}`)).blocked).toBe(0);
  });

  it("a refused body fails every name: the source is the field, one child per name", async () => {
    const res = await api("PUT", `emails/${D}/m1,m2`, { auth: admin, body: { description: "ok", capacity: 0 } });
    expectError(res, "invalidCapacity", "capacity");
    expect(children(res.json)).toEqual([
      ["500.303", "m1"],
      ["500.303", "m2"],
    ]);
    expect(res.json.children[0].attributes).toEqual({ field: "capacity" });
    expect((await get(`emails/${D}/m1`)).description).toBe("Zespół A");

    // Several bad fields: the first is the error; each name's child names it, with no copy of the others (a body
    // of thousands of unknown fields copied into each of 1,000 names made an answer of tens of megabytes).
    const two = await api("PUT", `emails/${D}/m1,m2`, { auth: admin, body: { capacity: 0, spam_hits: 3 } });
    expectError(two, "invalidCapacity", "capacity");
    expect(children(two.json)).toEqual([
      ["500.303", "m1"],
      ["500.303", "m2"],
    ]);
    for (const child of two.json.children) expect(child.children).toBeUndefined();
    const unknown = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`x${i}`, 1]));
    const many = await api("PUT", `emails/${D}/m1,m2,m3`, { auth: admin, body: unknown });
    expectError(many, "unknownField", "x0");
    expect(many.text.length).toBeLessThan(5000);
    const one = await api("PUT", `emails/${D}/m1`, { auth: admin, body: unknown });
    expect(one.json.children).toHaveLength(100);
    // A list's bad entries are quoted once, on the error, not on each name.
    const long = Array.from({ length: 20 }, (_, i) => `${"x".repeat(20_000)}${i}`);
    const names = Array.from({ length: 300 }, (_, i) => `nobody${i}`).join(",");
    const forwards = await api("PUT", `emails/${D}/${names}`, { auth: admin, body: { forwards: long } });
    expect(forwards.json.source).toBe("forwards");
    expect(forwards.json.children).toHaveLength(300);
    expect(forwards.text.length).toBeLessThan(2 * JSON.stringify(long).length);
  });

  it("an account named like a field is still one name among several", async () => {
    for (const name of ["capacity", "quota"]) await createAccount(D, name);
    const res = await api("PUT", `emails/${D}/capacity,quota`, { auth: admin, body: { capacity: -1, quota: 5 } });
    expectError(res, "invalidCapacity", "capacity");
    expect(children(res.json)).toEqual([
      ["500.303", "capacity"],
      ["500.303", "quota"],
    ]);
    const fields = (res.json as { children: { attributes: { field: string } }[] }).children.map(
      (c) => c.attributes.field,
    );
    expect(fields).toEqual(["capacity", "capacity"]);
  });

  it("a domain limit refusing the whole change has one child per name too", async () => {
    const limit = Number((await get(`domains/${D}`)).capacity_limit);
    expect(limit).toBeGreaterThan(0);
    // Each account alone fits; the three together pass the domain's total.
    const res = await api("PUT", `emails/${D}/m1,m2,m3`, { auth: admin, body: { capacity: Math.ceil(limit / 2) } });
    expect(res.status).toBe(500);
    expect(children(res.json).map(([, source]) => source)).toEqual(["m1", "m2", "m3"]);
    expect(res.json.source).toBe("capacity");
  });

  it("DELETE with one missing name deletes nothing; then all named are deleted with their aliases", async () => {
    const bad = await api("DELETE", `emails/${D}/d1,nobody,d2`, { auth: admin });
    expectError(bad, "recordNotFound", "nobody");
    expect(children(bad.json)).toEqual([["404.2", "nobody"]]);
    for (const n of ["d1", "d2"]) expectStatus(await api("GET", `emails/${D}/${n}`, { auth: admin }), 200);

    const withPostmaster = await api("DELETE", `emails/${D}/d1,postmaster`, { auth: admin });
    expectError(withPostmaster, "postmasterProtected", "postmaster");
    expectStatus(await api("GET", `emails/${D}/m3`, { auth: admin }), 200);

    expectStatus(await api("POST", `aliases/${D}/to-d1`, { auth: admin, body: { target: `d1@${D}` } }), 201);
    const before = await get(`domains/${D}`);
    const ok = await api("DELETE", `emails/${D}/d1,d2,d3`, { auth: admin });
    expectStatus(ok, 204);
    expect(ok.text).toBe("");
    for (const n of ["d1", "d2", "d3"])
      expectError(await api("GET", `emails/${D}/${n}`, { auth: admin }), "recordNotFound", n);
    expectError(await api("GET", `aliases/${D}/to-d1`, { auth: admin }), "recordNotFound", "to-d1");
    const after = await get(`domains/${D}`);
    expect(Number(after.account_limit_usage)).toBe(Number(before.account_limit_usage) - 3);
    expect(Number(after.alias_limit_usage)).toBe(Number(before.alias_limit_usage) - 1);
    expect(Number(after.capacity_limit_usage)).toBe(Number(before.capacity_limit_usage) - 3);
  });

  it("a single-name PUT answers the full record, not 204", async () => {
    const res = await api("PUT", `emails/${D}/m3`, { auth: admin, body: { keep_mail: 0 } });
    expectStatus(res, 200);
    expect(res.json).toMatchObject({ name: "m3", keep_mail: 0 });
  });
});

describe("refused to a caller who does not administer the domain", () => {
  it("names each refused name: an ordinary account's PUT of itself and another, its DELETE, another domain's postmaster", async () => {
    const m1 = { email: `m1@${D}`, password: "Secret-123" };
    const own = await api("PUT", `emails/${D}/m1,m2,m3`, { auth: m1, body: { spam_hits: 9 } });
    expectError(own, "forbidden", "m2");
    expect(children(own.json)).toEqual([
      ["403.2", "m2"],
      ["403.2", "m3"],
    ]);
    const del = await api("DELETE", `emails/${D}/m1,m2`, { auth: m1 });
    expectError(del, "forbidden", "m1");
    expect(children(del.json)).toEqual([
      ["403.2", "m1"],
      ["403.2", "m2"],
    ]);
    // Another domain's postmaster gets the same answer for a domain that exists and for one that does not (§9).
    const other = postmaster("other.example.com");
    const hosted = await api("PUT", `aliases/${D}/a1,a2`, { auth: other, body: { target: `m1@${D}` } });
    const unhosted = await api("PUT", `aliases/nowhere.example.com/a1,a2`, {
      auth: other,
      body: { target: `m1@${D}` },
    });
    expect(hosted.status).toBe(403);
    expect(hosted.json).toEqual(unhosted.json);
    expect(children(hosted.json)).toEqual([
      ["403.2", "a1"],
      ["403.2", "a2"],
    ]);
    expect(children((await api("DELETE", `mailinglists/${D}/l1,l2`, { auth: other })).json)).toEqual([
      ["403.2", "l1"],
      ["403.2", "l2"],
    ]);
    // No list of names: an empty or repeated name, or the own name twice, is refused without children.
    for (const path of ["m1,", "m2,,m2", "m1,m1"]) {
      const res = await api("PUT", `emails/${D}/${path}`, { auth: m1, body: { spam_hits: 9 } });
      expectError(res, "forbidden");
      expect(res.json.children, path).toBeUndefined();
    }
    for (const n of ["m2", "m3"]) expect((await get(`emails/${D}/${n}`)).spam_hits).not.toBe(9);
  });
});

describe("aliases", () => {
  it("PUT several: 204 and every target changed; one missing: nothing changed", async () => {
    expectStatus(await api("PUT", `aliases/${D}/a1,a2`, { auth: admin, body: { target: `m2@${D}` } }), 204);
    for (const n of ["a1", "a2"]) expect((await get(`aliases/${D}/${n}`)).target).toBe(`m2@${D}`);
    const bad = await api("PUT", `aliases/${D}/a1,zz,a2`, { auth: admin, body: { target: `m3@${D}` } });
    expectError(bad, "recordNotFound", "zz");
    expect(children(bad.json)).toEqual([["404.2", "zz"]]);
    expect(bad.json.children[0].attributes).toEqual({ resource: "alias" });
    for (const n of ["a1", "a2"]) expect((await get(`aliases/${D}/${n}`)).target).toBe(`m2@${D}`);
  });

  it("an alias cannot point at itself, even among several", async () => {
    const before = (await get(`aliases/${D}/a1`)).target;
    const res = await api("PUT", `aliases/${D}/a1,a2`, { auth: admin, body: { target: `a2@${D}` } });
    // Contract §3: the child names the failing alias; the field it was about is in its attributes.
    expectError(res, "invalidAliasTarget", "a2");
    expect(children(res.json)).toEqual([["500.368", "a2"]]);
    expect(res.json.children[0].attributes).toEqual({ field: "target", target: `a2@${D}` });
    expect((await get(`aliases/${D}/a1`)).target).toBe(before);
    // One name alone: the field is the source.
    expectError(
      await api("PUT", `aliases/${D}/a2`, { auth: admin, body: { target: `a2@${D}` } }),
      "invalidAliasTarget",
      "target",
    );
    // A target that is no address fails both names alike.
    const bad = await api("PUT", `aliases/${D}/a1,a2`, { auth: admin, body: { target: "nie-adres" } });
    expect(bad.json.source).toBe("target");
    expect(children(bad.json).map(([, source]) => source)).toEqual(["a1", "a2"]);
    expect((await get(`aliases/${D}/a1`)).target).toBe(before);
  });

  it("DELETE several is all or nothing", async () => {
    expectError(await api("DELETE", `aliases/${D}/a1,zz`, { auth: admin }), "recordNotFound", "zz");
    expectStatus(await api("GET", `aliases/${D}/a1`, { auth: admin }), 200);
    expectStatus(await api("DELETE", `aliases/${D}/a1,a2`, { auth: admin }), 204);
    expectError(await api("GET", `aliases/${D}/a2`, { auth: admin }), "recordNotFound", "a2");
  });
});

describe("mailing lists", () => {
  it("PUT several: 204 and all changed; one missing: nothing changed", async () => {
    const body = { privacy_mode: 1, accounts: [`m1@${D}`], moderators: [`m2@${D}`] };
    expectStatus(await api("PUT", `mailinglists/${D}/l1,l2`, { auth: admin, body }), 204);
    for (const n of ["l1", "l2"]) expect(await get(`mailinglists/${D}/${n}`)).toMatchObject(body);
    const bad = await api("PUT", `mailinglists/${D}/l1,nolist,l2`, { auth: admin, body: { privacy_mode: 2 } });
    expectError(bad, "recordNotFound", "nolist");
    expect(children(bad.json)).toEqual([["404.2", "nolist"]]);
    for (const n of ["l1", "l2"]) expect((await get(`mailinglists/${D}/${n}`)).privacy_mode).toBe(1);
  });

  it("a rule failing for one list (reply-to mode 2 without an address) changes none", async () => {
    expectStatus(
      await api("PUT", `mailinglists/${D}/l1`, { auth: admin, body: { replyto_email: "r@example.org" } }),
      200,
    );
    const res = await api("PUT", `mailinglists/${D}/l1,l2,l3`, { auth: admin, body: { replyto_mode: 2 } });
    // Contract §3: one child per failing list (l2 and l3 have no address; l1 has one), the field in its attributes.
    expectError(res, "invalidListOption", "l2");
    expect(children(res.json)).toEqual([
      ["500.353", "l2"],
      ["500.353", "l3"],
    ]);
    expect(res.json.children[0].attributes).toMatchObject({ field: "replyto_email" });
    expect((await get(`mailinglists/${D}/l1`)).replyto_mode).toBe(0);
    expectError(
      await api("PUT", `mailinglists/${D}/l2`, { auth: admin, body: { replyto_mode: 2 } }),
      "invalidListOption",
      "replyto_email",
    );
  });

  it("a program may make a list moderated before it names the moderators (the panel's editor refuses that)", async () => {
    expectStatus(await api("POST", `mailinglists/${D}/l4`, { auth: admin, body: { privacy_mode: 1 } }), 201);
    expect(await get(`mailinglists/${D}/l4`)).toMatchObject({ privacy_mode: 1, moderators: [] });
    expectStatus(await api("PUT", `mailinglists/${D}/l4`, { auth: admin, body: { moderators: [`m3@${D}`] } }), 200);
    expectStatus(await api("PUT", `mailinglists/${D}/l4`, { auth: admin, body: { moderators: [] } }), 200);
  });

  it("DELETE several is all or nothing", async () => {
    expectError(await api("DELETE", `mailinglists/${D}/l1,nolist`, { auth: admin }), "recordNotFound", "nolist");
    expectStatus(await api("GET", `mailinglists/${D}/l1`, { auth: admin }), 200);
    expectStatus(await api("DELETE", `mailinglists/${D}/l1,l3`, { auth: admin }), 204);
    expectError(await api("GET", `mailinglists/${D}/l3`, { auth: admin }), "recordNotFound", "l3");
  });
});

describe("the name list itself", () => {
  it.each([
    ["m1,,m2", "name"],
    [",m1", "name"],
    ["m1,", "name"],
    ["m1,m1", "name"],
  ])("%j is refused with 500.131", async (names, source) => {
    expectError(await api("PUT", `emails/${D}/${names}`, { auth: admin, body: {} }), "invalidNameList", source);
    expectError(await api("DELETE", `aliases/${D}/${names}`, { auth: admin }), "invalidNameList", source);
  });

  it("1000 names are accepted (all missing: 404.2 with 1000 children), 1001 are refused", async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `n${i}`).join(",");
    const thousand = await api("DELETE", `mailinglists/${D}/${names(1000)}`, { auth: admin });
    expectError(thousand, "recordNotFound", "n0");
    expect(thousand.json.children).toHaveLength(1000);
    expectError(await api("DELETE", `mailinglists/${D}/${names(1001)}`, { auth: admin }), "invalidNameList", "name");
  });

  it("several names on GET or POST are refused", async () => {
    expectError(await api("GET", `emails/${D}/m1,m2`, { auth: admin }), "invalidNameList", "name");
    expectError(await api("POST", `mailinglists/${D}/x1,x2`, { auth: admin, body: {} }), "invalidNameList", "name");
  });

  it("invalid names among several: one child per invalid name", async () => {
    const res = await api("PUT", `emails/${D}/m1,Bad,x..y`, { auth: admin, body: {} });
    expectError(res, "invalidAccountName", "Bad");
    expect(children(res.json)).toEqual([
      ["500.301", "Bad"],
      ["500.301", "x..y"],
    ]);
  });

  it("an invalid name beside missing and refused ones: a child for each failing name, in order; nothing changed", async () => {
    const res = await api("DELETE", `emails/${D}/m3,NOPE,ghost3,postmaster`, { auth: admin });
    expectError(res, "invalidAccountName", "NOPE");
    expect(children(res.json)).toEqual([
      ["500.301", "NOPE"],
      ["404.2", "ghost3"],
      ["403.2", "postmaster"],
    ]);
    expectStatus(await api("GET", `emails/${D}/m3`, { auth: admin }), 200);
    // One well-formed name beside the invalid one; aliases and lists the same way.
    const one = await api("PUT", `emails/${D}/ghost4,Bad`, { auth: admin, body: { description: "x" } });
    expect(children(one.json)).toEqual([
      ["404.2", "ghost4"],
      ["500.301", "Bad"],
    ]);
    const aliasRes = await api("PUT", `aliases/${D}/a3,Bad,ghost`, { auth: admin, body: { target: `m2@${D}` } });
    expect(children(aliasRes.json)).toEqual([
      ["500.301", "Bad"],
      ["404.2", "ghost"],
    ]);
    expect((await get(`aliases/${D}/a3`)).target).toBe(`m1@${D}`);
    const listRes = await api("DELETE", `mailinglists/${D}/l2,Bad,ghost`, { auth: admin });
    expect(children(listRes.json)).toEqual([
      ["500.351", "Bad"],
      ["404.2", "ghost"],
    ]);
    expectStatus(await api("GET", `mailinglists/${D}/l2`, { auth: admin }), 200);
  });
});
