// Forwarding cases: an account's own forwards to another server send no spam (scored FORWARDED_SPAM_HITS or more)
// there, whatever its spam settings (docs/mail-server.md, Anti-spam, "An account's forwards to another server"):
// a forward-only account is refused at the end of DATA like an alias, one that keeps a copy keeps it and says why.
import { beforeAll, expect, it } from "vitest";
import { readMessages } from "../mail-daemons";
import { addAccount, addAlias, D, l, outbound, send, settle } from "./harness";

/** The Subject lines of the copies forwarded to `to` outside (the outbound Maildir) that contain `subject`. */
const forwardedTo = (to: string, subject: string) =>
  outbound()
    .filter((m) => m.to.includes(to))
    .map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1]?.trim())
    .filter((s): s is string => !!s?.includes(subject));

/** What `name` stored in its inbox whose Subject line contains `subject`, its folded header lines unfolded. */
const stored = (name: string, subject: string) =>
  readMessages(l, `${name}@${D}`)
    .map((m) => m.replace(/\r?\n[ \t]+/g, " "))
    .filter((m) => /^Subject: (.*)$/m.exec(m)?.[1]?.includes(subject));

/** What the copy an account keeps says when its forwards to other servers did not get the message. */
const WITHHELD = /^X-Mailadmin-Forward-Withheld: not forwarded to another server: it scores as spam \(9 or more\)\r?$/m;

const refusal = (rcpt: string) =>
  new RegExp(
    `554 5\\.7\\.1 ${rcpt.replace(/\./g, "\\.")} forwards to another server and this message scores as spam \\(\\d+\\.\\d\\d, spam from 9\\.00 on\\): spam is not forwarded outside this server`,
  );

export function accountForwardSpamCases() {
  beforeAll(async () => {
    const to = (name: string) => `daleko-${name}@outside.test`;
    await addAccount("wyl-tylko", { keep_mail: 0, forwards: [to("wyl-tylko")], spam_enabled: 0 });
    await addAccount("tag-tylko", { keep_mail: 0, forwards: [to("tag-tylko")], spam_hits: 5, spam_rule: "tag" });
    await addAlias("przez-alias", `wyl-tylko@${D}`);
    await addAccount("tutaj-obok", { spam_enabled: 0 });
    await addAccount("wyl-kopia", { keep_mail: 1, forwards: [to("wyl-kopia"), `tutaj-obok@${D}`], spam_enabled: 0 });
    await addAccount("tag-kopia", { keep_mail: 1, forwards: [to("tag-kopia")], spam_hits: 5, spam_rule: "tag" });
    // Reached through another account's hosted forward: its own script holds the spam back and keeps it.
    await addAccount("dalej-tylko", { keep_mail: 0, forwards: [to("dalej-tylko")], spam_enabled: 0 });
    await addAccount("kopia-dalej", { keep_mail: 1, forwards: [`dalej-tylko@${D}`], spam_enabled: 0 });
    // A forward to an alias of this server that leads outside: Postfix expands it with no spam check.
    await addAlias("na-zewnatrz", to("na-zewnatrz"));
    await addAccount("kopia-do-aliasu", { keep_mail: 1, forwards: [`na-zewnatrz@${D}`], spam_enabled: 0 });
  });

  it("spam to a forward-only account forwarding to another server is refused at the end of DATA (554 5.7.1) with its filter off or tagging, also through an alias; clean mail is still forwarded", async () => {
    await expect(send("spammer@outside.test", [`wyl-tylko@${D}`], "konto-spam-1", 25)).rejects.toThrow(
      refusal(`wyl-tylko@${D}`),
    );
    await expect(send("spammer@outside.test", [`tag-tylko@${D}`], "konto-spam-2", 25)).rejects.toThrow(
      refusal(`tag-tylko@${D}`),
    );
    await expect(send("spammer@outside.test", [`przez-alias@${D}`], "konto-spam-3", 25)).rejects.toThrow(
      refusal(`przez-alias@${D}`),
    );
    expect(
      (await send("someone@outside.test", [`wyl-tylko@${D}`, `tag-tylko@${D}`], "konto-czysta-1")).refused,
    ).toEqual([]);
    expect((await send("someone@outside.test", [`przez-alias@${D}`], "konto-czysta-2")).refused).toEqual([]);
    await settle();
    expect(forwardedTo("daleko-wyl-tylko@outside.test", "konto-czysta").sort()).toEqual([
      "konto-czysta-1",
      "konto-czysta-2",
    ]);
    expect(forwardedTo("daleko-tag-tylko@outside.test", "konto-czysta-1")).toEqual(["konto-czysta-1"]);
    expect(outbound().filter((m) => m.raw.includes("Subject: konto-spam"))).toEqual([]);
    expect(stored("wyl-tylko", "konto-")).toEqual([]);
  });

  it("an account that keeps a copy keeps spam by its own settings (filter off: as it came; tag: tagged) but does not forward it to another server, its copy saying why; its hosted forward still gets it, clean mail goes everywhere", async () => {
    const to = [`wyl-kopia@${D}`, `tag-kopia@${D}`, `kopia-dalej@${D}`, `kopia-do-aliasu@${D}`];
    expect((await send("spammer@outside.test", to, "kopia-spam-1", 25)).refused).toEqual([]);
    expect((await send("someone@outside.test", to, "kopia-czysta-1")).refused).toEqual([]);
    await settle();

    const off = stored("wyl-kopia", "kopia-spam-1");
    expect(off.map((m) => /^Subject: (.*)$/m.exec(m)?.[1]?.trim())).toEqual(["kopia-spam-1"]);
    expect(off[0]).toMatch(WITHHELD);
    const tagged = stored("tag-kopia", "kopia-spam-1");
    expect(tagged.map((m) => /^Subject: (.*)$/m.exec(m)?.[1]?.trim())).toEqual(["[SPAM] kopia-spam-1"]);
    expect(tagged[0]).toMatch(WITHHELD);
    // The forward to this server's account stays: that account's own settings apply (its filter is off).
    expect(stored("tutaj-obok", "kopia-spam-1")).toHaveLength(1);
    // Nor through an alias of this server that leads outside (before, redirected there: only accounts are asked).
    expect(stored("kopia-do-aliasu", "kopia-spam-1")[0]).toMatch(WITHHELD);
    expect(forwardedTo("daleko-na-zewnatrz@outside.test", "kopia-")).toEqual(["kopia-czysta-1"]);
    // A forward-only account reached through a hosted forward keeps what it does not send outside.
    const held = stored("dalej-tylko", "kopia-spam-1");
    expect(held).toHaveLength(1);
    expect(held[0]).toMatch(WITHHELD);
    expect(
      outbound().filter((m) => m.raw.includes("Subject: kopia-spam") || m.raw.includes("Subject: [SPAM] kopia-spam")),
    ).toEqual([]);

    for (const name of ["wyl-kopia", "tag-kopia", "dalej-tylko"])
      expect(forwardedTo(`daleko-${name}@outside.test`, "kopia-czysta-1")).toEqual(["kopia-czysta-1"]);
    expect(stored("wyl-kopia", "kopia-czysta-1")[0]).not.toMatch(/^X-Mailadmin-Forward-Withheld:/m);
    expect(stored("dalej-tylko", "kopia-czysta-1")).toEqual([]);
    // Nothing went back to the sender.
    expect(outbound().filter((m) => m.to.some((t) => /^(spammer|someone)@/.test(t)))).toEqual([]);
  });
}
