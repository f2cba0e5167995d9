// Forwarding cases: a forward-only account's own spam settings apply to the mail it forwards.
import { beforeAll, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { accounts } from "@/db/schema";
import { readMessages, waitFor } from "../mail-daemons";
import { addAccount, addAlias, D, db, l, message, outbound, send, setAccount, settle } from "./harness";

const filler = (kb: number) =>
  Array.from({ length: kb * 16 }, (_, i) => `${String(i).padStart(6, "0")} ${"x".repeat(56)}`).join("\n") + "\n";

/** The copies forwarded to `to` outside (the outbound Maildir) whose Subject line contains `subject`. */
const forwardedTo = (to: string, subject: string) =>
  outbound()
    .filter((m) => m.to.includes(to))
    .map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1]?.trim())
    .filter((s): s is string => !!s?.includes(subject));

export function forwardOnlySpamCases() {
  beforeAll(async () => {
    const only = (to: string, body: Record<string, unknown>) => ({ keep_mail: 0, forwards: [to], ...body });
    await addAccount("fwdtag", only("daleko-tag@outside.test", { spam_hits: 5, spam_rule: "tag" }));
    await addAccount("fwdmove", only("daleko-move@outside.test", { spam_hits: 5, spam_rule: "move" }));
    await addAccount("fwdoff", only("daleko-off@outside.test", { spam_enabled: 0, spam_hits: 2 }));
    await addAccount(
      "fwdwhite",
      only("daleko-white@outside.test", { spam_hits: 2, spam_rule: "move", spam_white_list: ["friend@outside.test"] }),
    );
    await addAccount("fwdblack", only("daleko-black@outside.test", { spam_black_list: ["pest@outside.test"] }));
    await addAccount("fwddolar", only("daleko${x}dolar@outside.test", { spam_hits: 5, spam_rule: "tag" }));
  });

  it("a forward-only account's spam filter applies to what it forwards: tag marks the copy, move keeps spam in its Spam folder and forwards none, spam_enabled 0 forwards it as it came, the white list beats the score, the black list refuses", async () => {
    const spam = await send(
      "spammer@outside.test",
      [`fwdtag@${D}`, `fwdmove@${D}`, `fwdoff@${D}`, `fwdwhite@${D}`],
      "spam-1",
      8,
    );
    expect(spam.refused).toEqual([]);
    expect((await send("friend@outside.test", [`fwdwhite@${D}`], "white-1", 8)).refused).toEqual([]);
    expect((await send("someone@outside.test", [`fwdtag@${D}`, `fwdmove@${D}`], "ham-1")).refused).toEqual([]);
    const black = await send("pest@outside.test", [`fwdblack@${D}`], "black-1");
    expect(black.refused.map((r) => `${r.address} ${r.code}`)).toEqual([`fwdblack@${D} 554`]);
    await settle();

    expect(forwardedTo("daleko-tag@outside.test", "spam-1")).toEqual(["[SPAM] spam-1"]);
    expect(forwardedTo("daleko-tag@outside.test", "ham-1")).toEqual(["ham-1"]);
    expect(forwardedTo("daleko-move@outside.test", "spam-1")).toEqual([]);
    expect(forwardedTo("daleko-move@outside.test", "ham-1")).toEqual(["ham-1"]);
    expect(readMessages(l, `fwdmove@${D}`, "Spam").filter((m) => m.includes("Subject: spam-1"))).toHaveLength(1);
    expect(forwardedTo("daleko-off@outside.test", "spam-1")).toEqual(["spam-1"]);
    expect(forwardedTo("daleko-white@outside.test", "white-1")).toEqual(["white-1"]);
    expect(forwardedTo("daleko-white@outside.test", "spam-1")).toEqual([]);
    // Nothing else is kept: the inboxes of the forward-only accounts stay empty.
    for (const name of ["fwdtag", "fwdmove", "fwdoff", "fwdwhite"]) expect(readMessages(l, `${name}@${D}`)).toEqual([]);
    expect(outbound().filter((m) => m.to.some((t) => /^(spammer|friend|someone|pest)@/.test(t)))).toEqual([]);
  });

  it('a forward holding "${" reaches that address with the filter on (its script requires variables), not the address Sieve would expand it to', async () => {
    expect((await send("someone@outside.test", [`fwddolar@${D}`], "dolar-1")).refused).toEqual([]);
    await settle();
    expect(forwardedTo("daleko${x}dolar@outside.test", "dolar-1")).toEqual(["dolar-1"]);
    expect(forwardedTo("dalekodolar@outside.test", "dolar-1")).toEqual([]);
  });

  it("a hosted forward target's black list drops what a forward brings from a listed sender, its white list beating it; the forwarding accounts keep what they keep", async () => {
    await addAccount("wybredna", {
      spam_black_list: ["pest@outside.test", "junk.test"],
      spam_white_list: ["friend@junk.test"],
    });
    // Its other forward, to another server, takes the message: accepted at RCPT, dropped at wybredna's delivery.
    await addAccount("dowybrednej", { keep_mail: 0, forwards: [`wybredna@${D}`, "daleko-wybredna@outside.test"] });
    await addAccount("kopiawybrednej", { keep_mail: 1, forwards: [`wybredna@${D}`] });
    for (const [from, subject] of [
      ["pest@outside.test", "czarna-adres"],
      ["bulk@junk.test", "czarna-domena"],
      ["friend@junk.test", "biala"],
    ] as const) {
      expect((await send(from, [`dowybrednej@${D}`], `${subject}-fwd`)).refused).toEqual([]);
      expect((await send(from, [`kopiawybrednej@${D}`], `${subject}-kopia`)).refused).toEqual([]);
    }
    await settle();
    const subjects = (address: string) =>
      readMessages(l, address)
        .map((m) => /^Subject: (.*)$/m.exec(m)?.[1]?.trim())
        .sort();
    expect(subjects(`wybredna@${D}`)).toEqual(["biala-fwd", "biala-kopia"]);
    expect(subjects(`kopiawybrednej@${D}`)).toEqual(["biala-kopia", "czarna-adres-kopia", "czarna-domena-kopia"]);
    expect(subjects(`dowybrednej@${D}`)).toEqual([]);
    expect(forwardedTo("daleko-wybredna@outside.test", "-fwd").sort()).toEqual([
      "biala-fwd",
      "czarna-adres-fwd",
      "czarna-domena-fwd",
    ]);
    // Nothing went back to the senders.
    expect(
      outbound().filter((m) => m.to.some((t) => /@(outside|junk)\.test$/.test(t) && /^(pest|bulk|friend)@/.test(t))),
    ).toEqual([]);
  });

  it("a forward-only account whose every forward (through an alias and another forward-only account too) ends at hosted accounts whose black list refuses the sender is refused at RCPT with 554; one forward that takes it gets it accepted", async () => {
    await addAccount("grymasna", {
      spam_black_list: ["pest@outside.test", "junk.test"],
      spam_white_list: ["friend@junk.test"],
    });
    await addAccount("grymasna-domenowo", { spam_black_list: ["junk.test", "pest@outside.test"] });
    await addAlias("alias-grymasnej", `grymasna@${D}`);
    await addAccount("posrednik-grymasnej", { keep_mail: 0, forwards: [`grymasna-domenowo@${D}`] });
    await addAccount("tylko-grymasna", { keep_mail: 0, forwards: [`grymasna@${D}`] });
    await addAccount("okrezna-grymasna", {
      keep_mail: 0,
      forwards: [`alias-grymasnej@${D}`, `posrednik-grymasnej@${D}`],
    });
    await addAccount("zwykla-obok", {});
    await addAccount("grymasna-i-zwykla", { keep_mail: 0, forwards: [`grymasna@${D}`, `zwykla-obok@${D}`] });
    await addAccount("grymasna-i-daleko", { keep_mail: 0, forwards: [`grymasna@${D}`, "daleko-grymas@outside.test"] });
    const refusedCodes = async (from: string, to: string[], subject: string) =>
      (await send(from, to, subject)).refused.map((r) => `${r.address} ${r.code}`);
    const to = ["tylko-grymasna", "okrezna-grymasna", "grymasna-i-zwykla", "grymasna-i-daleko"].map((n) => `${n}@${D}`);
    expect(await refusedCodes("pest@outside.test", to, "grymas-adres")).toEqual([
      `tylko-grymasna@${D} 554`,
      `okrezna-grymasna@${D} 554`,
    ]);
    expect(await refusedCodes("bulk@junk.test", to.slice(0, 2), "grymas-domena")).toEqual([
      `tylko-grymasna@${D} 554`,
      `okrezna-grymasna@${D} 554`,
    ]);
    // grymasna's white list beats its black list.
    expect(await refusedCodes("friend@junk.test", [`tylko-grymasna@${D}`], "grymas-biala")).toEqual([]);
    await settle();
    const subjects = (address: string) =>
      readMessages(l, address)
        .map((m) => /^Subject: (.*)$/m.exec(m)?.[1]?.trim())
        .sort();
    expect(subjects(`grymasna@${D}`)).toEqual(["grymas-biala"]);
    expect(subjects(`grymasna-domenowo@${D}`)).toEqual([]);
    expect(subjects(`zwykla-obok@${D}`)).toEqual(["grymas-adres"]);
    expect(forwardedTo("daleko-grymas@outside.test", "grymas")).toEqual(["grymas-adres"]);
    // Refused while the sender was connected: nothing went back to the senders.
    expect(
      outbound().filter((m) => m.to.some((t) => /@(outside|junk)\.test$/.test(t) && /^(pest|bulk|friend)@/.test(t))),
    ).toEqual([]);
  });

  it("a forward-only account with more forwards than Sieve's default of four redirects reaches every one", async () => {
    const targets = [1, 2, 3, 4, 5, 6].map((i) => `daleko-${i}@outside.test`);
    await addAccount("fwdszesc", {
      keep_mail: 0,
      forwards: targets,
      forward_limit: targets.length,
    });
    expect((await send("someone@outside.test", [`fwdszesc@${D}`], "szesc-1")).refused).toEqual([]);
    await settle();
    for (const t of targets) expect(forwardedTo(t, "szesc-1")).toEqual(["szesc-1"]);
  });

  it("spam a forward-only account would keep in its full Spam folder is refused at the end of DATA, never bounced; other mail is still forwarded", async () => {
    await addAccount("fwdpelny", { capacity: 1, usage_notification_level: 0, spam_enabled: 0 });
    await send("someone@outside.test", [`fwdpelny@${D}`], "wypelnia");
    const big = message("someone@outside.test", [`fwdpelny@${D}`], "wypelnia-duzo").replace(
      "A test message.\n",
      filler(1100),
    );
    const { smtpTry } = await import("../mail-daemons");
    await smtpTry(l.ports.smtp, "someone@outside.test", [`fwdpelny@${D}`], big);
    await settle();
    const usage = async () =>
      (
        await db
          .select({ bytes: accounts.usageBytes })
          .from(accounts)
          .where(eq(accounts.email, `fwdpelny@${D}`))
      )[0]!.bytes;
    await waitFor("fwdpelny full", async () => (await usage()) >= 1024 * 1024 * 0.95, 30_000);
    await setAccount("fwdpelny", {
      keep_mail: 0,
      forwards: ["daleko-pelny@outside.test"],
      spam_enabled: 1,
      spam_hits: 5,
      spam_rule: "move",
    });
    await expect(send("spammer@outside.test", [`fwdpelny@${D}`], "spam-pelny", 8)).rejects.toThrow(
      /554 .*has no room for this message/,
    );
    expect((await send("someone@outside.test", [`fwdpelny@${D}`], "ham-pelny")).refused).toEqual([]);
    await settle();
    expect(forwardedTo("daleko-pelny@outside.test", "ham-pelny")).toEqual(["ham-pelny"]);
    expect(outbound().filter((m) => m.to.includes("spammer@outside.test"))).toEqual([]);
  });
}

