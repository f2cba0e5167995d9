/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON */
// Nested lists are refused (docs/lists.md, "Nested lists"): a list's subscriber or moderator, or a moderated list's
// replyto_email with replyto_catchall 1 (privacy_mode 1), may not lead to a list of this server (a list discards what
// another list sends it), on every write path: POST, PUT of one or several lists (the planned diff of `accounts`
// included), and nothing of a refused PUT is written.
import { beforeAll, describe, expect, it } from "vitest";
import { api, createAccount, expectError, expectStatus, postmaster } from "./client";

const D = "nest.example.com";
const SISTER = "nest-sister.example.com";
const OTHER = "nest-other.example.com";
const admin = postmaster(D);
const at = (name: string, domain = D) => `${name}@${domain}`;
const LIST = at("lista");

const post = (name: string, body: Record<string, unknown>) =>
  api("POST", `mailinglists/${D}/${name}`, { auth: admin, body });
const put = (names: string, body: Record<string, unknown>) =>
  api("PUT", `mailinglists/${D}/${names}`, { auth: admin, body });
interface ListRecord extends Record<string, unknown> {
  accounts: string[];
  description: string;
  replyto_email: string;
}
const get = async (name: string): Promise<ListRecord> => {
  const res = await api("GET", `mailinglists/${D}/${name}`, { auth: admin });
  expectStatus(res, 200);
  return res.json as ListRecord;
};

beforeAll(async () => {
  await createAccount(D, "jan");
  expectStatus(await post("lista", { accounts: [at("jan")] }), 201);
  // Forward-only: stores nothing, hands everything to the list (and, for the second, to another server as well).
  await createAccount(D, "przekaz", { keep_mail: 0, forwards: [LIST] });
  await createAccount(D, "przekaz2", { keep_mail: 0, forwards: ["kopia@elsewhere.example.net", LIST] });
  // Keeps a copy: a mailbox, whatever its owner forwards on.
  await createAccount(D, "zachowuje", { keep_mail: 1, forwards: [LIST] });
  for (const [name, target] of [
    ["do-listy", LIST],
    ["do-aliasu", at("do-listy")],
    ["do-przekazu", at("przekaz")],
    ["do-jana", at("jan")],
  ]) {
    expectStatus(await api("POST", `aliases/${D}/${name}`, { auth: admin, body: { target } }), 201);
  }
  expectStatus(await api("POST", `mailinglists/${SISTER}/siostra`, { auth: postmaster(SISTER), body: {} }), 201);
  expectStatus(await api("POST", `mailinglists/${OTHER}/obca`, { auth: postmaster(OTHER), body: {} }), 201);
  expectStatus(await post("druga", { accounts: [at("jan")], description: "Druga" }), 201);
  expectStatus(await post("trzecia", { accounts: [at("jan")] }), 201);
});

