/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON */
// What an ordinary account may do with its own record (specification "User groups", contract §7), and the
// read-change-write-back round trip of a whole GET record.
import { beforeAll, describe, expect, it } from "vitest";
import { api, createAccount, expectError, expectStatus, postmaster, type Creds } from "./client";

const D = "own.example.com";
const admin = postmaster(D);
let jan: Creds;
const path = `emails/${D}/jan`;

/** The record minus what changes by itself on every login. */
const stable = (r: Record<string, unknown>) => ({ ...r, last_auth_date: undefined, last_auth_ip: undefined });

beforeAll(async () => {
  jan = await createAccount(D, "jan", {
    password: "Jan-pass1",
    description: "Jan Nowak",
    capacity: 100,
    expiration_date: "2099-12-31",
    forward_limit: 2,
    alias_limit: 1,
  });
  await createAccount(D, "ewa");
});

describe("restricted fields", () => {
  const changes: [string, unknown][] = [
    ["description", "Ktoś inny"],
    ["capacity", 200],
    ["expiration_date", "2100-01-01"],
    ["forward_limit", 3],
    ["alias_limit", 5],
    ["blocked", 1],
  ];
  it.each(changes)("changing %s is refused with 403.2 and nothing changes", async (field, value) => {
    const before = (await api("GET", path, { auth: jan })).json as Record<string, unknown>;
    const res = await api("PUT", path, { auth: jan, body: { [field]: value, keep_mail: 0 } });
    expectError(res, "restrictedField", field);
    const after = (await api("GET", path, { auth: jan })).json as Record<string, unknown>;
    expect(stable(after)).toEqual(stable(before));
  });

  // A value the field's rule refuses is never the stored one: the owner may not change the field at all, so it is the
  // same 403.2 (it was the field's 500.3xx, as if the owner might have set a valid value).
  it.each([
    ["description", "x".repeat(49)],
    ["capacity", 2_000_000],
    ["capacity", ""],
    ["expiration_date", "2100-13-01"],
    ["forward_limit", -1],
    ["alias_limit", 5000],
    ["blocked", 2],
  ])("changing %s to a value its rule refuses (%j) is refused with 403.2 and nothing changes", async (field, value) => {
    const before = (await api("GET", path, { auth: jan })).json as Record<string, unknown>;
    const res = await api("PUT", path, { auth: jan, body: { [field]: value, keep_mail: 0 } });
    expectError(res, "restrictedField", field);
    const after = (await api("GET", path, { auth: jan })).json as Record<string, unknown>;
    expect(stable(after)).toEqual(stable(before));
  });

  it.each([
    ["description", "Jan Nowak"],
    ["capacity", 100],
    ["capacity", "100"],
    ["expiration_date", "2099-12-31"],
    ["forward_limit", 2],
    ["alias_limit", 1],
    ["blocked", 0],
  ])("sending %s back unchanged (%j) is accepted", async (field, value) => {
    const res = await api("PUT", path, { auth: jan, body: { [field]: value } });
    expectStatus(res, 200);
  });

  it("the domain administrator may change them", async () => {
    const res = await api("PUT", path, { auth: admin, body: { description: "Jan N.", forward_limit: 2 } });
    expectStatus(res, 200);
    expect(res.json.description).toBe("Jan N.");
  });
});

