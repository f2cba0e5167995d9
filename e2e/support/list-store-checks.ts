// The list service's store (lib/lists/store.ts), its one-click links (lib/lists/unsubscribe.ts) and the policy
// service's reads (lib/mailserver/policy/spam-policy.ts), checked against whichever engine the process was
// configured for (DATABASE_URL or DATABASE_PATH, set before the services are imported). Used by
// lib/lists/store.test.ts (SQLite) and db/pg/list-store.test.ts (PostgreSQL): written once, so code that only
// runs on one engine (better-sqlite3 statements through `$client`) fails the other.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";

export async function runListStoreChecks(): Promise<void> {
  const { getReadyDb } = await import("@/db/client");
  const { dialectOf } = await import("@/db/dialect");
  const { listBounces, listMembers } = await import("@/db/schema");
  const { and, asc, eq } = await import("drizzle-orm");
  const { addDomain } = await import("@/lib/server/resources/new-domain");
  const { createMailingList, getListOrThrow } = await import("@/lib/server/resources/mailing-lists");
  const { listStore, sha256 } = await import("@/lib/lists/store");
  const { readUnsubscribeToken, unsubscribeToken } = await import("@/lib/lists/unsubscribe");
  const db = await getReadyDb();
  const engine = dialectOf(db).name;
  expect(engine).toBe(process.env.DATABASE_URL ? "postgres" : "sqlite");

  const domain = await addDomain(db, "listy.test", "Lists-pass1", {});
  await createMailingList(db, domain, "ogloszenia", {
    accounts: ["a@x.test", "b@x.test"],
    moderators: ["mod2@x.test", "mod1@x.test"],
  });
  const row = await getListOrThrow(db, domain, "ogloszenia");
  const store = listStore(db);

  // Lists by address and by id, with the domain's name.
  const list = await store.listByEmail("ogloszenia@listy.test");
  expect(list).toMatchObject({
    id: row.id,
    name: "ogloszenia",
    email: "ogloszenia@listy.test",
    domain: "listy.test",
    domainId: domain.id,
  });
  expect((await store.listById(row.id))?.email).toBe("ogloszenia@listy.test");
  expect(await store.listByEmail("nie-ma@listy.test")).toBeUndefined();
  expect(await store.listById(999_999)).toBeUndefined();

  // Members: subscribe appends (once), roles, pages by address, the count, moderators in their order.
  expect(await store.subscribe(row.id, "c@x.test")).toBe(true);
  expect(await store.subscribe(row.id, "c@x.test")).toBe(false);
  const order = await db
    .select({ address: listMembers.address, position: listMembers.position })
    .from(listMembers)
    .where(and(eq(listMembers.listId, row.id), eq(listMembers.role, "subscriber")))
    .orderBy(asc(listMembers.position));
  expect(order).toEqual([
    { address: "a@x.test", position: 0 },
    { address: "b@x.test", position: 1 },
    { address: "c@x.test", position: 2 },
  ]);
  expect(await store.role(row.id, "c@x.test")).toEqual({ subscriber: true, moderator: false });
  expect(await store.role(row.id, "mod1@x.test")).toEqual({ subscriber: false, moderator: true });
  expect(await store.role(row.id, "obcy@x.test")).toEqual({ subscriber: false, moderator: false });
  expect(await store.subscribersAfter(row.id, "", 2)).toEqual(["a@x.test", "b@x.test"]);
  expect(await store.subscribersAfter(row.id, "b@x.test", 2)).toEqual(["c@x.test"]);
  expect(await store.subscribersAfter(row.id, "c@x.test", 2)).toEqual([]);
  expect(await store.subscriberCount(row.id)).toBe(3);
  expect(await store.moderators(row.id)).toEqual(["mod2@x.test", "mod1@x.test"]);

  // Bounces count up; unsubscribing clears them.
  await store.recordBounce(row.id, "b@x.test", "550 first");
  await store.recordBounce(row.id, "b@x.test", "550 second");
  const bounces = () => db.select().from(listBounces).where(eq(listBounces.listId, row.id));
  expect(await bounces()).toMatchObject([{ address: "b@x.test", count: 2, lastReason: "550 second" }]);
  expect(await store.unsubscribe(row.id, "b@x.test")).toBe(true);
  expect(await store.unsubscribe(row.id, "b@x.test")).toBe(false);
  expect(await bounces()).toEqual([]);
  expect(await store.subscriberCount(row.id)).toBe(2);

  // Confirmation tokens: peeked without being used, taken once, never after they expire.
  const tokenOf = (r: { token: string } | { refused: string }) => {
    if (!("token" in r)) throw new Error(`refused: ${r.refused}`);
    return r.token;
  };
  const token = tokenOf(await store.requestToken(row.id, "subscribe", "d@x.test", 60_000));
  const request = { listId: row.id, action: "subscribe", address: "d@x.test" };
  expect(await store.peekToken(token)).toMatchObject(request);
  expect(await store.takeToken(token)).toMatchObject(request);
  expect(await store.takeToken(token)).toBeUndefined();
  expect(await store.peekToken(token)).toBeUndefined();
  const expired = tokenOf(await store.requestToken(row.id, "unsubscribe", "a@x.test", -1000));
  expect(await store.peekToken(expired)).toBeUndefined();

  // Request limits: one pending request per list and address (an expired one does not count); a client address
  // gets `budget` requests an hour over all lists, and a refused request uses none of it.
  tokenOf(await store.requestToken(row.id, "unsubscribe", "a@x.test", 60_000));
  expect(await store.requestToken(row.id, "subscribe", "a@x.test", 60_000)).toEqual({ refused: "pending" });
  const client = { address: "192.0.2.7", budget: 2 };
  tokenOf(await store.requestToken(row.id, "subscribe", "e@x.test", 60_000, client));
  expect(await store.requestToken(row.id, "subscribe", "e@x.test", 60_000, client)).toEqual({ refused: "pending" });
  tokenOf(await store.requestToken(row.id, "subscribe", "f@x.test", 60_000, client));
  expect(await store.requestToken(row.id, "subscribe", "g@x.test", 60_000, client)).toEqual({ refused: "budget" });
  tokenOf(await store.requestToken(row.id, "subscribe", "g@x.test", 60_000, { ...client, address: "192.0.2.8" }));

  // Held posts: held, found by the moderator's token, approved once, sent (approved()) and deleted; expiry.
  const message = Buffer.from("Subject: test\r\n\r\n\u0000binary\u00ff body\r\n", "latin1");
  const heldToken = "moderator-token";
  const heldId = await store.hold(row.id, "obcy@x.test", "test", message, sha256(heldToken));
  expect(await store.heldByToken(heldToken)).toEqual({
    id: heldId,
    listId: row.id,
    sender: "obcy@x.test",
    subject: "test",
    status: "held",
  });
  expect(await store.approved()).toEqual([]);
  expect(await store.approve(heldId)).toBe(true);
  expect(await store.approve(heldId)).toBe(false);
  const approved = await store.approved();
  expect(approved.map((p) => ({ ...p, message: Buffer.from(p.message) }))).toEqual([
    { id: heldId, listId: row.id, message },
  ]);
  expect(await store.deleteHeld(heldId)).toBe(true);
  expect(await store.deleteHeld(heldId)).toBe(false);
  const queued = await store.queue(row.id, "a@x.test", "big", message);
  expect((await store.approved()).map((p) => p.id)).toEqual([queued]);
  await store.deleteHeld(queued);
  const old = await store.hold(row.id, "obcy@x.test", "old", message, sha256("old-token"));
  expect(await store.expire(Date.now() - 60_000)).toBe(0);
  expect(await store.expire(Date.now() + 60_000)).toBe(1);
  expect(await store.heldByToken("old-token")).toBeUndefined();
  expect(old).toBeGreaterThan(heldId);

  // One-click links: signed with the shared key, read back; a changed address or signature is refused.
  const link = await unsubscribeToken(db, row.id, "a@x.test");
  expect(await readUnsubscribeToken(db, link)).toEqual({ listId: row.id, address: "a@x.test" });
  const [id, address, mac] = link.split(".") as [string, string, string];
  expect(
    await readUnsubscribeToken(db, `${id}.${Buffer.from("c@x.test").toString("base64url")}.${mac}`),
  ).toBeUndefined();
  // One changed character of the signature, never the character it already had (a fixed "AA" ending was the
  // signature itself once in 1,024 keys).
  const forged = `${mac[0] === "A" ? "B" : "A"}${mac.slice(1)}`;
  expect(await readUnsubscribeToken(db, `${id}.${address}.${forged}`)).toBeUndefined();
}

