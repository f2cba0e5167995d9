// Anti-spam cases at SMTP: greylisting, addresses reached through aliases and catchalls, SPF, RBL, changes that
// apply at once, and the spam_*_default fields.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { expect, it } from "vitest";
import { accountRecord, deleteAccounts, getAccountOrThrow } from "@/lib/server/resources/accounts";
import { createAlias } from "@/lib/server/resources/aliases";
import { toDomainRecord } from "@/lib/server/resources/domains";
import { spamDefaults } from "@/lib/server/spam-defaults";
import { runCommand } from "@/lib/cli/commands";
import { domains } from "@/db/schema";
import { eq } from "drizzle-orm";
import { writeDnsRecords } from "../../sandbox/dns-server";
import { smtpTry } from "../mail-daemons";
import { SANDBOX_RBL_ZONE } from "../../sandbox/sandbox";
import {
  S,
  G,
  OFF,
  PW,
  l,
  db,
  domain,
  setAccount,
  setDomain,
  send,
  settle,
  landed,
  codes,
  refusedBy,
  moveClock,
  addAccount,
  message,
} from "./harness";

/**
 * A message body that runs `change` when the client is first asked for the text, after 354: a change that comes
 * between a message's RCPTs and its end of DATA.
 */
function bodyAfter(change: () => Promise<unknown>, text: string): Readable {
  let changing: Promise<unknown> | undefined;
  return new Readable({
    read() {
      changing ??= change().then(
        () => {
          this.push(text.replace(/\r?\n/g, "\r\n"));
          this.push(null);
        },
        (err: Error) => this.destroy(err),
      );
    },
  });
}