describe("the account's own settings", () => {
  it("may change unrestricted fields", async () => {
    const body = { spam_rule: "tag", autoresponder_mode: 1, autoresponder_body: "Jestem na urlopie.", sms_cnt: 2 };
    const res = await api("PUT", path, { auth: jan, body });
    expectStatus(res, 200);
    expect(res.json).toMatchObject(body);
  });

  it("forwards: at most forward_limit entries (500.314), mirrored in forward_email_1..3", async () => {
    const three = ["f1@example.org", "f2@example.org", "f3@example.org"];
    expectError(await api("PUT", path, { auth: jan, body: { forwards: three } }), "tooManyForwards", "forwards");
    const res = await api("PUT", path, { auth: jan, body: { forwards: three.slice(0, 2) } });
    expectStatus(res, 200);
    expect(res.json).toMatchObject({
      forward_email_1: "f1@example.org",
      forward_email_2: "f2@example.org",
      forward_email_3: "",
    });
    // The administrator is not bound by the owner's limit.
    const byAdmin = await api("PUT", path, { auth: admin, body: { forwards: three } });
    expectStatus(byAdmin, 200);
    expect(byAdmin.json.forward_email_3).toBe("f3@example.org");
  });

  it("aliases: at most alias_limit for the owner (500.316)", async () => {
    const two = [`jn@${D}`, `nowak@${D}`];
    expectError(await api("PUT", path, { auth: jan, body: { aliases: two } }), "invalidAliases", "aliases");
    const res = await api("PUT", path, { auth: jan, body: { aliases: two.slice(0, 1) } });
    expectStatus(res, 200);
    expect(res.json.aliases).toEqual([`jn@${D}`]);
  });

  it("an address already taken is refused without saying by what (the alias and list endpoints are not the owner's)", async () => {
    expectStatus(await api("POST", `mailinglists/${D}/zajeta`, { auth: admin, body: {} }), 201);
    const res = await api("PUT", path, { auth: jan, body: { aliases: [`zajeta@${D}`] } });
    expectError(res, "nameTaken", "aliases");
    expect(res.json.attributes).toEqual({ address: `zajeta@${D}` });
    // The administrator is told.
    const byAdmin = await api("PUT", path, { auth: admin, body: { aliases: [`zajeta@${D}`] } });
    expect(byAdmin.json.attributes).toEqual({ address: `zajeta@${D}`, taken_by: "list" });
    expectStatus(await api("DELETE", `mailinglists/${D}/zajeta`, { auth: admin }), 204);
  });

  it("may not read or change another account, the domain, aliases or lists (403.2)", async () => {
    expectError(await api("GET", `emails/${D}/ewa`, { auth: jan }), "forbidden");
    expectError(await api("PUT", `emails/${D}/ewa`, { auth: jan, body: { keep_mail: 0 } }), "forbidden");
    expectError(await api("GET", `aliases/${D}`, { auth: jan }), "forbidden");
    expectError(await api("GET", `mailinglists/${D}`, { auth: jan }), "forbidden");
    expectError(await api("PUT", `domains/${D}`, { auth: jan, body: {} }), "forbidden");
  });

  it("changing the password: the new one works at once, the old one is refused", async () => {
    const res = await api("PUT", path, { auth: jan, body: { password: "Jan-pass2", password_retype: "Jan-pass2" } });
    expectStatus(res, 200);
    expectError(await api("GET", path, { auth: jan }), "badCredentials");
    jan = { ...jan, password: "Jan-pass2" };
    expectStatus(await api("GET", path, { auth: jan }), 200);
  });
});

describe("GET record sent back whole with PUT", () => {
  it("works for the owner: read-only fields ignored, empty password keeps the password", async () => {
    // The administrator gave jan more aliases than its alias_limit (1) and more forwards than forward_limit (2).
    expectStatus(await api("PUT", path, { auth: admin, body: { aliases: [`jn@${D}`, `nowak@${D}`] } }), 200);
    const record = (await api("GET", path, { auth: jan })).json as Record<string, unknown>;
    expect(record.password).toBe("");
    const res = await api("PUT", path, { auth: jan, body: { ...record, spam_hits: 9 } });
    expectStatus(res, 200);
    expect(stable(res.json as Record<string, unknown>)).toEqual(stable({ ...record, spam_hits: 9 }));
    expectStatus(await api("GET", path, { auth: jan }), 200);
    // Shrinking is allowed; growing past the limit is not.
    expectStatus(
      await api("PUT", path, { auth: jan, body: { aliases: [`jn@${D}`], forwards: ["f1@example.org"] } }),
      200,
    );
    expectError(
      await api("PUT", path, { auth: jan, body: { aliases: [`jn@${D}`, `jan.n@${D}`] } }),
      "invalidAliases",
      "aliases",
    );
  });

  it("works for the administrator, including changing a restricted field", async () => {
    const record = (await api("GET", path, { auth: admin })).json as Record<string, unknown>;
    const res = await api("PUT", path, { auth: admin, body: { ...record, description: "Jan Nowak, IT" } });
    expectStatus(res, 200);
    expect(stable(res.json as Record<string, unknown>)).toEqual(stable({ ...record, description: "Jan Nowak, IT" }));
  });

  it("the aliases and forwards lists round-trip unchanged", async () => {
    const record = (await api("GET", path, { auth: admin })).json as Record<string, unknown>;
    const res = await api("PUT", path, { auth: admin, body: record });
    expectStatus(res, 200);
    expect(res.json.aliases).toEqual(record.aliases);
    expect(res.json.forwards).toEqual(record.forwards);
  });
});