export async function runSpamPolicyChecks(): Promise<void> {
  const { getReadyDb } = await import("@/db/client");
  const { addDomain } = await import("@/lib/server/resources/new-domain");
  const { createAccount, getAccountOrThrow, updateAccounts } = await import("@/lib/server/resources/accounts");
  const { updateDomain } = await import("@/lib/server/resources/domains");
  const { createAlias } = await import("@/lib/server/resources/aliases");
  const { SpamPolicy, settingsFor } = await import("@/lib/mailserver/policy/spam-policy");
  const { Greylist } = await import("@/lib/mailserver/policy/greylist");
  const db = await getReadyDb();
  const defaults = { rbl: 0, spf: 1, greylist: 1 } as const;

  let domain = await addDomain(db, "spam.test", "Spam-pass1", {});
  await createAccount(db, domain, "jan", { password: "Spam-pass1" });
  domain = await updateDomain(db, domain, {
    spam_white_list: ["Friend.test"],
    spam_black_list: ["bad@evil.test"],
    spam_rbl_enabled: 1,
  });
  const principal = {
    account: await getAccountOrThrow(db, domain, "postmaster"),
    domain: domain.name,
    isPostmaster: true,
  };
  await updateAccounts(db, principal, domain, ["jan"], { spam_black_list: ["worse.test"], spam_greylist_enabled: 0 });

  // The account's lists add to the domain's; its switches override the domain's, which override the defaults.
  expect(await settingsFor(db, "jan@spam.test", defaults)).toEqual({
    enabled: { rbl: 1, spf: 1, greylist: 0 },
    white: ["friend.test"],
    black: ["bad@evil.test", "worse.test"],
    greylistWhite: [],
    spfWhite: [],
    rblWhite: [],
  });
  // An address of the domain that is no account: the domain's own settings.
  expect(await settingsFor(db, "lista@spam.test", defaults)).toMatchObject({
    enabled: { rbl: 1, spf: 1, greylist: 1 },
    black: ["bad@evil.test"],
  });
  expect(await settingsFor(db, "x@nie-hostowana.test", defaults)).toBeUndefined();

  // The decisions that need no DNS, through the policy service itself.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "spam-policy-"));
  try {
    const policy = new SpamPolicy({
      db,
      greylist: new Greylist(path.join(dir, "greylist.db")),
      greylistDelayS: 60,
      rblZones: [],
      defaults,
    });
    const ask = (sender: string, recipient: string) =>
      policy.decide({ protocol_state: "RCPT", client_address: "192.0.2.1", helo_name: "mx.test", sender, recipient });
    expect((await ask("x@worse.test", "jan@spam.test")).rule).toBe("black-list");
    expect((await ask("bad@evil.test", "lista@spam.test")).rule).toBe("black-list");
    expect((await ask("x@friend.test", "jan@spam.test")).rule).toBe("white-list");
    expect((await ask("x@friend.test", "x@nie-hostowana.test")).rule).toBe("not-hosted");
    // An SRS address takes only delivery reports; an account or alias merely named like one takes any mail.
    await createAccount(db, domain, "srs1-archive", { password: "Spam-pass1" });
    await createAlias(db, domain, "srs0-old", { target: "jan@spam.test" });
    const first = (sender: string, recipient: string) =>
      policy.decide({ protocol_state: "RCPT", policy_context: "quota", sender, recipient });
    expect((await first("x@outside.test", "SRS0=HHH=TT=outside.test=bob@spam.test")).rule).toBe("srs");
    expect((await first("x@outside.test", "srs1-nobody@spam.test")).rule).toBe("srs");
    expect((await first("", "SRS0=HHH=TT=outside.test=bob@spam.test")).rule).not.toBe("srs");
    expect((await first("x@outside.test", "srs1-archive@spam.test")).rule).not.toBe("srs");
    expect((await first("x@outside.test", "SRS0-Old@spam.test")).rule).not.toBe("srs");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