/**
 * Aliases to other servers, which Postfix expands without any spam script: spam to one is refused at the end of DATA
 * (docs/mail-server.md, Anti-spam, "An alias to another server"), for the whole message.
 */
export function aliasSpamCases() {
  beforeAll(async () => {
    await addAlias("nazewnatrz", "daleko-alias@outside.test");
    await addAlias("przeznazewnatrz", `nazewnatrz@${D}`);
    await addAccount("tutejsza", { spam_enabled: 0 });
  });

  it("spam to an alias leading to another server is refused at the end of DATA (554 5.7.1), also through a second alias and with a hosted recipient beside it; clean mail is still forwarded", async () => {
    await expect(
      send("spammer@outside.test", [`nazewnatrz@${D}`, `tutejsza@${D}`], "alias-spam-1", 25),
    ).rejects.toThrow(
      new RegExp(
        `554 5\\.7\\.1 nazewnatrz@${D.replace(".", "\\.")} forwards to another server and this message scores as spam \\(\\d+\\.\\d\\d, spam from 9\\.00 on\\): spam is not forwarded outside this server`,
      ),
    );
    await expect(send("spammer@outside.test", [`przeznazewnatrz@${D}`], "alias-spam-2", 25)).rejects.toThrow(
      /554 5\.7\.1 przeznazewnatrz@\S+ forwards to another server .*spam is not forwarded outside this server/,
    );
    expect((await send("someone@outside.test", [`nazewnatrz@${D}`, `tutejsza@${D}`], "alias-ham-1")).refused).toEqual(
      [],
    );
    await settle();
    expect(forwardedTo("daleko-alias@outside.test", "alias-ham-1")).toEqual(["alias-ham-1"]);
    expect(forwardedTo("daleko-alias@outside.test", "alias-spam")).toEqual([]);
    expect(outbound().filter((m) => m.raw.includes("Subject: alias-spam"))).toEqual([]);
    const tutejsza = readMessages(l, `tutejsza@${D}`);
    expect(tutejsza.filter((m) => m.includes("Subject: alias-ham-1"))).toHaveLength(1);
    expect(tutejsza.filter((m) => m.includes("Subject: alias-spam"))).toEqual([]);
  });
}
