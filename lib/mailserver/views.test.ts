// The SQL side of the mail-server integration, without the daemons: what the views answer and what the triggers
// keep current, for changes made through the services.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { addDomain } from "@/lib/server/resources/new-domain";
import {
  accountRecord,
  createAccount,
  deleteAccounts,
  getAccountOrThrow,
  updateAccounts,
} from "@/lib/server/resources/accounts";
import { mailHomeOf, pendingRemovals, removeMailboxes } from "./removed-mailboxes";
import { createAlias } from "@/lib/server/resources/aliases";
import type { Principal } from "@/lib/server/caller/auth";
import { getDomainOrThrow, removeDomain, updateDomain } from "@/lib/server/resources/domains";
import { DEFAULT_AUTORESPONDER_BODY, REPLY_LINE_BYTES, VACATION_ADDRESSES_MAX } from "@/db/sieve-scripts-view";
import { MAX_FORWARDS } from "@/lib/schemas/account";
import { SPAM_LIST_MAX_CHARACTERS } from "@/lib/schemas/common";
import { largestSpamList } from "./testing/largest-spam-list";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

const D = "views.test";
let dir: string;
let db: Db;
let admin: Principal;

const all = <T>(query: string, ...params: unknown[]) => db.$client.prepare(query).all(...params) as T[];
const script = (email: string) =>
  all<{ id: string; script: string }>(
    "SELECT id, script FROM mail_sieve_scripts WHERE username = ? AND name = 'autoresponder'",
    email,
  )[0];
const change = async (name: string, body: Record<string, unknown>) =>
  updateAccounts(db, admin, await getDomainOrThrow(db, D), [name], body);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-views-"));
  db = openDatabase(path.join(dir, "mail.db"));
  const domain = await addDomain(db, D, "Admin-pass1", {});
  admin = { account: await getAccountOrThrow(db, domain, "postmaster"), domain: D, isPostmaster: true };
  await createAccount(db, domain, "ola", { password: "Ola-pass1" });
});

afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("mail_sieve_scripts", () => {
  it("has no script while the autoresponder is off", () => {
    expect(script(`ola@${D}`)).toBeUndefined();
  });

  it("builds a vacation script limited to the dates and to verified senders, with the body quoted for Sieve", async () => {
    await change("ola", {
      autoresponder_mode: 1,
      autoresponder_start_date: "2026-07-01",
      autoresponder_end_date: "2026-07-14",
      autoresponder_body: 'Urlop \\ "do 14.07".',
    });
    const s = script(`ola@${D}`)!;
    expect(s.script).toContain('require ["vacation", "date", "relational"];');
    // Only mail whose envelope sender Rspamd verified (a login or an SPF pass) is answered.
    expect(s.script).toContain(
      'if allof(header :is "X-Mailadmin-Sender-Verified" "1", currentdate :value "ge" "date" "2026-07-01", currentdate :value "le" "date" "2026-07-14") {',
    );
    // The handle names the period and the text: a new text answers again whom the old one answered.
    expect(s.script).toContain(
      ':days 14 :handle "autoresponder 2026-07-01 2026-07-14 Urlop \\\\ \\"do 14.07\\"." "Urlop \\\\ \\"do 14.07\\".";',
    );
  });

  it("answers with the default text while the account has none of its own", async () => {
    for (const blank of ["  ", "\n\t\r\n"]) {
      await change("ola", { autoresponder_body: blank });
      expect(script(`ola@${D}`)!.script).toContain(` "${DEFAULT_AUTORESPONDER_BODY}";\n}`);
    }
    await change("ola", { autoresponder_body: 'Urlop \\ "do 14.07".' });
  });

  it(`breaks a line of the text over ${REPLY_LINE_BYTES} bytes after a word, a longer word inside it; other lines stay as written`, async () => {
    const paragraph = Array.from({ length: 120 }, (_, i) => `Zażółć gęślą jaźń ${i}.`).join(" ");
    const word = "ż".repeat(600);
    const short = "Krótka linia  z dwiema spacjami, bez zmian.";
    const tabbed = "słowo\t".repeat(200).trim();
    await change("ola", {
      autoresponder_body: [paragraph, "", short, word, "ą ".repeat(700).trim(), tabbed].join("\n"),
    });
    const vacation = script(`ola@${D}`)!.script;
    // The reply: the script's last quoted string (the text holds no quote).
    const reply = vacation.slice(
      vacation.lastIndexOf('"', vacation.lastIndexOf('";') - 1) + 1,
      vacation.lastIndexOf('";'),
    );
    const lines = reply.split("\n");
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(REPLY_LINE_BYTES);
    expect(lines).toContain("");
    expect(lines).toContain(short);
    // Only line breaks were added: after a space, or inside the word with no space to break at.
    expect(reply.replace(/\n/g, "")).toBe([paragraph, short, word, "ą ".repeat(700).trim(), tabbed].join(""));
    // Words apart by tabs are broken after a tab, not inside a word.
    for (const line of lines.filter((line) => line.includes("\t"))) expect(line).toMatch(/^słowo(\tsłowo)*\t?$/);
    // The paragraph: broken after words (each of its lines but the last ends with a space).
    const broken = lines.slice(0, lines.indexOf(""));
    expect(broken.length).toBeGreaterThan(3);
    expect(broken.join("")).toBe(paragraph);
    for (const line of broken.slice(0, -1)) expect(line).toMatch(/\S $/);
    await change("ola", { autoresponder_body: 'Urlop \\ "do 14.07".' });
  });

  it("gets a new data ID on every change, aliases included, and none for unrelated fields", async () => {
    const first = script(`ola@${D}`)!.id;
    await change("ola", { description: "bez wpływu" });
    expect(script(`ola@${D}`)!.id).toBe(first);
    await change("ola", { autoresponder_body: "Inna treść" });
    const second = script(`ola@${D}`)!.id;
    expect(second).not.toBe(first);
    await createAlias(db, await getDomainOrThrow(db, D), "aleksandra", { target: `ola@${D}` });
    expect(script(`ola@${D}`)!.id).not.toBe(second);
    expect(script(`ola@${D}`)!.script).toContain(`:addresses ["aleksandra@${D}"]`);
  });

  it("answers the account's name in a domain whose catchall of type 3 leads here; a new ID when that changes", async () => {
    const here = await getDomainOrThrow(db, D);
    const other = await addDomain(db, "inny.test", "Admin-pass1", {}, here.customerId ?? undefined);
    const before = script(`ola@${D}`)!.id;
    await updateDomain(db, other, { catchall_type: 3, catchall_address: D });
    const pointed = script(`ola@${D}`)!;
    expect(pointed.id).not.toBe(before);
    expect(pointed.script).toMatch(
      /:addresses \["(aleksandra@views\.test", "ola@inny\.test|ola@inny\.test", "aleksandra@views\.test)"\]/,
    );
    await removeDomain(db, await getDomainOrThrow(db, "inny.test"));
    expect(script(`ola@${D}`)!.id).not.toBe(pointed.id);
    expect(script(`ola@${D}`)!.script).toContain(`:addresses ["aleksandra@${D}"]`);
  });

  it("is permanent without dates and suspended while the account is blocked", async () => {
    await change("ola", { autoresponder_start_date: "", autoresponder_end_date: "" });
    expect(script(`ola@${D}`)!.script).toMatch(/^if header :is "X-Mailadmin-Sender-Verified" "1" \{$/m);
    expect(script(`ola@${D}`)!.script).toContain(":days 7 ");
    await change("ola", { blocked: 1 });
    expect(script(`ola@${D}`)).toBeUndefined();
  });
});

describe("an account's forwards", () => {
  const spamScript = (email: string) =>
    all<{ script: string }>("SELECT script FROM mail_sieve_scripts WHERE username = ? AND name = 'spam'", email)[0]!
      .script;
  const destinations = (email: string) =>
    all<{ destination: string }>("SELECT destination FROM mail_alias_map WHERE address = ?", email)
      .map((r) => r.destination)
      .sort();

  it('a forward holding "${" is redirected to itself, not to what the variables extension would make of it', async () => {
    await createAccount(db, await getDomainOrThrow(db, D), "dolar", {
      password: "Dolar-pass1",
      keep_mail: 0,
      forwards: ["a${x}b@outside.test", "zwykly@outside.test"],
      spam_rule: "tag",
    });
    // The filter on: its script requires variables.
    expect(spamScript(`dolar@${D}`)).toContain(
      '    set "dollar" "$";\n    redirect "a${dollar}{x}b@outside.test";\n    redirect "zwykly@outside.test";\n',
    );
    // The filter off: no variables, the address as it is.
    await change("dolar", { spam_enabled: 0 });
    expect(spamScript(`dolar@${D}`)).toContain('    redirect "a${x}b@outside.test";\n');
    // Forward-only: spam it does not send outside is kept (an explicit keep, which its autoresponder leaves).
    expect(spamScript(`dolar@${D}`)).toContain(' (9 or more)";\n    keep;\n  } else {\n');
  });

  // The filter off, with forwards: what Sieve's score test and editheader need.
  const off =
    "# spam filter off (spam_enabled 0 for the account or its domain): forwarded as it came\n" +
    'require ["copy", "relational", "comparator-i;ascii-numeric", "editheader"];\n';
  // A forward to another server under the score from which spam is not forwarded outside (FORWARDED_SPAM_HITS).
  const held =
    '  if header :value "ge" :comparator "i;ascii-numeric" "X-Mailadmin-Spam-Centiscore" "900" {\n' +
    '    addheader "X-Mailadmin-Forward-Withheld" "not forwarded to another server: it scores as spam (9 or more)";\n' +
    '  } else {\n    redirect :copy "daleko@outside.test";\n  }\n';

  it("are its spam script's redirects after the filter, with :copy when it keeps a copy; Postfix maps it to itself alone", async () => {
    const domain = await getDomainOrThrow(db, D);
    await createAccount(db, domain, "kopia", {
      password: "Kopia-pass1",
      keep_mail: 1,
      forwards: ["daleko@outside.test", `kopia-alias@${D}`],
      spam_rule: "move",
      spam_hits: 5,
    });
    await createAlias(db, domain, "kopia-alias", { target: `kopia@${D}` });
    expect(destinations(`kopia@${D}`)).toEqual([`kopia@${D}`]);
    // move: spam filed, the rest forwarded (a forward to its own alias left out), to another server only under 9.
    expect(spamScript(`kopia@${D}`)).toContain(`  fileinto "Spam";\n} else {\n${held}}\n`);
    await change("kopia", { spam_rule: "tag" });
    expect(spamScript(`kopia@${D}`)).toMatch(/\[SPAM\] \$\{subject\}";\n\}\n {2}if header /);
    expect(spamScript(`kopia@${D}`).endsWith(`";\n}\n${held}`)).toBe(true);
    await change("kopia", { spam_enabled: 0 });
    expect(spamScript(`kopia@${D}`)).toBe(`${off}${held}`);
    // A forward to an address of this server is redirected whatever the score: that account's settings apply.
    await change("kopia", { forwards: [`ola@${D}`, "daleko@outside.test"] });
    expect(spamScript(`kopia@${D}`)).toBe(`${off}  redirect :copy "ola@${D}";\n${held}`);
    // Back to the outside forward (the API now refuses a new forward to the account's own alias: 500.313).
    await change("kopia", { forwards: ["daleko@outside.test"] });
    // The black list, the white list beating it: what a hosted forward brings from a listed sender is dropped, with
    // the filter off as well (its own require then).
    await change("kopia", {
      spam_black_list: ["pest@outside.test", "outside.test"],
      spam_white_list: ["ok@outside.test"],
    });
    const rule =
      'if allof(not envelope :all :is "from" ["ok@outside.test"], anyof(envelope :all :is "from" ["pest@outside.test"], ' +
      'envelope :domain :is "from" ["outside.test"])) {\n  discard;\n  stop;\n}\n';
    expect(spamScript(`kopia@${D}`)).toBe(`${off}require "envelope";\n${rule}${held}`);
    await change("kopia", { spam_enabled: 1, spam_black_list: ["pest@outside.test"], spam_white_list: [] });
    expect(spamScript(`kopia@${D}`)).toMatch(
      /"copy"\];\nif allof\(anyof\(envelope :all :is "from" \["pest@outside\.test"\], false\)\) \{\n {2}discard;\n {2}stop;\n\}\nif allof\(header /,
    );
    // An entry Sieve's variables would expand is left to the RCPT check alone.
    await change("kopia", { spam_black_list: ["p${x}est@outside.test"] });
    expect(spamScript(`kopia@${D}`)).not.toContain("discard");
    await change("kopia", { spam_black_list: [] });
    expect(spamScript(`kopia@${D}`)).not.toContain("discard");
    // The domain's black list alone, on an account without forwards whose filter is off: its own require, then the rule.
    await updateDomain(db, await getDomainOrThrow(db, D), { spam_black_list: ["junk.test"] });
    await change("kopia", { forwards: [], spam_enabled: 0 });
    expect(spamScript(`kopia@${D}`)).toBe(
      '# spam filter off (spam_enabled 0 for the account or its domain)\nrequire "envelope";\n' +
        'if allof(anyof(envelope :domain :is "from" ["junk.test"])) {\n  discard;\n  stop;\n}\n',
    );
    await updateDomain(db, await getDomainOrThrow(db, D), { spam_black_list: [] });
    await change("kopia", { forwards: ["daleko@outside.test"], spam_enabled: 1 });
    // Blocked: its forwards suspended, everything kept.
    await change("kopia", { blocked: 1, spam_enabled: 1 });
    expect(spamScript(`kopia@${D}`)).not.toContain("redirect");
    expect(destinations(`kopia@${D}`)).toEqual([`kopia@${D}`]);
  });
});

describe("mail_quota", () => {
  it("copies what Dovecot's dict upserts into the usage the API reports", async () => {
    const upsert = db.$client.prepare(
      "INSERT INTO mail_quota (username, bytes) VALUES (?, ?) ON CONFLICT (username) DO UPDATE SET bytes = excluded.bytes",
    );
    upsert.run(`ola@${D}`, 256 * 1048576);
    upsert.run(`ola@${D}`, 512 * 1048576);
    const domain = await getDomainOrThrow(db, D);
    expect((await accountRecord(db, domain, await getAccountOrThrow(db, domain, "ola"))).usage).toBe(50);
  });
});

describe("mail_passdb", () => {
  it("serves the SHA512-CRYPT hash of accounts that may log in", async () => {
    await change("ola", { blocked: 0 });
    const [row] = all<{ password: string }>("SELECT password FROM mail_passdb WHERE user = ?", `ola@${D}`);
    expect(row?.password).toMatch(/^\{SHA512-CRYPT\}\$6\$/);
    await change("ola", { expiration_date: "2020-01-01" });
    expect(all("SELECT 1 FROM mail_passdb WHERE user = ?", `ola@${D}`)).toHaveLength(0);
  });

  it("leaves out an address whose deleted mailbox has not been removed yet, also once an account has it again", async () => {
    const domain = await getDomainOrThrow(db, D);
    await createAccount(db, domain, "znowu", { password: "Znowu-pass1" });
    expect(all("SELECT 1 FROM mail_passdb WHERE user = ?", `znowu@${D}`)).toHaveLength(1);
    await deleteAccounts(db, domain, ["znowu"]);
    expect(all("SELECT email, host FROM removed_mailboxes WHERE email = ?", `znowu@${D}`)).toEqual([
      { email: `znowu@${D}`, host: null },
    ]);
    await createAccount(db, domain, "znowu", { password: "Inne-haslo2" });
    expect(all("SELECT 1 FROM mail_passdb WHERE user = ?", `znowu@${D}`)).toHaveLength(0);
    all("DELETE FROM removed_mailboxes WHERE email = ? RETURNING id", `znowu@${D}`);
    expect(all("SELECT 1 FROM mail_passdb WHERE user = ?", `znowu@${D}`)).toHaveLength(1);
  });

  it("a removed domain records each of its mailboxes with the host it lived on", async () => {
    await addDomain(db, "usuwana.test", "Admin-pass1", {});
    const domain = await getDomainOrThrow(db, "usuwana.test");
    await createAccount(db, domain, "ktos", { password: "Ktos-pass1" });
    db.$client.prepare("INSERT INTO mail_hosts (name, address) VALUES ('imap2', '10.0.0.2')").run();
    db.$client.prepare("UPDATE domains SET mail_host = 'imap2' WHERE name = 'usuwana.test'").run();
    await removeDomain(db, domain);
    expect(all("SELECT email, host FROM removed_mailboxes WHERE email LIKE '%@usuwana.test' ORDER BY email")).toEqual([
      { email: "ktos@usuwana.test", host: "imap2" },
      { email: "postmaster@usuwana.test", host: "imap2" },
    ]);
  });
});

describe("a deleted mailbox's folder", () => {
  it("is the mail_home template filled in for the address, never a path outside the template's root", () => {
    expect(mailHomeOf("/var/vmail/%d/%n", "jan@example.org")).toBe("/var/vmail/example.org/jan");
    expect(mailHomeOf("/var/vmail/%u", "jan@example.org")).toBe("/var/vmail/jan@example.org");
    expect(mailHomeOf("/var/vmail/%d/%n", "..@example.org")).toBeUndefined();
    expect(mailHomeOf("/var/vmail/%d/%n", "jan@..")).toBeUndefined();
    expect(mailHomeOf("/var/vmail/%d/%n", "a/../../etc@example.org")).toBeUndefined();
    expect(mailHomeOf("/var/vmail/%{userdb:home}", "jan@example.org")).toBeUndefined();
    expect(mailHomeOf("vmail/%d/%n", "jan@example.org")).toBeUndefined();
  });
});

describe("removing deleted mailboxes", () => {
  it("goes in passes of a bounded size, saying when more wait; a pass whose removals all fail does not ask for another at once", async () => {
    const root = path.join(dir, "vmail");
    const names = ["a", "b", "c", "..", "d"];
    for (const n of names.filter((n) => n !== "c" && n !== ".."))
      fs.mkdirSync(path.join(root, "p.test", n, "Maildir", "cur"), { recursive: true });
    const insert = (email: string) =>
      all("INSERT INTO removed_mailboxes (email, host, removed_at) VALUES (?, NULL, 0) RETURNING id", email);
    all("DELETE FROM removed_mailboxes WHERE host IS NULL RETURNING id");
    for (const n of names) insert(`${n}@p.test`);
    // imap1's passes: the other host's records (imap2, from the domain removal above) are not its own.
    const pass = async () => {
      const r = await removeMailboxes(db, `${root}/%d/%n`, "imap1", 2);
      return { removed: r.removed.map((x) => x.email).sort(), failed: r.failed.length, more: r.more };
    };
    expect(await pass()).toEqual({ removed: ["a@p.test", "b@p.test"], failed: 0, more: true });
    expect(await pass()).toEqual({ removed: ["c@p.test"], failed: 1, more: true });
    expect(await pass()).toEqual({ removed: ["d@p.test"], failed: 1, more: true });
    expect(await pass()).toEqual({ removed: [], failed: 1, more: false });
    expect(fs.readdirSync(path.join(root, "p.test"))).toEqual([]);
    insert("..@q.test");
    expect(await pass()).toEqual({ removed: [], failed: 2, more: false });
    expect(all("SELECT email FROM removed_mailboxes WHERE host IS NULL ORDER BY id")).toEqual([
      { email: "..@p.test" },
      { email: "..@q.test" },
    ]);
    all("DELETE FROM removed_mailboxes WHERE host IS NULL RETURNING id");
  });

  it("removes only the records read before the pass's session check when given them, not one recorded since", async () => {
    const root = path.join(dir, "vmail-since");
    for (const n of ["przed", "po"]) fs.mkdirSync(path.join(root, "s.test", n, "Maildir", "cur"), { recursive: true });
    all("INSERT INTO removed_mailboxes (email, host, removed_at) VALUES ('przed@s.test', NULL, 0) RETURNING id");
    const before = (await pendingRemovals(db, undefined)).filter((r) => r.email.endsWith("@s.test"));
    // Deleted while the sessions were being checked: its session was not ended in this pass.
    all("INSERT INTO removed_mailboxes (email, host, removed_at) VALUES ('po@s.test', NULL, 0) RETURNING id");
    const r = await removeMailboxes(db, `${root}/%d/%n`, undefined, 500, before);
    expect(r.removed.map((x) => x.email)).toEqual(["przed@s.test"]);
    expect(fs.existsSync(path.join(root, "s.test", "po"))).toBe(true);
    expect((await removeMailboxes(db, `${root}/%d/%n`, undefined)).removed.map((x) => x.email)).toContain("po@s.test");
  });

  it("removes an address recorded for several hosts once, on a host that names none (a single mail host)", async () => {
    const root = path.join(dir, "vmail-one");
    fs.mkdirSync(path.join(root, "r.test", "ewa", "Maildir", "cur"), { recursive: true });
    for (const host of ["imap1", "imap2", null])
      all("INSERT INTO removed_mailboxes (email, host, removed_at) VALUES ('ewa@r.test', ?, 0) RETURNING id", host);
    const r = await removeMailboxes(db, `${root}/%d/%n`, undefined);
    expect(r.removed.filter((x) => x.email === "ewa@r.test")).toEqual([
      { email: "ewa@r.test", home: path.join(root, "r.test", "ewa") },
    ]);
    expect(all("SELECT id FROM removed_mailboxes WHERE email = 'ewa@r.test'")).toEqual([]);
    expect(fs.existsSync(path.join(root, "r.test", "ewa"))).toBe(false);
  });
});

describe("the largest spam script", () => {
  it("stays within the 128 KB Dovecot's dict server sends whole; a list over SPAM_LIST_MAX_CHARACTERS is refused", async () => {
    const domain = await addDomain(db, "najwieksze.test", "Admin-pass1", {}, undefined, { mailHost: null });
    await updateDomain(db, domain, { spam_white_list: largestSpamList("dw"), spam_black_list: largestSpamList("db") });
    const longest = `${"f".padEnd(64, "x")}@${"o".repeat(63)}.${"o".repeat(63)}.${"o".repeat(47)}.outside.test`;
    await createAccount(db, await getDomainOrThrow(db, "najwieksze.test"), "pelne", {
      password: "Pelne-pass1",
      keep_mail: 0,
      forward_limit: MAX_FORWARDS,
      forwards: Array.from({ length: MAX_FORWARDS }, (_, i) => `${i}${longest.slice(String(i).length)}`),
      sms_phone_number_1: "600100200",
      // With the autoresponder on, each redirect keeps a copy for it (":copy "): the longest script.
      autoresponder_mode: 1,
      spam_white_list: largestSpamList("aw"),
      spam_black_list: largestSpamList("ab"),
    });
    const [{ script }] = all<{ script: string }>(
      "SELECT script FROM mail_sieve_scripts WHERE username = 'pelne@najwieksze.test' AND name = 'spam'",
    ) as [{ script: string }];
    expect(script.length).toBeGreaterThan(120_000);
    expect(script.length).toBeLessThanOrEqual(128 * 1024);
    const tooLong = [...largestSpamList("ab").slice(0, 999), "a-longer-entry.pl"];
    expect(tooLong.join("").length).toBeGreaterThan(SPAM_LIST_MAX_CHARACTERS);
    await expect(change("ola", { spam_black_list: tooLong })).rejects.toMatchObject({ key: "invalidSpamListEntry" });
    await expect(change("ola", { spam_black_list: tooLong.slice(0, 999) })).resolves.toBeDefined();
  });
});

describe("the autoresponder of an account with thousands of aliases", () => {
  it(`lists at most ${VACATION_ADDRESSES_MAX} addresses, so its script stays within the 128 KB the dict server sends whole`, async () => {
    // A domain name of 200 characters and alias names of 32: each address costs the script 237 characters.
    const long = `${"d".repeat(63)}.${"o".repeat(63)}.${"m".repeat(63)}.${"a".repeat(5)}.pl`;
    const domain = await addDomain(db, long, "Admin-pass1", { aliasLimit: 5000 }, undefined, { mailHost: null });
    await createAccount(db, domain, "urlop", {
      password: "Urlop-pass1",
      autoresponder_mode: 1,
      // The most bytes a text may have: 10,000 characters of three bytes each (the script holds it twice).
      autoresponder_body: "€".repeat(10000),
    });
    for (let i = 0; i < 1200; i++)
      await createAlias(db, await getDomainOrThrow(db, long), `${i}-`.padEnd(32, "a"), { target: `urlop@${long}` });
    const vacation = script(`urlop@${long}`)!.script;
    const listed = vacation.match(/ :addresses \[(.*?)\]/)![1]!.split(", ");
    // The first ones in order: the script is the same after every reading.
    const all = Array.from({ length: 1200 }, (_, i) => `"${`${i}-`.padEnd(32, "a")}@${long}"`);
    expect(listed).toEqual(all.sort().slice(0, VACATION_ADDRESSES_MAX));
    expect(Buffer.byteLength(vacation)).toBeLessThan(128 * 1024);
  });
});