describe("a subscriber that leads to a list of this server is refused", () => {
  it("on POST: the list's address (in capitals, with spaces), and nothing is created", async () => {
    const res = await post("nowa", { accounts: [at("jan"), " Lista@NEST.example.com "] });
    expectError(res, "listAddressIsList", "accounts");
    expect(res.json.attributes).toEqual({ leads_to_list: [{ address: LIST, list: LIST }] });
    expectError(await api("GET", `mailinglists/${D}/nowa`, { auth: admin }), "recordNotFound");
  });

  it("on POST: the new list's own address", async () => {
    const res = await post("sama", { accounts: [at("sama")] });
    expectError(res, "listAddressIsList", "accounts");
    expect(res.json.attributes.leads_to_list).toEqual([{ address: at("sama"), list: at("sama") }]);
    expectError(await api("GET", `mailinglists/${D}/sama`, { auth: admin }), "recordNotFound");
  });

  it.each([
    ["the list's address", LIST, LIST],
    ["in capitals, with spaces", "  LISTA@Nest.Example.COM ", LIST],
    ["the list itself", at("druga"), at("druga")],
    ["an alias to a list", at("do-listy"), LIST],
    ["an alias to that alias", at("do-aliasu"), LIST],
    ["a forward-only account forwarding to a list", at("przekaz"), LIST],
    ["a forward-only account forwarding to a list and elsewhere", at("przekaz2"), LIST],
    ["an alias to a forward-only account", at("do-przekazu"), LIST],
    // Another domain of the customer is not named to this domain's administrator (docs/customers.md).
    ["a list of another domain of the customer", at("siostra", SISTER), undefined],
  ])("on PUT: %s", async (_, given, list) => {
    const res = await put("druga", { accounts: [at("jan"), given] });
    expectError(res, "listAddressIsList", "accounts");
    const address = given.trim().toLowerCase();
    expect(res.json.attributes.leads_to_list).toEqual([list ? { address, list } : { address }]);
    expect((await get("druga")).accounts).toEqual([at("jan")]);
  });

  it("names each refused address (at most 10, then the count)", async () => {
    const many = Array.from({ length: 12 }, (_, i) => at(`alias-${i}`));
    for (const a of many) {
      expectStatus(await api("POST", `aliases/${D}/${a.split("@")[0]}`, { auth: admin, body: { target: LIST } }), 201);
    }
    const res = await put("druga", { accounts: [at("do-listy"), at("jan"), ...many] });
    expectError(res, "listAddressIsList", "accounts");
    expect(res.json.attributes.count).toBe(13);
    expect(res.json.attributes.leads_to_list).toHaveLength(10);
    expect(res.json.attributes.leads_to_list[0]).toEqual({ address: at("do-listy"), list: LIST });
    expect(res.json.attributes.leads_to_list[1]).toEqual({ address: many[0], list: LIST });
  });

  it("accepts mailboxes, another customer's list and other servers' addresses, as before", async () => {
    const accounts = [
      at("jan"),
      at("zachowuje"),
      at("do-jana"),
      at("nikt"),
      at("obca", OTHER),
      "lista@elsewhere.example.net",
    ];
    const res = await put("druga", { accounts });
    expectStatus(res, 200);
    expect(res.json.accounts).toEqual(accounts);
    expectStatus(await put("druga", { accounts: [at("jan")] }), 200);
  });

  it("a refused PUT writes nothing, its other fields included", async () => {
    const before = await get("druga");
    const res = await put("druga", {
      description: "Zmieniony opis",
      privacy_mode: 2,
      accounts: ["ewa@elsewhere.example.net", at("do-listy")],
      moderators: [at("jan")],
    });
    expectError(res, "listAddressIsList", "accounts");
    expect(await get("druga")).toEqual(before);
  });

  it("a big PUT (planned in pages outside the transaction) is refused whole", async () => {
    const big = Array.from({ length: 5000 }, (_, i) => `czlonek${i}@elsewhere.example.net`);
    expectStatus(await put("trzecia", { accounts: big }), 200);
    const res = await put("trzecia", { description: "Duża", accounts: [...big.slice(1), at("do-aliasu")] });
    expectError(res, "listAddressIsList", "accounts");
    expect(res.json.attributes.leads_to_list).toEqual([{ address: at("do-aliasu"), list: LIST }]);
    const after = await get("trzecia");
    expect(after.accounts).toEqual(big);
    expect(after.description).toBe("");
  });

  it("a PUT of several lists names each list refused, and changes none", async () => {
    const res = await put("druga,trzecia", { accounts: [at("do-listy")] });
    expectError(res, "listAddressIsList");
    expect((res.json.children as { source: string }[]).map((c) => c.source)).toEqual(["druga", "trzecia"]);
    expect((await get("druga")).accounts).toEqual([at("jan")]);
  });

  it("a subscriber that came to lead to a list afterwards stays, and the list can still be saved", async () => {
    // The reverse direction is not refused (docs/lists.md): an alias created later onto a list.
    expectStatus(await put("druga", { accounts: [at("jan"), at("pozniej")] }), 200);
    expectStatus(await api("POST", `aliases/${D}/pozniej`, { auth: admin, body: { target: LIST } }), 201);
    const whole = await get("druga");
    expectStatus(await put("druga", { ...whole, description: "Druga lista" }), 200);
    // Only the subscribers a PUT adds are checked.
    expectError(await put("trzecia", { accounts: [at("pozniej")] }), "listAddressIsList", "accounts");
  });
});

