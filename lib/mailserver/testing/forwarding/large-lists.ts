// Forwarding case: the largest spam lists the API takes (1,000 entries, SPAM_LIST_MAX_CHARACTERS), on an account and
// on its domain, with the most forwards, still make a Sieve script that Dovecot's dict server sends whole. Lists of
// 1,000 entries of 253 characters made a 1.5 MB script the dict server cut short: the account's mail stayed in
// Postfix's queue.
import { beforeAll, expect, it } from "vitest";
import { runCommand } from "@/lib/cli/commands";
import { createAccount } from "@/lib/server/resources/accounts";
import { getDomainOrThrow, updateDomain } from "@/lib/server/resources/domains";
import { MAX_FORWARDS } from "@/lib/schemas/account";
import { largestSpamList } from "../largest-spam-list";
import { readMessages } from "../mail-daemons";
import { db, l, outbound, PW, send, settle } from "./harness";

const DUZE = "duze-listy.test";
const OUT = "daleko-duze@outside.test";
/** Forwards as long as an address may be (254 characters), the first one read below. */
const forwards = [
  OUT,
  ...Array.from(
    { length: MAX_FORWARDS - 1 },
    (_, i) => `${`f${i}-`.padEnd(64, "x")}@${"o".repeat(63)}.${"o".repeat(63)}.${"o".repeat(47)}.outside.test`,
  ),
];

export function largeListsCases() {
  beforeAll(async () => {
    await runCommand(db, ["domain", "add", DUZE, "--postmaster-password", "Admin-pass1"]);
    const domain = await getDomainOrThrow(db, DUZE);
    await updateDomain(db, domain, { spam_white_list: largestSpamList("dw"), spam_black_list: largestSpamList("db") });
    await createAccount(db, await getDomainOrThrow(db, DUZE), "pelne", {
      password: PW,
      keep_mail: 0,
      forward_limit: MAX_FORWARDS,
      forwards,
      spam_hits: 5,
      spam_rule: "tag",
      spam_white_list: largestSpamList("aw"),
      spam_black_list: largestSpamList("ab"),
    });
  });

  it("the largest spam lists on an account and its domain, and the most forwards: its forwards and its spam rule still apply", async () => {
    expect(forwards.every((f) => f.length <= 254)).toBe(true);
    expect((await send("someone@outside.test", [`pelne@${DUZE}`], "duze-ham")).refused).toEqual([]);
    expect((await send("spammer@outside.test", [`pelne@${DUZE}`], "duze-spam", 8)).refused).toEqual([]);
    await settle();
    const forwarded = outbound()
      .filter((m) => m.to.includes(OUT))
      .map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1]?.trim())
      .sort();
    expect(forwarded).toEqual(["[SPAM] duze-spam", "duze-ham"]);
    // Every forward got it: Pigeonhole's default of 32 actions failed the script of 50 redirects.
    const reached = outbound()
      .filter((m) => /^Subject: duze-ham$/m.test(m.raw))
      .flatMap((m) => m.to);
    expect(new Set(reached)).toEqual(new Set(forwards));
    expect(readMessages(l, `pelne@${DUZE}`)).toEqual([]);
  });
}
