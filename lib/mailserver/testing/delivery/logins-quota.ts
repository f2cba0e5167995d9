// Delivery cases: last login from the mail server, quota, and the usage warning.
import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dialectOf } from "@/db/dialect";
import { accounts, loginThrottle } from "@/db/schema";
import { authenticate } from "@/lib/server/caller/auth";
import { lockedFor } from "@/lib/server/caller/login-throttle";
import { sha1Hex } from "@/lib/server/caller/password";
import { env } from "@/lib/server/env";
import { createAccount, deleteAccounts } from "@/lib/server/resources/accounts";
import { getDomainOrThrow, removeDomain } from "@/lib/server/resources/domains";
import { runHousekeeping } from "../../housekeeping";
import { dovecotConf, eventsLogMark, imapIdle, LineSocket, readMessages, smtpTry, waitFor } from "../mail-daemons";
import {
  A,
  PW,
  l,
  db,
  row,
  set,
  smtpSend,
  outbound,
  message,
  filler,
  MARKER,
  settle,
  imapLogin,
  pop3Login,
  smtpAuthSend,
  alpha,
  cli,
} from "./harness";

export function loginAndQuotaCases() {
  describe("last login from the mail server", () => {
    const today = new Date().toISOString().slice(0, 10);
    const reset = () =>
      db
        .update(accounts)
        .set({ lastAuthDate: "", lastAuthIp: "" })
        .where(eq(accounts.email, `jan@${A}`));
    const moved = () =>
      waitFor(
        "last_auth_* to move",
        async () => {
          const jan = await row("jan");
          return jan.lastAuthDate === today && jan.lastAuthIp === "127.0.0.1";
        },
        5_000,
      );
    /** A later login of the marker account, recorded: the mail event service has handled the reports before it. */
    const markerLogin = async () => {
      await db.update(accounts).set({ lastAuthDate: "", lastAuthIp: "" }).where(eq(accounts.email, MARKER));
      expect(await imapLogin(MARKER, PW)).toBe(true);
      await waitFor("the marker's login recorded", async () => (await row("znacznik")).lastAuthDate === today, 5_000);
    };

    it("IMAP login sets last_auth_date and last_auth_ip", async () => {
      await reset();
      expect(await imapLogin(`jan@${A}`, PW)).toBe(true);
      await moved();
    });

    it("POP3 login sets them", async () => {
      await reset();
      expect(await pop3Login(`jan@${A}`, PW)).toBe(true);
      await moved();
    });

    it("SMTP AUTH (Dovecot SASL) sets them", async () => {
      await reset();
      await smtpAuthSend(`jan@${A}`, PW, `ola@${A}`);
      await moved();
      await settle();
    });

    it("a failed login does not, and repeated logins and commands write nothing more", async () => {
      await reset();
      expect(await imapLogin(`jan@${A}`, "wrong-password")).toBe(false);
      await markerLogin();
      expect((await row("jan")).lastAuthDate).toBe("");
      const writes = async () =>
        (
          await dialectOf(db).all<{ n: number }>(
            db,
            sql`SELECT count(*) AS n FROM test_auth_writes WHERE email = ${`jan@${A}`}`,
          )
        )[0]!;
      expect(await imapLogin(`jan@${A}`, PW)).toBe(true);
      await moved();
      const after = (await writes()).n;
      for (let i = 0; i < 3; i++) expect(await imapLogin(`jan@${A}`, PW)).toBe(true);
      expect(await pop3Login(`jan@${A}`, PW)).toBe(true);
      await markerLogin();
      expect((await writes()).n).toBe(after);
    });
  });

  describe("the login lock (the API's and the panel's) applies to IMAP, POP3 and SMTP AUTH", () => {
    it("failed mail logins lock the account for every way in; the right password is refused while it lasts", async () => {
      // Before, Dovecot only slowed each client address: 200 wrong IMAP passwords over 20 connections took 137 s and
      // the right one was accepted after them.
      const email = `zgadywany@${A}`;
      await createAccount(db, await alpha(), "zgadywany", { password: PW });
      // Each from its own address, as a guesser rotating addresses (and out of reach of Dovecot's delay per address).
      for (let i = 0; i < env().AUTH_MAX_FAILURES; i++)
        expect(await imapLogin(email, `Wrong-${i}1`, `127.0.60.${i + 1}`)).toBe(false);
      // The reports reach the mail event service after the client's answer: wait for the lock, not a time.
      await waitFor("the account's lock", async () => (await lockedFor(db, email)) > 0, 5_000);
      expect(await imapLogin(email, PW, "127.0.61.1")).toBe(false);
      expect(await pop3Login(email, PW, "127.0.61.2")).toBe(false);
      // The API's lock it is: the same row, and the API refuses the right password too.
      await expect(authenticate(db, { email, digest: sha1Hex(PW) }, "192.0.2.9")).rejects.toMatchObject({
        key: "tooManyFailures",
      });
      // Once the lock is gone (here removed by hand), the right password logs in and clears the count.
      await db.delete(loginThrottle).where(eq(loginThrottle.email, email));
      expect(await imapLogin(email, PW)).toBe(true);
      await waitFor("the login recorded", async () => (await row("zgadywany")).lastAuthDate !== "", 5_000);
    });
  });

  describe("open sessions end when the account may no longer log in", () => {
    const idle = (user: string, password = PW) => imapIdle(l.ports.imap, user, password);

    it("blocking, expiry and deletion of the account or its domain end its IMAP session; another's stays open", async () => {
      // Before, Dovecot refused only new logins: a session opened before the block went on reading new mail.
      const d = await alpha();
      for (const name of ["sesja-blok", "sesja-wygasa", "sesja-usun", "sesja-zostaje"])
        await createAccount(db, d, name, { password: PW });
      await cli("domain", "add", "gamma.test", "--postmaster-password", "Admin-pass1");
      const ending = {
        blocked: await idle(`sesja-blok@${A}`),
        expired: await idle(`sesja-wygasa@${A}`),
        deleted: await idle(`sesja-usun@${A}`),
        domainDeleted: await idle("postmaster@gamma.test", "Admin-pass1"),
      };
      const stays = await idle(`sesja-zostaje@${A}`);
      const log = eventsLogMark(l);
      // Through the services the API calls.
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      await set("sesja-blok", { blocked: 1 });
      await set("sesja-wygasa", { expiration_date: yesterday });
      await deleteAccounts(db, d, ["sesja-usun"]);
      await removeDomain(db, await getDomainOrThrow(db, "gamma.test"));
      // The sandbox checks every second (SESSION_CHECK_MS, 5 s, in production): 10 s is the bound on a busy host.
      await Promise.all(
        Object.values(ending).map(async ({ s, closed }) => {
          await s.until(/^\* BYE /, 10_000);
          await closed;
        }),
      );
      // The service logs each user it ended (after doveadm kick returns, so perhaps after the socket closed).
      for (const user of [`sesja-blok@${A}`, `sesja-wygasa@${A}`, `sesja-usun@${A}`, "postmaster@gamma.test"])
        await log.wait(`${user} logged`, new RegExp(`sessions: ended ${user.replace(/\./g, "\\.")} `), 5_000);
      // The account that may still log in: its session answers after the others have ended, and was never ended.
      stays.s.write("DONE\r\n");
      await stays.s.until(/^c OK/);
      stays.s.write("d NOOP\r\n");
      await stays.s.until(/^d OK/);
      expect(log.after().join("\n")).not.toContain("sesja-zostaje");
      stays.s.write("e LOGOUT\r\n");
      stays.s.close();
    });
  });

  describe("a deleted account's mailbox", () => {
    it("is removed from the mail host within seconds, with the domain's too: an account created again under the address starts with an empty INBOX", async () => {
      const d = await alpha();
      await createAccount(db, d, "poprzedni", { password: PW });
      await cli("domain", "add", "delta.test", "--postmaster-password", "Admin-pass1");
      for (const to of [`poprzedni@${A}`, "postmaster@delta.test"])
        await smtpSend("nadawca@far.test", [to], message("nadawca@far.test", to, "Stara poczta"));
      await waitFor("both delivered", () => readMessages(l, `poprzedni@${A}`).length === 1, 20_000);
      await waitFor("both delivered", () => readMessages(l, "postmaster@delta.test").length === 1, 20_000);
      const homes = [path.join(l.vmail, A, "poprzedni"), path.join(l.vmail, "delta.test", "postmaster")];
      const log = eventsLogMark(l);
      await deleteAccounts(db, d, ["poprzedni"]);
      await removeDomain(db, await getDomainOrThrow(db, "delta.test"));
      // The sandbox's events service checks every second (5 s in production).
      for (const [i, email] of [`poprzedni@${A}`, "postmaster@delta.test"].entries())
        await log.wait(
          `${email} removed`,
          new RegExp(`mailboxes: removed ${email.replace(/\./g, "\\.")} \\(${homes[i]}\\)`),
          10_000,
        );
      expect(homes.filter((h) => fs.existsSync(h))).toEqual([]);
      await createAccount(db, d, "poprzedni", { password: "Nowy-wlasc1" });
      const s = await LineSocket.connect(l.ports.imap);
      try {
        await s.until(/^\* OK/);
        s.write(`a LOGIN "poprzedni@${A}" "Nowy-wlasc1"\r\n`);
        expect(await s.until(/^a /)).toMatch(/^a OK/m);
        s.write("b STATUS INBOX (MESSAGES)\r\n");
        expect(await s.until(/^b /)).toMatch(/^\* STATUS INBOX \(MESSAGES 0\)/m);
        s.write("c LOGOUT\r\n");
      } finally {
        s.close();
      }
      // Mail for the new owner is delivered as usual.
      await smtpSend("nadawca@far.test", [`poprzedni@${A}`], message("nadawca@far.test", `poprzedni@${A}`, "Nowa"));
      await waitFor("the new owner's mail", () => readMessages(l, `poprzedni@${A}`).length === 1, 20_000);
      expect(readMessages(l, `poprzedni@${A}`)[0]).toContain("Subject: Nowa");
    });

    it("mail for an account created again before the old mailbox is removed is deferred at RCPT (450), then delivered", async () => {
      // Before, Postfix accepted it into the folder about to be removed: the message was lost without a bounce.
      const d = await alpha();
      await createAccount(db, d, "wczesny", { password: PW });
      await smtpSend("nadawca@far.test", [`wczesny@${A}`], message("nadawca@far.test", `wczesny@${A}`, "Stara"));
      await waitFor("the old mail delivered", () => readMessages(l, `wczesny@${A}`).length === 1, 20_000);
      // No events service to remove it: the removal waits, as on a host whose service is late.
      const log = eventsLogMark(l);
      await l.sandbox.stopComponent("events");
      try {
        await deleteAccounts(db, d, ["wczesny"]);
        await createAccount(db, d, "wczesny", { password: "Nowy-wlasc1" });
        const early = await smtpTry(
          l.ports.smtp,
          "nadawca@far.test",
          [`wczesny@${A}`],
          message("nadawca@far.test", `wczesny@${A}`, "Za wczesnie"),
        );
        expect(early.accepted).toEqual([]);
        expect(early.refused.map((r) => [r.address, r.code])).toEqual([[`wczesny@${A}`, 450]]);
        expect(early.refused[0]?.response).toMatch(
          /^450 4\.2\.1 .*: the mailbox is being emptied after its account was deleted/,
        );
      } finally {
        await l.sandbox.startComponent("events");
      }
      await log.wait("the old mailbox removed", /mailboxes: removed wczesny@alpha\.test /, 10_000);
      await smtpSend("nadawca@far.test", [`wczesny@${A}`], message("nadawca@far.test", `wczesny@${A}`, "Nowa"));
      await waitFor("the new owner's mail", () => readMessages(l, `wczesny@${A}`).length === 1, 20_000);
      expect(readMessages(l, `wczesny@${A}`)[0]).toContain("Subject: Nowa");
    });
  });

  describe("open sessions end when the account's password changes", () => {
    const idle = (user: string, password = PW) => imapIdle(l.ports.imap, user, password);
    /** A POP3 session, logged in and left open. */
    async function pop3Open(user: string, password: string) {
      const s = await LineSocket.connect(l.ports.pop3);
      const closed = new Promise<void>((resolve) => s.socket.once("close", () => resolve()));
      await s.until(/^\+OK/);
      s.write(`USER ${user}\r\n`);
      await s.until(/^[+-]/);
      s.write(`PASS ${password}\r\n`);
      const r = await s.until(/^[+-]/);
      if (!r.startsWith("+OK")) throw new Error(`POP3 login of ${user}: ${r}`);
      return { s, closed };
    }
    const logged = (user: string, why: string) =>
      new RegExp(`sessions: ended ${user.replace(/\./g, "\\.")} \\(${why}\\)`);

    it("a new password (the service the API calls) ends its IMAP and POP3 sessions; another's stays; a login with the new password stays open", async () => {
      // Before, Dovecot's passdb decided only at login: a session opened with the old password went on.
      const d = await alpha();
      for (const name of ["haslo-zmienione", "haslo-inne", "haslo-znacznik"])
        await createAccount(db, d, name, { password: PW });
      const user = `haslo-zmienione@${A}`;
      const NEW = "Nowe-haslo-123";
      const imap = await idle(user);
      const pop3 = await pop3Open(user, PW);
      const stays = await idle(`haslo-inne@${A}`);
      const log = eventsLogMark(l);
      await set("haslo-zmienione", { password: NEW });
      // The sandbox checks every second (SESSION_CHECK_MS, 5 s, in production): 10 s is the bound on a busy host.
      await imap.s.until(/^\* BYE /, 10_000);
      await Promise.all([imap.closed, pop3.closed]);
      await log.wait(`${user} logged`, logged(user, "password changed"), 5_000);
      expect(await imapLogin(user, PW)).toBe(false);
      // On PostgreSQL every check ends the user's sessions until the change has settled (PASSWORD_CHANGE_SETTLE_MS: a
      // replica may still take the old password); on SQLite the first check handled it.
      await waitFor(
        "the change handled",
        async () => {
          const [handled] = await dialectOf(db).all<{ n: number }>(
            db,
            sql`SELECT count(*) AS n FROM mail_password_changes_handled h
              JOIN mail_password_changes c ON c.id = h.change_id WHERE c.email = ${user}`,
          );
          return Number(handled!.n) > 0;
        },
        30_000,
      );
      // A session opened with the new password after the check handled the change.
      const fresh = await idle(user, NEW);
      // A later check has run once a marker account's block has ended its session: `fresh` was left open.
      const marker = await idle(`haslo-znacznik@${A}`);
      await set("haslo-znacznik", { blocked: 1 });
      await marker.s.until(/^\* BYE /, 10_000);
      await log.wait("the marker ended", logged(`haslo-znacznik@${A}`, "may no longer log in"), 5_000);
      for (const open of [fresh, stays]) {
        open.s.write("DONE\r\n");
        await open.s.until(/^c OK/);
        open.s.write("d NOOP\r\n");
        await open.s.until(/^d OK/);
        open.s.write("e LOGOUT\r\n");
        open.s.close();
      }
      const after = log.after().join("\n");
      expect(after.match(new RegExp(`ended ${user.replace(/\./g, "\\.")} `, "g"))).toHaveLength(1);
      expect(after).not.toContain("haslo-inne");
    });
  });

  describe("quota", () => {
    it("a second message to a full mailbox is refused at RCPT (552), on the MX and the submission port, and nothing bounces", async () => {
      const mark = eventsLogMark(l);
      await smtpSend(
        "nadawca@far.test",
        [`pelny@${A}`],
        message("nadawca@far.test", `pelny@${A}`, "duza", filler(1100)),
      );
      await settle();
      expect(readMessages(l, `pelny@${A}`).length).toBe(1);
      await waitFor("usage written back", async () => (await row("pelny")).usagePercent >= 95);
      // usage_notification_level 0: the crossing is reported and answered with no warning.
      await mark.wait("pelny's crossing answered", new RegExp(`quota-warning pelny@${A} \\d+%: `));
      expect(readMessages(l, `pelny@${A}`).filter((m) => m.includes("X-Mailadmin: usage-warning"))).toEqual([]);
      const before = outbound().length;
      await expect(
        smtpSend("nadawca@far.test", [`pelny@${A}`], message("nadawca@far.test", `pelny@${A}`, "druga")),
      ).rejects.toThrow(/^SMTP: 552 5\.2\.2/m);
      // An authenticated sender (submission port, SASL) is refused at RCPT too.
      await expect(smtpAuthSend(`jan@${A}`, PW, `pelny@${A}`, "trzecia")).rejects.toMatchObject({
        code: "EENVELOPE",
        responseCode: 552,
      });
      await settle();
      expect(readMessages(l, `pelny@${A}`).length).toBe(1);
      expect(
        outbound()
          .slice(before)
          .filter((m) => m.to.includes("nadawca@far.test") || m.to.includes(`jan@${A}`)),
      ).toEqual([]);
      expect(
        readMessages(l, `jan@${A}`).filter((m) => m.includes("trzecia") || /Undelivered|Returned/i.test(m)),
      ).toEqual([]);
    });
  });

  describe("quota: refused in the SMTP session, or not at all", () => {
    it("an alias of a full mailbox is refused at RCPT (552) like the mailbox itself, nothing bounces", async () => {
      await waitFor("pelny full", async () => (await row("pelny")).usagePercent >= 95);
      const before = outbound().length;
      await expect(
        smtpSend(
          "nadawca@far.test",
          [`pelny-alias@${A}`],
          message("nadawca@far.test", `pelny-alias@${A}`, "przez-alias"),
        ),
      ).rejects.toThrow(/^SMTP: 552 5\.2\.2/m);
      await settle();
      expect(
        outbound()
          .slice(before)
          .filter((m) => m.to.includes("nadawca@far.test")),
      ).toEqual([]);
    });

    it("a message that does not fit a nearly full mailbox, sent without SIZE=, is refused at the end of DATA (5xx), nothing bounces", async () => {
      await smtpSend(
        "nadawca@far.test",
        [`prawie@${A}`],
        message("nadawca@far.test", `prawie@${A}`, "pierwsza", filler(700)),
      );
      await settle();
      await waitFor("usage written back", async () => (await row("prawie")).usagePercent >= 60);
      const before = outbound().length;
      // smtpSend announces no SIZE=: only the end of DATA knows the size.
      await expect(
        smtpSend(
          "nadawca@far.test",
          [`prawie@${A}`],
          message("nadawca@far.test", `prawie@${A}`, "za-duza", filler(600)),
        ),
      ).rejects.toThrow(
        new RegExp(`^SMTP: 5\\d\\d .*mailbox of prawie@${A.replace(/\./g, "\\.")} has no room for this message`, "m"),
      );
      await settle();
      expect(readMessages(l, `prawie@${A}`).filter((m) => m.includes("za-duza"))).toEqual([]);
      expect(
        outbound()
          .slice(before)
          .filter((m) => m.to.includes("nadawca@far.test")),
      ).toEqual([]);
      // A message that fits is still taken.
      await smtpSend("nadawca@far.test", [`prawie@${A}`], message("nadawca@far.test", `prawie@${A}`, "mala"));
      await waitFor("the small message", () => readMessages(l, `prawie@${A}`).some((m) => m.includes("mala")));
    });

    it("a forward-only account (keep_mail 0) takes and forwards mail whatever its quota", async () => {
      await smtpSend(
        "nadawca@far.test",
        [`tylkofwd@${A}`],
        message("nadawca@far.test", `tylkofwd@${A}`, "wypelnia", filler(1100)),
      );
      await settle();
      await waitFor("tylkofwd full", async () => (await row("tylkofwd")).usagePercent >= 95);
      await set("tylkofwd", { forwards: ["dalej@outside.test"], keep_mail: 0 });
      await smtpSend("nadawca@far.test", [`tylkofwd@${A}`], message("nadawca@far.test", `tylkofwd@${A}`, "przekazana"));
      const forwarded = await waitFor(
        "the forward",
        () => outbound().find((m) => m.to.includes("dalej@outside.test") && m.raw.includes("przekazana")),
        30_000,
      );
      expect(forwarded.raw).toContain("Subject: przekazana");
      await settle();
      expect(outbound().filter((m) => m.to.includes("nadawca@far.test"))).toEqual([]);
    });
  });

  describe("usage warning at delivery", () => {
    const warnings = () => readMessages(l, `ola@${A}`).filter((m) => m.includes("X-Mailadmin: usage-warning"));
    /** Dovecot's report of the crossing a delivery made, answered by the mail event service (its log line). */
    const crossingAnswered = (mark: ReturnType<typeof eventsLogMark>) =>
      mark.wait("ola's crossing answered", new RegExp(`quota-warning ola@${A} \\d+%: `));

    it("comes with the delivery that reaches the level, not before, and not again within 24 h", async () => {
      let mark = eventsLogMark(l);
      await smtpSend("a@far.test", [`ola@${A}`], message("a@far.test", `ola@${A}`, "trzydziesci", filler(300)));
      await settle();
      await crossingAnswered(mark);
      expect(warnings()).toHaveLength(0);
      await smtpSend("a@far.test", [`ola@${A}`], message("a@far.test", `ola@${A}`, "szescdziesiat", filler(300)));
      await waitFor("the warning", () => warnings().length === 1, 15_000);
      expect(warnings()[0]).toMatch(/Subject: =\?UTF-8\?B\?/);
      expect(Buffer.from(/Subject: =\?UTF-8\?B\?([^?]+)\?=/.exec(warnings()[0]!)![1]!, "base64").toString()).toMatch(
        /^Skrzynka zajęta w (5|6)\d%$/,
      );
      expect((await row("ola")).usageWarnedAt).not.toBe("");
      mark = eventsLogMark(l);
      await smtpSend("a@far.test", [`ola@${A}`], message("a@far.test", `ola@${A}`, "osiemdziesiat", filler(200)));
      await settle();
      await crossingAnswered(mark);
      expect(warnings()).toHaveLength(1);
      // A day later, the next crossing warns again.
      await db
        .update(accounts)
        .set({ usageWarnedAt: new Date(Date.now() - 25 * 3_600_000).toISOString() })
        .where(eq(accounts.email, `ola@${A}`));
      await smtpSend("a@far.test", [`ola@${A}`], message("a@far.test", `ola@${A}`, "dziewiecdziesiat", filler(100)));
      await waitFor("the second warning", () => warnings().length === 2, 15_000);
    });
  });

  describe("usage warning past 100%, and one account's failure in the daily run", () => {
    const warningsOf = (name: string) =>
      readMessages(l, `${name}@${A}`).filter((m) => m.includes("X-Mailadmin: usage-warning"));

    it("a delivery that takes the mailbox over its capacity (Dovecot's grace) still brings the warning", async () => {
      await smtpSend(
        "a@far.test",
        [`przepelniony@${A}`],
        message("a@far.test", `przepelniony@${A}`, "ponad", filler(1100)),
      );
      await waitFor("usage written back", async () => (await row("przepelniony")).usagePercent > 100);
      // The warning's save is not held to the quota: before, it failed with "Quota exceeded" and was lost.
      await waitFor("the warning", () => warningsOf("przepelniony").length === 1, 15_000);
    });

    it("housekeeping warns the others when one account's warning cannot be saved, and reports that one", async () => {
      for (const name of ["wadliwy", "nastepny"]) {
        await smtpSend("a@far.test", [`${name}@${A}`], message("a@far.test", `${name}@${A}`, "polowa", filler(400)));
        await waitFor(`${name}'s usage`, async () => (await row(name)).usagePercent >= 30);
      }
      // The delivery's warnings came; a day later the daily run is due to repeat them.
      await waitFor(
        "the delivery's warnings",
        () => warningsOf("wadliwy").length === 1 && warningsOf("nastepny").length === 1,
        15_000,
      );
      const maildir = path.join(l.vmail, A, "wadliwy", "Maildir");
      fs.chmodSync(maildir, 0);
      try {
        const report = await runHousekeeping(db, {
          doveadm: ["doveadm", "-c", dovecotConf(l)],
          now: new Date(Date.now() + 25 * 3_600_000),
        });
        // doveadm's expunge runs name the account too (it goes on past it); its warning is the one not saved.
        expect(report.failed.filter((f) => f.startsWith("usage warning"))).toEqual([
          expect.stringContaining(`usage warning wadliwy@${A}: `),
        ]);
        expect(
          report.failed
            .filter((f) => !f.startsWith("usage warning"))
            .every((f) => f.startsWith("doveadm ") && f.includes(`wadliwy@${A}`)),
        ).toBe(true);
        expect(report.warned).toContainEqual(expect.stringMatching(new RegExp(`^nastepny@`)));
      } finally {
        fs.chmodSync(maildir, 0o700);
      }
      expect(warningsOf("nastepny")).toHaveLength(2);
      expect(warningsOf("wadliwy")).toHaveLength(1);
      // Given back: the next run (a day after the claim it did not use) tries it again.
      const report = await runHousekeeping(db, {
        doveadm: ["doveadm", "-c", dovecotConf(l)],
        now: new Date(Date.now() + 26 * 3_600_000),
      });
      expect(report.failed).toEqual([]);
      expect(warningsOf("wadliwy")).toHaveLength(2);
    });
  });
}