describe("replyto_email with replyto_catchall 1 may not lead to a list", () => {
  it("is refused when both are set, on POST and on PUT", async () => {
    const body = { privacy_mode: 1, moderators: [at("jan")], replyto_catchall: 1, replyto_email: at("do-listy") };
    const created = await post("moderowana", body);
    expectError(created, "listAddressIsList", "replyto_email");
    expect(created.json.attributes.leads_to_list).toEqual([{ address: at("do-listy"), list: LIST }]);
    expectStatus(await post("moderowana", { privacy_mode: 1, moderators: [at("jan")] }), 201);
    expectError(await put("moderowana", body), "listAddressIsList", "replyto_email");
  });

  it("is accepted while privacy_mode is not 1 (the list does not forward to it), refused when it becomes 1", async () => {
    const body = { privacy_mode: 0, replyto_mode: 2, replyto_catchall: 1, replyto_email: LIST };
    expectStatus(await post("otwarta", body), 201);
    expectStatus(await put("otwarta", { ...body, description: "Otwarta" }), 200);
    const res = await put("otwarta", { privacy_mode: 1, moderators: [at("jan")] });
    expectError(res, "listAddressIsList", "replyto_email");
    expect(res.json.attributes.leads_to_list).toEqual([{ address: LIST, list: LIST }]);
    expect((await get("otwarta")).privacy_mode).toBe(0);
  });

  it("is accepted without the catchall, and refused when the catchall is then switched on", async () => {
    expectStatus(await put("moderowana", { replyto_mode: 2, replyto_email: LIST }), 200);
    expectError(await put("moderowana", { replyto_catchall: 1 }), "listAddressIsList", "replyto_email");
    expectStatus(await put("moderowana", { replyto_catchall: 1, replyto_email: at("jan") }), 200);
    const res = await put("moderowana", { description: "Moderowana", replyto_email: at("przekaz") });
    expectError(res, "listAddressIsList", "replyto_email");
    const after = await get("moderowana");
    expect([after.description, after.replyto_email]).toEqual(["", at("jan")]);
  });
});

describe("the domain's catchall", () => {
  it("an address only the catchall takes leads where the catchall does", async () => {
    expectStatus(
      await api("PUT", `domains/${D}`, { auth: admin, body: { catchall_type: 1, catchall_address: at("przekaz") } }),
      200,
    );
    const res = await put("druga", { accounts: [at("nikogo-takiego")] });
    expectError(res, "listAddressIsList", "accounts");
    expect(res.json.attributes.leads_to_list).toEqual([{ address: at("nikogo-takiego"), list: LIST }]);
    expectStatus(
      await api("PUT", `domains/${D}`, { auth: admin, body: { catchall_type: 1, catchall_address: at("jan") } }),
      200,
    );
    expectStatus(await put("druga", { accounts: [at("nikogo-takiego")] }), 200);
  });
});