export function policyCases() {
  it("greylisting: on defers the first attempt with 4xx and accepts the retry after greylist_delay_s; off, inherited, white-listed", async () => {
    const sender = `grey-${Date.now()}@outside.test`;
    const first = await send(sender, [`greyon@${G}`, `greyoff@${G}`, `inherits@${G}`, `greywhite@${G}`], "grey-1");
    // greyoff (0) and greywhite (sender's domain on its greylist white list) take it at once.
    expect(first.accepted.sort()).toEqual([`greyoff@${G}`, `greywhite@${G}`]);
    expect(codes(first)).toEqual({ [`greyon@${G}`]: 450, [`inherits@${G}`]: 450 });
    // Too early: still deferred.
    const early = await send(sender, [`greyon@${G}`, `inherits@${G}`], "grey-2");
    expect(early.accepted).toEqual([]);
    expect(codes(early)).toEqual({ [`greyon@${G}`]: 450, [`inherits@${G}`]: 450 });
    // The wait passes on the policy service's clock, not in real time.
    moveClock(l.sandbox.ctx.greylistDelayS * 1000 + 300);
    const retry = await send(sender, [`greyon@${G}`, `inherits@${G}`], "grey-3");
    expect(retry.accepted.sort()).toEqual([`greyon@${G}`, `inherits@${G}`]);
    await settle();
    expect(landed(`greyon@${G}`, "grey-3").where).toBe("inbox");
    // In a domain with greylisting off (S), an account's own 1 still greylists; -1 there means off.
    const other = await send(sender, [`greyexplicit@${S}`, `plain@${S}`], "grey-domain-off");
    expect(other.accepted).toEqual([`plain@${S}`]);
    expect(codes(other)).toEqual({ [`greyexplicit@${S}`]: 450 });
    // An address that does not exist is refused at once (550), not greylisted first (nor kept in the greylist).
    const unknown = await send(`grey-unknown-${Date.now()}@outside.test`, [`nobody-here@${G}`], "grey-unknown");
    expect(codes(unknown)).toEqual({ [`nobody-here@${G}`]: 550 });
  }, 30_000);

  it("an alias or catchall that leads to an address gone from a domain hosted here is refused at RCPT (550), not bounced later", async () => {
    // Contract §9: another domain deleting the account leaves this domain's alias to it, and mail to it is refused
    // like mail to any unknown address. Greylisting is off in S, so what is accepted is accepted at once.
    await addAccount(G, "cel");
    await createAlias(db, await domain(S), "martwy", { target: `cel@${G}` });
    await createAlias(db, await domain(S), "posredni", { target: `martwy@${S}` });
    await createAlias(db, await domain(S), "daleki", { target: "ktos@outside.test" });
    const sender = `dest-${Date.now()}@outside.test`;
    // Nothing is delivered to cel first: a copy still in the queue when the account goes is deferred, and the queue
    // that later tests wait to empty would not empty.
    await deleteAccounts(db, await domain(G), ["cel"]);
    const dead = await send(sender, [`martwy@${S}`, `posredni@${S}`, `daleki@${S}`, `plain@${S}`], "dest-dead");
    expect(codes(dead)).toEqual({ [`martwy@${S}`]: 550, [`posredni@${S}`]: 550 });
    expect(dead.accepted.sort()).toEqual([`daleki@${S}`, `plain@${S}`]);
    // A signed-in sender too: the submission port refuses while it is connected instead of bouncing to it later.
    await addAccount(S, "piszacy");
    const submit = (to: string[], subject: string) =>
      smtpTry(l.ports.submission, `piszacy@${S}`, to, message(`piszacy@${S}`, to, subject), {
        user: `piszacy@${S}`,
        pass: PW,
      });
    const signedIn = await submit([`martwy@${S}`, `posredni@${S}`, `plain@${S}`], "dest-dead-submission");
    expect(codes(signedIn)).toEqual({ [`martwy@${S}`]: 550, [`posredni@${S}`]: 550 });
    expect(signedIn.accepted).toEqual([`plain@${S}`]);
    await settle();
    // A catchall to another domain's same-named account that does not exist there: refused.
    // (Set in the table: the API allows types 2 and 3 only between domains of one customer, which these are not.)
    const catchall = (type: number, address: string) =>
      db.update(domains).set({ catchallType: type, catchallAddress: address }).where(eq(domains.name, S));
    await catchall(3, OFF);
    try {
      const viaCatchall = await send(sender, [`nieznany@${S}`], "dest-catchall");
      expect(codes(viaCatchall)).toEqual({ [`nieznany@${S}`]: 550 });
      const submitted = await submit([`nieznany@${S}`], "dest-catchall-submission");
      expect(codes(submitted)).toEqual({ [`nieznany@${S}`]: 550 });
    } finally {
      await catchall(0, "");
    }
  });

  it("a signed-in user sends as its own address and its alias only: another account's, another domain's or an outside address is refused (553)", async () => {
    // Before, any MAIL FROM passed, and Rspamd signed the message with the From domain's DKIM key.
    await addAccount(S, "nadawca");
    await createAlias(db, await domain(S), "biuro-nadawcy", { target: `nadawca@${S}` });
    const sendAs = (from: string, subject: string) =>
      smtpTry(l.ports.submission, from, [`plain@${S}`], message(from, [`plain@${S}`], subject), {
        user: `nadawca@${S}`,
        pass: PW,
      });
    for (const own of [`nadawca@${S}`, `biuro-nadawcy@${S}`])
      expect((await sendAs(own, `as-own-${own}`)).accepted).toEqual([`plain@${S}`]);
    // The header From too, at the end of DATA: its own address or its alias's (before, nobody checked it).
    const headerFrom = (from: string, subject: string) =>
      smtpTry(l.ports.submission, `nadawca@${S}`, [`plain@${S}`], message(from, [`plain@${S}`], subject), {
        user: `nadawca@${S}`,
        pass: PW,
      });
    expect((await headerFrom(`biuro-nadawcy@${S}`, "from-alias")).accepted).toEqual([`plain@${S}`]);
    for (const other of [`plain@${S}`, "ceo@outside.test"])
      await expect(headerFrom(other, `from-${other}`)).rejects.toMatchObject({
        responseCode: 554,
        response: expect.stringMatching(/The From header must be one address of nadawca@/) as unknown,
      });
    for (const other of [`plain@${S}`, `postmaster@${G}`, "ceo@outside.test"]) {
      const refused = await sendAs(other, `as-other-${other}`);
      expect(refused.accepted).toEqual([]);
      expect(refused.refused.map((r) => r.code)).toEqual([553]);
      expect(refused.refused[0]!.response).toMatch(/Sender address rejected/);
    }
    await settle();
  });

  it("a submission session opened before its account was blocked or expired sends no more: 553 at RCPT as its own address or its alias's, 554 at the end of DATA for a message past RCPT", async () => {
    // Postfix checks the password only at AUTH: before, every later message of an open session passed.
    await addAccount(S, "sesja");
    await createAlias(db, await domain(S), "biuro-sesji", { target: `sesja@${S}` });
    const { default: SMTPConnection } = await import("nodemailer/lib/smtp-connection");
    const connection = new SMTPConnection({
      host: "127.0.0.1",
      port: l.ports.submission,
      ignoreTLS: true,
      name: "client.mailadmin.test",
    });
    await new Promise<void>((resolve, reject) => {
      connection.once("error", reject);
      connection.connect(() => resolve());
    });
    const call = <T>(fn: (done: (err: Error | null, info?: T) => void) => void) =>
      new Promise<T>((resolve, reject) => fn((err, info) => (err ? reject(err) : resolve(info!))));
    try {
      await call((done) => connection.login({ user: `sesja@${S}`, pass: PW }, (err) => done(err ?? null)));
      // A refused message leaves the transaction open: RSET before the next one, on the same connection.
      const sendAs = (from: string, subject: string) =>
        call<{ accepted: string[] }>((done) =>
          connection.send(
            { from, to: [`plain@${S}`] },
            message(from, [`plain@${S}`], subject).replace(/\r?\n/g, "\r\n"),
            done,
          ),
        ).catch(async (err: unknown) => {
          await call((done) => connection.reset((e) => done(e ?? null)));
          throw err;
        });
      expect((await sendAs(`sesja@${S}`, "session-before")).accepted).toEqual([`plain@${S}`]);
      // Blocked between RCPT and DATA: the message's text is asked for only after 354, and then the block comes
      // first. The end of DATA checks the login again (before, a header From of its own address was not looked up).
      const body = bodyAfter(
        () => setAccount(S, "sesja", { blocked: 1 }),
        message(`sesja@${S}`, [`plain@${S}`], "session-blocked-in-data"),
      );
      await expect(
        call((done) => connection.send({ from: `sesja@${S}`, to: [`plain@${S}`] }, body, done)),
      ).rejects.toMatchObject({
        responseCode: 554,
        response: expect.stringMatching(/sesja@spam\.test may not send now/) as unknown,
      });
      await call((done) => connection.reset((e) => done(e ?? null)));
      for (const from of [`sesja@${S}`, `biuro-sesji@${S}`])
        await expect(sendAs(from, `session-blocked-${from}`)).rejects.toMatchObject({
          responseCode: 553,
          response: expect.stringMatching(/Sender address rejected/) as unknown,
        });
      await setAccount(S, "sesja", { blocked: 0, expiration_date: "2020-01-01" });
      await expect(sendAs(`sesja@${S}`, "session-expired")).rejects.toMatchObject({ responseCode: 553 });
      // The rule is the login rule: allowed again, the same session sends again.
      await setAccount(S, "sesja", { expiration_date: "" });
      expect((await sendAs(`sesja@${S}`, "session-after")).accepted).toEqual([`plain@${S}`]);
    } finally {
      connection.quit();
    }
    await settle();
    expect(landed(`plain@${S}`, "session-before").where).toBe("inbox");
    expect(landed(`plain@${S}`, "session-after").where).toBe("inbox");
    for (const subject of [
      "session-blocked-in-data",
      `session-blocked-sesja@${S}`,
      `session-blocked-biuro-sesji@${S}`,
      "session-expired",
    ])
      expect(landed(`plain@${S}`, subject).where).toBe("none");
  });

  it("a submission session that signed in before its account's password changed sends no more: 450 at the next RCPT, at the end of DATA for a message past RCPT; a new session with the new password sends", async () => {
    // Postfix checks the password only at AUTH: before, a session opened with a stolen password went on sending after
    // its owner changed it, for as long as it stayed connected.
    await addAccount(S, "haslo");
    const NEW = "Spam-pass2-new";
    const { default: SMTPConnection } = await import("nodemailer/lib/smtp-connection");
    const open = async (pass: string) => {
      const connection = new SMTPConnection({
        host: "127.0.0.1",
        port: l.ports.submission,
        ignoreTLS: true,
        name: "client.mailadmin.test",
      });
      await new Promise<void>((resolve, reject) => {
        connection.once("error", reject);
        connection.connect(() => resolve());
      });
      await call((done) => connection.login({ user: `haslo@${S}`, pass }, (err) => done(err ?? null))).catch(
        (err: unknown) => {
          connection.quit();
          throw err;
        },
      );
      return connection;
    };
    const call = <T>(fn: (done: (err: Error | null, info?: T) => void) => void) =>
      new Promise<T>((resolve, reject) => fn((err, info) => (err ? reject(err) : resolve(info!))));
    type Connection = Awaited<ReturnType<typeof open>>;
    const sendOn = (connection: Connection, subject: string) =>
      call<{ accepted: string[] }>((done) =>
        connection.send(
          { from: `haslo@${S}`, to: [`plain@${S}`] },
          message(`haslo@${S}`, [`plain@${S}`], subject).replace(/\r?\n/g, "\r\n"),
          done,
        ),
      ).catch(async (err: unknown) => {
        await call((done) => connection.reset((e) => done(e ?? null)));
        throw err;
      });
    // A session whose first transaction began (MAIL FROM) before the change and asks for its first recipient after
    // it: the policy service has not seen it before, but smtpd's transaction id carries the MAIL FROM time, and AUTH
    // cannot come inside a transaction, so it signed in before the change.
    const raw = net.connect(l.ports.submission, "127.0.0.1");
    let replies = "";
    const reply = () =>
      new Promise<string>((resolve, reject) => {
        const look = () => {
          const end = /^\d{3} .*\r\n/m.exec(replies);
          if (!end) return false;
          const text = replies.slice(0, end.index + end[0].length);
          replies = replies.slice(end.index + end[0].length);
          raw.off("data", more);
          raw.off("error", reject);
          resolve(text.trim());
          return true;
        };
        const more = (d: Buffer) => {
          replies += d.toString("latin1");
          look();
        };
        if (look()) return;
        raw.on("data", more);
        raw.once("error", reject);
      });
    const command = async (line: string) => {
      raw.write(`${line}\r\n`);
      return reply();
    };
    const old = await open(PW);
    try {
      expect(await reply()).toMatch(/^220 /);
      expect(await command("EHLO raw.mailadmin.test")).toMatch(/^250 /m);
      const plain = Buffer.from(`\0haslo@${S}\0${PW}`).toString("base64");
      expect(await command(`AUTH PLAIN ${plain}`)).toMatch(/^235 /);
      expect(await command(`MAIL FROM:<haslo@${S}>`)).toMatch(/^250 /);
      expect((await sendOn(old, "pwchange-before")).accepted).toEqual([`plain@${S}`]);
      // The password changed between RCPT and DATA: the message's text is asked for only after 354, and then the
      // change comes first. The end of DATA asks the policy service again.
      const body = bodyAfter(
        () => setAccount(S, "haslo", { password: NEW }),
        message(`haslo@${S}`, [`plain@${S}`], "pwchange-in-data"),
      );
      await expect(
        call((done) => old.send({ from: `haslo@${S}`, to: [`plain@${S}`] }, body, done)),
      ).rejects.toMatchObject({
        responseCode: 450,
        response: expect.stringMatching(/haslo@spam\.test signed in before its password was changed/) as unknown,
      });
      await call((done) => old.reset((e) => done(e ?? null)));
      expect(await command(`RCPT TO:<plain@${S}>`)).toMatch(
        /^450 4\.7\.1 <plain@spam\.test>: Recipient address rejected: haslo@spam\.test signed in before its password was changed/,
      );
      // The next message of the same session: refused at its RCPT, while the sender is connected.
      await expect(sendOn(old, "pwchange-after-old-session")).rejects.toMatchObject({
        responseCode: 450,
        response: expect.stringMatching(
          /Recipient address rejected: haslo@spam\.test signed in before its password was changed; sign in again/,
        ) as unknown,
      });
      // The old password opens no new session; the new one does, and it sends.
      await expect(open(PW)).rejects.toMatchObject({ responseCode: 535 });
      const fresh = await open(NEW);
      try {
        expect((await sendOn(fresh, "pwchange-new-session")).accepted).toEqual([`plain@${S}`]);
        // Still refused in the old session, while the new one goes on.
        await expect(sendOn(old, "pwchange-after-old-session-2")).rejects.toMatchObject({ responseCode: 450 });
        expect((await sendOn(fresh, "pwchange-new-session-2")).accepted).toEqual([`plain@${S}`]);
      } finally {
        fresh.quit();
      }
    } finally {
      old.quit();
      raw.destroy();
    }
    await settle();
    for (const subject of ["pwchange-before", "pwchange-new-session", "pwchange-new-session-2"])
      expect(landed(`plain@${S}`, subject).where).toBe("inbox");
    for (const subject of ["pwchange-in-data", "pwchange-after-old-session", "pwchange-after-old-session-2"])
      expect(landed(`plain@${S}`, subject).where).toBe("none");
  });

  it("an address longer than 254 bytes is refused at RCPT (501) from every client, even where a catchall takes any local part", async () => {
    // Before, the catchall took it; 1,000 such recipients made Rspamd's end-of-DATA request too long for the policy
    // service, and the message went through unchecked (lists, quota).
    const catchall = (type: number, address: string) =>
      db.update(domains).set({ catchallType: type, catchallAddress: address }).where(eq(domains.name, S));
    await catchall(1, `plain@${S}`);
    try {
      const long = `${"x".repeat(254 - S.length)}@${S}`;
      const fits = `${"y".repeat(253 - S.length)}@${S}`;
      const sent = await send(`long-${Date.now()}@outside.test`, [long, fits], "too-long");
      expect(codes(sent)).toEqual({ [long]: 501 });
      expect(sent.accepted).toEqual([fits]);
      await settle();
    } finally {
      await catchall(0, "");
    }
  });

  it("an alias or catchall of an account applies that account's black list, white list, greylisting, SPF and RBL settings", async () => {
    for (const [alias, target] of [
      ["picky-al", "picky"],
      ["grey-al", "greyexplicit"],
      ["spfoff-al", "spfoff"],
      ["friendly-al", "friendly"],
    ]) {
      await createAlias(db, await domain(S), alias!, { target: `${target}@${S}` });
    }
    // A domain whose catchall (type 1) is an account with a black list; greylisting off at the domain.
    const C = "catch.test";
    await runCommand(db, ["domain", "add", C, "--postmaster-password", PW]);
    await setDomain(C, { spam_greylist_enabled: 0 });
    await addAccount(C, "wybredny", { spam_black_list: ["pest@outside.test"] });
    await setDomain(C, { catchall_type: 1, catchall_address: `wybredny@${C}` });

    // Black list: the account's, through its alias and through the catchall; the others take the message.
    const black = await send("pest@outside.test", [`picky-al@${S}`, `plain@${S}`], "alias-black");
    expect(codes(black)[`picky-al@${S}`]).toBeGreaterThanOrEqual(500);
    expect(black.accepted).toEqual([`plain@${S}`]);
    const caught = await send("pest@outside.test", [`whoever@${C}`], "catchall-black");
    expect(codes(caught)[`whoever@${C}`]).toBeGreaterThanOrEqual(500);
    expect((await send("someone@outside.test", [`whoever@${C}`], "catchall-ok")).accepted).toEqual([`whoever@${C}`]);
    // Greylisting: the account's 1 over its domain's 0.
    const grey = await send(`alias-grey-${Date.now()}@outside.test`, [`grey-al@${S}`, `plain@${S}`], "alias-grey");
    expect(codes(grey)).toEqual({ [`grey-al@${S}`]: 450 });
    // White list: the account's beats the domain's black list.
    await setAccount(S, "friendly", { spam_white_list: ["friend@outside.test", "trusted.test", "x@spammer.test"] });
    await setDomain(S, { spam_black_list: ["spammer.test"] });
    try {
      const white = await send("x@spammer.test", [`friendly-al@${S}`, `plain@${S}`], "alias-white");
      expect(white.accepted).toEqual([`friendly-al@${S}`]);
    } finally {
      await setDomain(S, { spam_black_list: [] });
    }
    // SPF and RBL: the account's 0 over the domain's (server default) 1.
    writeDnsRecords(l.dnsRecords, {
      "spf-fail.test": { TXT: ["v=spf1 ip4:192.0.2.1 -all"] },
      [`1.0.0.127.${SANDBOX_RBL_ZONE}`]: { A: ["127.0.0.2"] },
    });
    try {
      const spf = await send("someone@spf-fail.test", [`spfoff-al@${S}`, `plain@${S}`], "alias-spf");
      expect(spf.accepted).toEqual([`spfoff-al@${S}`]);
      const rbl = await send("someone@outside.test", [`spfoff-al@${S}`, `plain@${S}`], "alias-rbl");
      expect(rbl.accepted).toEqual([`spfoff-al@${S}`]);
      expect(rbl.refused[0]!.response).toMatch(/listed in/);
    } finally {
      writeDnsRecords(l.dnsRecords, {});
    }
    await settle();
    expect(landed(`picky@${S}`, "alias-black").where).toBe("none");
    expect(landed(`wybredny@${C}`, "catchall-black").where).toBe("none");
    expect(landed(`wybredny@${C}`, "catchall-ok").where).toBe("inbox");
    expect(landed(`spfoff@${S}`, "alias-spf").where).not.toBe("none");
  });

  it("greylisting inherited from the domain: domain 0 turns it off for its -1 accounts, domain 1 on; the account's own 1 or 0 beats it", async () => {
    try {
      await setDomain(G, { spam_greylist_enabled: 0 });
      const sender = `grey-dom-${Date.now()}@outside.test`;
      const off = await send(sender, [`inherits@${G}`, `greyon@${G}`], "grey-dom-0");
      expect(off.accepted).toEqual([`inherits@${G}`]);
      expect(codes(off)).toEqual({ [`greyon@${G}`]: 450 });
      await setDomain(G, { spam_greylist_enabled: 1 });
      const sender2 = `grey-dom1-${Date.now()}@outside.test`;
      const on = await send(sender2, [`inherits@${G}`, `greyoff@${G}`], "grey-dom-1");
      expect(on.accepted).toEqual([`greyoff@${G}`]);
      expect(codes(on)).toEqual({ [`inherits@${G}`]: 450 });
    } finally {
      await setDomain(G, { spam_greylist_enabled: -1 });
    }
  });

  it("SPF: a hard fail is refused; spam_spf_enabled 0 and the SPF white list let it through; a pass is accepted; the domain's 0 or 1 applies to its -1 accounts, the account's own 1 or 0 beats it", async () => {
    writeDnsRecords(l.dnsRecords, {
      "spf-fail.test": { TXT: ["v=spf1 ip4:192.0.2.1 -all"] },
      "spf-pass.test": { TXT: ["v=spf1 ip4:127.0.0.1 -all"] },
    });
    try {
      const r = await send("someone@spf-fail.test", [`plain@${S}`, `spfoff@${S}`, `spfwhite@${S}`], "spf-fail");
      expect(r.accepted.sort()).toEqual([`spfoff@${S}`, `spfwhite@${S}`]);
      expect(codes(r)[`plain@${S}`]).toBeGreaterThanOrEqual(500);
      expect(r.refused[0]!.response).toMatch(/SPF/);
      expect((await send("someone@spf-pass.test", [`plain@${S}`], "spf-pass")).accepted).toEqual([`plain@${S}`]);
      // The white list does not skip SPF: the sender it names is only as true as its domain's SPF says (before, a
      // forged white-listed sender was let in and skipped the spam filter).
      await setAccount(S, "friendly", { spam_white_list: ["friend@outside.test", "trusted.test", "spf-fail.test"] });
      try {
        expect(refusedBy(await send("someone@spf-fail.test", [`friendly@${S}`], "spf-white"))).toEqual({
          [`friendly@${S}`]: "spf",
        });
      } finally {
        await setAccount(S, "friendly", { spam_white_list: ["friend@outside.test", "trusted.test"] });
      }
      await setDomain(S, { spam_spf_enabled: 0 });
      const off = await send("someone@spf-fail.test", [`plain@${S}`, `strict@${S}`], "spf-domain-off");
      expect(off.accepted).toEqual([`plain@${S}`]);
      expect(refusedBy(off)).toEqual({ [`strict@${S}`]: "spf" });
      await setDomain(S, { spam_spf_enabled: 1 });
      const on = await send("someone@spf-fail.test", [`plain@${S}`, `spfoff@${S}`], "spf-domain-on");
      expect(on.accepted).toEqual([`spfoff@${S}`]);
      expect(refusedBy(on)).toEqual({ [`plain@${S}`]: "spf" });
    } finally {
      await setDomain(S, { spam_spf_enabled: -1 });
      writeDnsRecords(l.dnsRecords, {});
    }
  });

  it("RBL: a listed client is refused; spam_rbl_enabled 0 and the RBL white list let it through", async () => {
    writeDnsRecords(l.dnsRecords, { [`1.0.0.127.${SANDBOX_RBL_ZONE}`]: { A: ["127.0.0.2"] } });
    try {
      const r = await send("someone@outside.test", [`plain@${S}`, `spfoff@${S}`], "rbl-listed");
      expect(r.accepted).toEqual([`spfoff@${S}`]);
      expect(r.refused[0]!.response).toMatch(new RegExp(`listed in ${SANDBOX_RBL_ZONE.replace(/\./g, "\\.")}`));
      expect((await send("rblfriend@outside.test", [`spfwhite@${S}`], "rbl-white")).accepted).toEqual([
        `spfwhite@${S}`,
      ]);
    } finally {
      writeDnsRecords(l.dnsRecords, {});
    }
    expect((await send("someone@outside.test", [`plain@${S}`], "rbl-unlisted")).accepted).toEqual([`plain@${S}`]);
  });

  it("RBL: an answer in 127.255.255.0/24 is the list refusing our query, not a listing: the client is accepted, the refusal logged", async () => {
    // Spamhaus answers 127.255.255.254 to queries through a public resolver, 127.255.255.255 over its free volume.
    const logFile = path.join(l.logs, "policy.log");
    const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    writeDnsRecords(l.dnsRecords, { [`1.0.0.127.${SANDBOX_RBL_ZONE}`]: { A: ["127.255.255.254"] } });
    try {
      expect((await send("someone@outside.test", [`plain@${S}`], "rbl-refused-query")).accepted).toEqual([
        `plain@${S}`,
      ]);
    } finally {
      writeDnsRecords(l.dnsRecords, {});
    }
    expect(fs.readFileSync(logFile).subarray(logStart).toString("utf8")).toContain(
      `RBL ${SANDBOX_RBL_ZONE} refused the query (127.255.255.254)`,
    );
  });

  it("RBL inherited from the domain: domain 0 lets a listed client through for its -1 accounts, domain 1 refuses it; the account's own 1 or 0 beats it", async () => {
    writeDnsRecords(l.dnsRecords, { [`1.0.0.127.${SANDBOX_RBL_ZONE}`]: { A: ["127.0.0.2"] } });
    // plain and tagger say -1 and have no lists; spfoff says 0, strict 1.
    const to = [`plain@${S}`, `spfoff@${S}`, `strict@${S}`, `tagger@${S}`];
    try {
      await setDomain(S, { spam_rbl_enabled: 0 });
      const off = await send("someone@outside.test", to, "rbl-domain-0");
      expect(off.accepted.sort()).toEqual([`plain@${S}`, `spfoff@${S}`, `tagger@${S}`]);
      expect(refusedBy(off)).toEqual({ [`strict@${S}`]: "rbl" });
      await setDomain(S, { spam_rbl_enabled: 1 });
      const on = await send("someone@outside.test", to, "rbl-domain-1");
      expect(on.accepted).toEqual([`spfoff@${S}`]);
      expect(refusedBy(on)).toEqual({ [`plain@${S}`]: "rbl", [`strict@${S}`]: "rbl", [`tagger@${S}`]: "rbl" });
    } finally {
      await setDomain(S, { spam_rbl_enabled: -1 });
      writeDnsRecords(l.dnsRecords, {});
    }
  });

  it("the domain's RBL, SPF and greylisting white lists (an address, a domain) let through, for every account of the domain, what the account's own would", async () => {
    // Accounts with no lists of their own, saying -1 (plain, tagger, inherits) or 1 (strict, greyon) for the mechanism.
    const every = [`plain@${S}`, `strict@${S}`, `tagger@${S}`];
    const grey = [`greyon@${G}`, `inherits@${G}`];
    const accepted = async (from: string, to: string[], subject: string) =>
      (await send(from, to, subject)).accepted.sort();
    const all = (to: string[], value: string | number) => Object.fromEntries(to.map((t) => [t, value]));
    try {
      // SPF: a hard fail from the listed address and from the listed domain passes; another sender's does not.
      writeDnsRecords(l.dnsRecords, {
        "spf-fail.test": { TXT: ["v=spf1 ip4:192.0.2.1 -all"] },
        "spf-bad.test": { TXT: ["v=spf1 ip4:192.0.2.1 -all"] },
      });
      await setDomain(S, { spam_spf_whitelist: ["liar@spf-bad.test", "spf-fail.test"] });
      expect(await accepted("liar@spf-bad.test", every, "domain-spf-white-address")).toEqual(every);
      expect(await accepted("someone@spf-fail.test", every, "domain-spf-white-domain")).toEqual(every);
      const spf = await send("other@spf-bad.test", every, "domain-spf-unlisted");
      expect(refusedBy(spf)).toEqual(all(every, "spf"));

      // RBL: the client is listed; the listed address and domain pass it, another sender does not.
      writeDnsRecords(l.dnsRecords, { [`1.0.0.127.${SANDBOX_RBL_ZONE}`]: { A: ["127.0.0.2"] } });
      await setDomain(S, { spam_rbl_whitelist: ["pal@outside.test", "friends.test"] });
      expect(await accepted("pal@outside.test", every, "domain-rbl-white-address")).toEqual(every);
      expect(await accepted("anyone@friends.test", every, "domain-rbl-white-domain")).toEqual(every);
      const rbl = await send("stranger@outside.test", every, "domain-rbl-unlisted");
      expect(refusedBy(rbl)).toEqual(all(every, "rbl"));
      writeDnsRecords(l.dnsRecords, {});

      // Greylisting (on in G by the server's default): new senders' first attempts, taken at once when listed.
      const stamp = Date.now();
      await setDomain(G, { spam_greylist_whitelist: [`early-${stamp}@outside.test`, "known.test"] });
      expect(await accepted(`early-${stamp}@outside.test`, grey, "domain-grey-white-address")).toEqual(grey);
      expect(await accepted(`someone-${stamp}@known.test`, grey, "domain-grey-white-domain")).toEqual(grey);
      expect(codes(await send(`late-${stamp}@outside.test`, grey, "domain-grey-unlisted"))).toEqual(all(grey, 450));
    } finally {
      await setDomain(S, { spam_spf_whitelist: [], spam_rbl_whitelist: [] });
      await setDomain(G, { spam_greylist_whitelist: [] });
      writeDnsRecords(l.dnsRecords, {});
    }
  });

  it("a setting changed through the service the API calls applies to the next message, without any reload", async () => {
    await send("sender@outside.test", [`changing@${S}`], "change-1", 6);
    await settle();
    expect(landed(`changing@${S}`, "change-1").where).toBe("inbox");
    await setAccount(S, "changing", { spam_hits: 5 });
    await send("sender@outside.test", [`changing@${S}`], "change-2", 6);
    // Delivered before the black list names its sender: a copy still queued then would be dropped at delivery.
    await settle();
    expect(landed(`changing@${S}`, "change-2").where).toBe("spam");
    await setAccount(S, "changing", { spam_black_list: ["sender@outside.test"] });
    const refused = await send("sender@outside.test", [`changing@${S}`], "change-3", 6);
    expect(refused.accepted).toEqual([]);
    await setAccount(S, "changing", { spam_black_list: [], spam_rule: "tag" });
    await send("sender@outside.test", [`changing@${S}`], "change-4", 6);
    await settle();
    expect(landed(`changing@${S}`, "change-4")).toEqual({ where: "inbox", subjectLine: "[SPAM] change-4" });
  });

  it("spam_*_default report what the policy service applies: the server's setting, and the domain's value for an account", async () => {
    const record = await toDomainRecord(db, await domain(G));
    expect(record).toMatchObject({ spam_greylist_default: "1", spam_spf_default: "1", spam_rbl_default: "1" });
    expect(spamDefaults()).toEqual({ greylist: 1, spf: 1, rbl: 1 });
    await setDomain(G, { spam_greylist_enabled: 0 });
    const account = await accountRecord(db, await domain(G), await getAccountOrThrow(db, await domain(G), "inherits"));
    expect(account.spam_greylist_default).toBe(0);
    await setDomain(G, { spam_greylist_enabled: -1 });
    const again = await accountRecord(db, await domain(G), await getAccountOrThrow(db, await domain(G), "inherits"));
    expect(again.spam_greylist_default).toBe(1);
  });
}
