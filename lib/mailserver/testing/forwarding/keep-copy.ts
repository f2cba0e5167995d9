// Forwarding cases: an account that keeps a copy of what it forwards (keep_mail 1) forwards after its spam filter,
// like a forward-only account. Before, Postfix expanded it to itself and each forward (mail_alias_map), so the
// forwarded copies never passed its filter: spam its "move" rule filed in its Spam folder left for its forward
// untouched.
import { beforeAll, expect, it } from "vitest";
import { readMessages, waitFor } from "../mail-daemons";
import { addAccount, D, l, outbound, send, settle } from "./harness";

/** The Subject lines of the copies forwarded to `to` outside (the outbound Maildir) that contain `subject`. */
const forwardedTo = (to: string, subject: string) =>
  outbound()
    .filter((m) => m.to.includes(to))
    .map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1]?.trim())
    .filter((s): s is string => !!s?.includes(subject));

/** The Subject lines of what `name` stored in `folder` that contain `subject`. */
const kept = (name: string, subject: string, folder = "") =>
  readMessages(l, `${name}@${D}`, folder)
    .map((m) => /^Subject: (.*)$/m.exec(m)?.[1]?.trim())
    .filter((s): s is string => !!s?.includes(subject));

export function keepCopySpamCases() {
  beforeAll(async () => {
    const keeps = (to: string, body: Record<string, unknown>) => ({ keep_mail: 1, forwards: [to], ...body });
    await addAccount("kopmove", keeps("daleko-kmove@outside.test", { spam_hits: 5, spam_rule: "move" }));
    await addAccount("koptag", keeps("daleko-ktag@outside.test", { spam_hits: 5, spam_rule: "tag" }));
    await addAccount("kopoff", keeps("daleko-koff@outside.test", { spam_enabled: 0, spam_hits: 2 }));
    await addAccount("kopblok", keeps("daleko-kblok@outside.test", { spam_enabled: 0, blocked: 1 }));
    await addAccount(
      "kopurlop",
      keeps("daleko-kurlop@outside.test", {
        spam_hits: 5,
        spam_rule: "move",
        autoresponder_mode: 1,
        autoresponder_body: "Jestem na urlopie (kopia).",
      }),
    );
  });

  it("an account that keeps a copy (keep_mail 1) forwards after its spam filter: move keeps spam in its Spam folder and forwards none, tag forwards it tagged, spam_enabled 0 forwards it as it came; clean mail is kept and forwarded", async () => {
    const all = ["kopmove", "koptag", "kopoff", "kopblok"].map((n) => `${n}@${D}`);
    expect((await send("spammer@outside.test", all, "CHEAP PILLS", 8)).refused).toEqual([]);
    expect((await send("someone@outside.test", all, "czysta-1")).refused).toEqual([]);
    await settle();

    // move: the copy in Spam, nothing for the forward; the clean message in the inbox and forwarded.
    expect(kept("kopmove", "CHEAP PILLS", "Spam")).toEqual(["CHEAP PILLS"]);
    expect(kept("kopmove", "CHEAP PILLS")).toEqual([]);
    expect(forwardedTo("daleko-kmove@outside.test", "CHEAP PILLS")).toEqual([]);
    expect(kept("kopmove", "czysta-1")).toEqual(["czysta-1"]);
    expect(forwardedTo("daleko-kmove@outside.test", "czysta-1")).toEqual(["czysta-1"]);
    // tag: the copy and the forward both tagged.
    expect(kept("koptag", "CHEAP PILLS")).toEqual(["[SPAM] CHEAP PILLS"]);
    expect(forwardedTo("daleko-ktag@outside.test", "CHEAP PILLS")).toEqual(["[SPAM] CHEAP PILLS"]);
    expect(kept("koptag", "czysta-1")).toEqual(["czysta-1"]);
    expect(forwardedTo("daleko-ktag@outside.test", "czysta-1")).toEqual(["czysta-1"]);
    // Filter off: kept and forwarded as it came.
    expect(kept("kopoff", "CHEAP PILLS")).toEqual(["CHEAP PILLS"]);
    expect(forwardedTo("daleko-koff@outside.test", "CHEAP PILLS")).toEqual(["CHEAP PILLS"]);
    expect(forwardedTo("daleko-koff@outside.test", "czysta-1")).toEqual(["czysta-1"]);
    // Blocked: everything kept, its forwards suspended.
    expect(kept("kopblok", "CHEAP PILLS")).toEqual(["CHEAP PILLS"]);
    expect(kept("kopblok", "czysta-1")).toEqual(["czysta-1"]);
    expect(outbound().filter((m) => m.to.includes("daleko-kblok@outside.test"))).toEqual([]);
    // Each forward got one copy of each message it was given (no second round through the account).
    expect(outbound().filter((m) => m.to.includes("daleko-koff@outside.test"))).toHaveLength(2);
  });

  it("an account that keeps a copy and has its autoresponder on keeps, forwards and answers clean mail; spam it keeps in Spam is neither forwarded nor answered", async () => {
    expect((await send("urlopowicz@outside.test", [`kopurlop@${D}`], "czysta-2")).refused).toEqual([]);
    expect((await send("spammer2@outside.test", [`kopurlop@${D}`], "CHEAP PILLS 2", 15)).refused).toEqual([]);
    await waitFor(
      "the autoresponder's answer",
      () => outbound().some((m) => m.to.includes("urlopowicz@outside.test")),
      30_000,
    );
    await settle();
    expect(kept("kopurlop", "czysta-2")).toEqual(["czysta-2"]);
    expect(forwardedTo("daleko-kurlop@outside.test", "czysta-2")).toEqual(["czysta-2"]);
    // The sender was verified here (outside.test passes SPF: the harness's DNS record); the forward leaves without
    // the header saying so, as without the other internal headers (smtp_header_checks).
    expect(readMessages(l, `kopurlop@${D}`).find((m) => m.includes("czysta-2"))).toMatch(
      /^X-Mailadmin-Sender-Verified: 1\r?$/m,
    );
    const forwarded = outbound().find((m) => m.to.includes("daleko-kurlop@outside.test") && m.raw.includes("czysta-2"));
    expect(forwarded!.raw).not.toMatch(/^X-Mailadmin-Sender-Verified:/im);
    expect(outbound().find((m) => m.to.includes("urlopowicz@outside.test"))!.raw).toContain(
      "Jestem na urlopie (kopia).",
    );
    expect(kept("kopurlop", "CHEAP PILLS 2", "Spam")).toEqual(["CHEAP PILLS 2"]);
    expect(forwardedTo("daleko-kurlop@outside.test", "CHEAP PILLS 2")).toEqual([]);
    expect(outbound().filter((m) => m.to.includes("spammer2@outside.test"))).toEqual([]);
  });
}