describe("more ways to a list", () => {
  const domainPut = (domain: string, body: Record<string, unknown>) =>
    api("PUT", `domains/${domain}`, { auth: postmaster(domain), body });

  it("catchall type 2 to a forward-only account of another domain of the customer: refused, that domain unnamed", async () => {
    await createAccount(SISTER, "dalej", { keep_mail: 0, forwards: [at("siostra", SISTER)] });
    expectStatus(await domainPut(D, { catchall_type: 2, catchall_address: at("dalej", SISTER) }), 200);
    const res = await put("druga", { accounts: [at("jan"), at("ktokolwiek")] });
    expectError(res, "listAddressIsList", "accounts");
    expect(res.json.attributes.leads_to_list).toEqual([{ address: at("ktokolwiek") }]);
  });

  it("catchall type 3 to another domain of the customer: refused; two such catchalls in a loop end the walk", async () => {
    expectStatus(await domainPut(D, { catchall_type: 3, catchall_address: SISTER }), 200);
    const res = await put("druga", { accounts: [at("siostra")] });
    expectError(res, "listAddressIsList", "accounts");
    expect(res.json.attributes.leads_to_list).toEqual([{ address: at("siostra") }]);
    expectStatus(await domainPut(SISTER, { catchall_type: 3, catchall_address: D }), 200);
    expectStatus(await put("druga", { accounts: [at("jan"), at("w-kolko")] }), 200);
    expectStatus(await domainPut(SISTER, { catchall_type: 0 }), 200);
    expectStatus(await domainPut(D, { catchall_type: 0 }), 200);
    expectStatus(await put("druga", { accounts: [at("jan")] }), 200);
  });

  it("an address of another domain of the customer that leads to this list is named alone", async () => {
    expectStatus(
      await api("POST", `aliases/${SISTER}/do-naszej`, { auth: postmaster(SISTER), body: { target: LIST } }),
      201,
    );
    const res = await put("druga", { accounts: [at("do-naszej", SISTER)] });
    expectError(res, "listAddressIsList", "accounts");
    expect(res.json.attributes.leads_to_list).toEqual([{ address: at("do-naszej", SISTER) }]);
  });

  it("a list's VERP bounce address is named with the list's own address", async () => {
    const verp = "lista-bounces+x=y.test@nest.example.com";
    const res = await put("druga", { accounts: [verp] });
    expectError(res, "listAddressIsList", "accounts");
    expect(res.json.attributes.leads_to_list).toEqual([{ address: verp, list: LIST }]);
  });

  it("accepts a blocked forward-only account (it keeps everything) and a forward to another customer's list", async () => {
    await createAccount(D, "zablokowane", { keep_mail: 0, forwards: [LIST], blocked: 1 });
    await createAccount(D, "do-obcej", { keep_mail: 0, forwards: [at("obca", OTHER)] });
    const accounts = [at("jan"), at("zablokowane"), at("do-obcej")];
    expectStatus(await put("druga", { accounts }), 200);
    expect((await get("druga")).accounts).toEqual(accounts);
    expectStatus(await put("druga", { accounts: [at("jan")] }), 200);
  });

  it("a moderator that leads to a list is refused, on POST and on PUT", async () => {
    const created = await post("z-moderatorem", { moderators: [at("jan"), at("do-listy")] });
    expectError(created, "listAddressIsList", "moderators");
    expect(created.json.attributes.leads_to_list).toEqual([{ address: at("do-listy"), list: LIST }]);
    expectError(await api("GET", `mailinglists/${D}/z-moderatorem`, { auth: admin }), "recordNotFound");
    const res = await put("druga", { description: "Z moderatorem", moderators: [at("przekaz")] });
    expectError(res, "listAddressIsList", "moderators");
    expect(res.json.attributes.leads_to_list).toEqual([{ address: at("przekaz"), list: LIST }]);
    const after = await get("druga");
    expect([after.description, after.moderators]).toEqual(["Druga lista", []]);
    expectStatus(await put("druga", { moderators: [at("jan")] }), 200);
  });

  it("a PUT of several lists checks what each adds: only the list that gains the address is refused", async () => {
    // `pozniej2` is on druga already (it came to lead to a list afterwards), not on trzecia.
    expectStatus(await put("druga", { accounts: [at("jan"), at("pozniej2")] }), 200);
    expectStatus(await api("POST", `aliases/${D}/pozniej2`, { auth: admin, body: { target: LIST } }), 201);
    const res = await put("druga,trzecia", { accounts: [at("jan"), at("pozniej2")] });
    expectError(res, "listAddressIsList");
    expect((res.json.children as { source: string }[]).map((c) => c.source)).toEqual(["trzecia"]);
    expect((await get("trzecia")).accounts).not.toContain(at("pozniej2"));
    expectStatus(await put("druga,trzecia", { accounts: [at("jan"), at("zachowuje")] }), 204);
    expect((await get("druga")).accounts).toEqual([at("jan"), at("zachowuje")]);
    expect((await get("trzecia")).accounts).toEqual([at("jan"), at("zachowuje")]);
  });
});
