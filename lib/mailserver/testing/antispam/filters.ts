// Anti-spam cases: the score levels, tag and move, the filter off, white and black lists of the account and its domain.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { expect, it } from "vitest";

import { getAccountOrThrow } from "@/lib/server/resources/accounts";
import { runHousekeeping } from "../../housekeeping";
import { dovecotConf, maildirFiles, readMessages, smtpTry, waitFor } from "../mail-daemons";
import {
  S,
  OFF,
  LEVELS,
  db,
  l,
  setAccount,
  setDomain,
  send,
  sendLoggedIn,
  settle,
  landed,
  codes,
  message,
  addAccount,
  domain,
} from "./harness";

export function spamFilterCases() {
  it("spam_hits 2, 5, 7, 9: a score just under each stays in the inbox, from the score on it is spam (one message, four accounts)", async () => {
    const to = LEVELS.map((h) => `h${h}@${S}`);
    const sent: { subject: string; score: number }[] = [];
    for (const h of LEVELS) {
      for (const score of [h - 0.1, h, h + 0.1]) {
        const subject = `level-${h}-${score.toFixed(1)}`;
        expect((await send("sender@outside.test", to, subject, score)).accepted).toHaveLength(4);
        sent.push({ subject, score });
      }
    }
    await settle();
    for (const { subject, score } of sent) {
      for (const h of LEVELS) {
        expect({ subject, account: h, where: landed(`h${h}@${S}`, subject).where }).toEqual({
          subject,
          account: h,
          where: score >= h - 1e-9 ? "spam" : "inbox",
        });
      }
    }
    // The score headers the Sieve script compares: hundredths, and readable.
    const one = readMessages(l, `h2@${S}`, "Spam").find((m) => m.includes("level-5-5.1"))!;
    expect(one).toMatch(/^X-Mailadmin-Spam-Centiscore: 510$/m);
    expect(one).toMatch(/^X-Spam-Score: 5\.10$/m);
  });

  it("spam_rule tag puts [SPAM] into the subject in the inbox, move files into Spam; spam_enabled 0 does neither", async () => {
    const to = [`tagger@${S}`, `mover@${S}`, `nofilter@${S}`];
    await send("sender@outside.test", to, "rule-high", 12);
    await send("sender@outside.test", to, "rule-low", 3);
    await settle();
    expect(landed(`tagger@${S}`, "rule-high")).toEqual({ where: "inbox", subjectLine: "[SPAM] rule-high" });
    expect(landed(`mover@${S}`, "rule-high")).toEqual({ where: "spam", subjectLine: "rule-high" });
    expect(landed(`nofilter@${S}`, "rule-high")).toEqual({ where: "inbox", subjectLine: "rule-high" });
    expect(landed(`tagger@${S}`, "rule-low")).toEqual({ where: "inbox", subjectLine: "rule-low" });
    expect(landed(`mover@${S}`, "rule-low").where).toBe("inbox");
  });

  it("spam_enabled 0 on the domain turns the filter off for its accounts", async () => {
    await send("sender@outside.test", [`anyone@${OFF}`], "domain-off", 15);
    await settle();
    expect(landed(`anyone@${OFF}`, "domain-off").where).toBe("inbox");
    await setDomain(OFF, { spam_enabled: 1 });
    await send("sender@outside.test", [`anyone@${OFF}`], "domain-on", 15);
    await settle();
    expect(landed(`anyone@${OFF}`, "domain-on").where).toBe("spam");
  });

  it("the white list (an address, a domain, and the domain's list) beats a high score", async () => {
    await setDomain(S, { spam_white_list: ["partner.test"] });
    try {
      await send("friend@outside.test", [`friendly@${S}`, `mover@${S}`], "white-address", 20);
      await send("anyone@trusted.test", [`friendly@${S}`], "white-domain", 20);
      await send("someone@partner.test", [`mover@${S}`], "white-domain-level", 20);
      await send("stranger@outside.test", [`friendly@${S}`], "not-white", 20);
      await settle();
      expect(landed(`friendly@${S}`, "white-address").where).toBe("inbox");
      // The same message to an account without that white list is spam: the verdict is per recipient.
      expect(landed(`mover@${S}`, "white-address").where).toBe("spam");
      expect(landed(`friendly@${S}`, "white-domain").where).toBe("inbox");
      expect(landed(`mover@${S}`, "white-domain-level").where).toBe("inbox");
      expect(landed(`friendly@${S}`, "not-white").where).toBe("spam");
    } finally {
      await setDomain(S, { spam_white_list: [] });
    }
  });

  it("the black list refuses an address and a domain at SMTP when every recipient refuses it, else skips only that recipient", async () => {
    const alone = await send("pest@outside.test", [`picky@${S}`], "black-alone");
    expect(alone.accepted).toEqual([]);
    expect(codes(alone)[`picky@${S}`]).toBeGreaterThanOrEqual(500);
    const byDomain = await send("bulk@junk.test", [`picky@${S}`], "black-domain");
    expect(byDomain.accepted).toEqual([]);
    const mixed = await send("pest@outside.test", [`picky@${S}`, `plain@${S}`], "black-mixed");
    expect(mixed.accepted).toEqual([`plain@${S}`]);
    expect(codes(mixed)[`picky@${S}`]).toBeGreaterThanOrEqual(500);
    await settle();
    expect(landed(`picky@${S}`, "black-mixed").where).toBe("none");
    expect(landed(`plain@${S}`, "black-mixed").where).toBe("inbox");
    expect(landed(`picky@${S}`, "black-alone").where).toBe("none");
  });

  it("the black list refuses a logged-in sender of this server too (submission, SASL): by address and by domain", async () => {
    await addAccount(S, "natret");
    await addAccount(S, "unika", { spam_black_list: [`natret@${S}`, OFF] });
    const mixed = await sendLoggedIn(`natret@${S}`, [`unika@${S}`, `plain@${S}`], "black-logged-in");
    expect(mixed.accepted).toEqual([`plain@${S}`]);
    expect(codes(mixed)[`unika@${S}`]).toBe(554);
    const byDomain = await sendLoggedIn(`anyone@${OFF}`, [`unika@${S}`], "black-logged-in-domain");
    expect(byDomain.accepted).toEqual([]);
    expect(codes(byDomain)[`unika@${S}`]).toBe(554);
    // Another logged-in sender is not on the list.
    expect((await sendLoggedIn(`plain@${S}`, [`unika@${S}`], "black-logged-in-other")).accepted).toEqual([
      `unika@${S}`,
    ]);
    await settle();
    expect(landed(`unika@${S}`, "black-logged-in").where).toBe("none");
    expect(landed(`plain@${S}`, "black-logged-in").where).toBe("inbox");
    expect(landed(`unika@${S}`, "black-logged-in-domain").where).toBe("none");
    expect(landed(`unika@${S}`, "black-logged-in-other").where).toBe("inbox");
  });

  it("the domain's black list (by domain and by address) applies to every account; the white list beats it", async () => {
    await setDomain(S, { spam_black_list: ["spammer.test", "nuisance@outside.test"] });
    try {
      const r = await send("x@spammer.test", [`plain@${S}`, `mover@${S}`], "domain-black");
      expect(r.accepted).toEqual([]);
      expect(Object.keys(codes(r)).sort()).toEqual([`mover@${S}`, `plain@${S}`]);
      expect((await send("nuisance@outside.test", [`plain@${S}`], "domain-black-address")).accepted).toEqual([]);
      await setAccount(S, "friendly", { spam_white_list: ["friend@outside.test", "trusted.test", "x@spammer.test"] });
      expect((await send("x@spammer.test", [`friendly@${S}`], "black-but-white")).accepted).toEqual([`friendly@${S}`]);
    } finally {
      await setDomain(S, { spam_black_list: [] });
    }
  });

  it("the GTUBE test string is refused at the end of DATA even with the account's filter off (Rspamd 3.4's own check), and nothing is stored", async () => {
    const gtube = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X";
    const text = message("tester@outside.test", [`nofilter@${S}`], "gtube").replace("A test message.", gtube);
    const refused = await smtpTry(l.ports.smtp, "tester@outside.test", [`nofilter@${S}`], text).then(
      () => null,
      (e: { responseCode?: number; response?: string }) => ({ code: e.responseCode, response: e.response }),
    );
    expect(refused?.code).toBe(554);
    expect(refused?.response).toMatch(/Gtube pattern/i);
    await settle();
    expect(landed(`nofilter@${S}`, "gtube").where).toBe("none");
  });

  it("spam filed into Spam keeps its save date when it is read: spam_delete_after counts from the delivery", async () => {
    const reader = `reader@${S}`;
    await addAccount(S, "reader", { spam_delete_after: 7 });
    await send("sender@outside.test", [reader], "read-spam", 12);
    await settle();
    expect(landed(reader, "read-spam").where).toBe("spam");
    // Housekeeping opens only mailboxes whose usage counts messages (quota_clone's write follows the delivery).
    await waitFor(
      "the reader's messages counted",
      async () => (await getAccountOrThrow(db, await domain(S), "reader")).usageMessages > 0,
    );
    const ctime = () => Math.floor(fs.statSync(maildirFiles(l, reader, "Spam")[0]!).ctimeMs / 1000);
    const delivered = ctime();
    // Nothing has read its save date yet (a read caches it); marking it read renames the file a second later.
    await waitFor("the clock's next second", () => Date.now() >= (delivered + 1) * 1000);
    const conf = ["-c", dovecotConf(l)];
    execFileSync("doveadm", [...conf, "flags", "add", "-u", reader, "\\Seen", "mailbox", "Spam", "all"]);
    expect(maildirFiles(l, reader, "Spam")[0]).toMatch(/:2,S$/);
    const read = ctime();
    expect(read).toBeGreaterThan(delivered);
    // 7 days after the read to the second: past the delivery's 7 days, not the read's.
    const run = await runHousekeeping(db, {
      doveadm: ["doveadm", ...conf],
      now: new Date(read * 1000 + 7 * 86_400_000),
    });
    expect(run.failed).toEqual([]);
    expect(landed(reader, "read-spam").where).toBe("none");
  });
}
