// Forwarding cases: a forward-only account's SMS notifications, for the mail it forwards.
import { beforeAll, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { accounts, smsQueue } from "@/db/schema";
import { readMessages, waitFor } from "../mail-daemons";
import { addAccount, D, db, l, outbound, send, settle } from "./harness";

const smsTo = (address: string) =>
  outbound()
    .filter((m) => m.to.includes(address))
    .map((m) =>
      m.raw
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join("\n")
        .trim(),
    );
const forwarded = (to: string, subject: string) =>
  outbound().filter((m) => m.to.includes(to) && m.raw.includes(`Subject: ${subject}`));
const rows = async (name: string) => {
  const [a] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.email, `${name}@${D}`));
  return db.select().from(smsQueue).where(eq(smsQueue.accountId, a!.id));
};

export function forwardOnlySmsCases() {
  beforeAll(async () => {
    const sms = (to: string) => ({ sms_phone_number_1: to, sms_send_to: 1, sms_cnt: 1 });
    await addAccount("fwdsms", {
      keep_mail: 0,
      forwards: ["daleko-sms@outside.test"],
      spam_hits: 5,
      spam_rule: "move",
      ...sms("sms-fwd@outside.test"),
    });
    await addAccount("fwdsmsoff", {
      keep_mail: 0,
      forwards: ["daleko-smsoff@outside.test"],
      spam_enabled: 0,
      ...sms("sms-fwdoff@outside.test"),
    });
  });

  it("a forward-only account's SMS numbers are notified of the mail it forwards (filter on or off), not of spam it keeps in its Spam folder", async () => {
    expect((await send("nadawca@outside.test", [`fwdsms@${D}`], "Przekazana 1")).refused).toEqual([]);
    expect((await send("nadawca@outside.test", [`fwdsmsoff@${D}`], "Przekazana 2")).refused).toEqual([]);
    expect((await send("spammer@outside.test", [`fwdsms@${D}`], "Spam 3", 8)).refused).toEqual([]);
    await waitFor("the first SMS", () => smsTo("sms-fwd@outside.test").length === 1, 30_000);
    await waitFor("the second SMS", () => smsTo("sms-fwdoff@outside.test").length === 1, 30_000);
    await settle();
    expect(smsTo("sms-fwd@outside.test")).toEqual(["Przekazana 1: A test message."]);
    expect(smsTo("sms-fwdoff@outside.test")).toEqual(["Przekazana 2: A test message."]);
    expect((await rows("fwdsms")).map((r) => r.status)).toEqual(["sent"]);
    // Forwarded as before; the spam kept in its Spam folder, neither forwarded nor announced.
    expect(forwarded("daleko-sms@outside.test", "Przekazana 1")).toHaveLength(1);
    expect(forwarded("daleko-smsoff@outside.test", "Przekazana 2")).toHaveLength(1);
    expect(forwarded("daleko-sms@outside.test", "Spam 3")).toEqual([]);
    expect(readMessages(l, `fwdsms@${D}`, "Spam").filter((m) => m.includes("Subject: Spam 3"))).toHaveLength(1);
    expect(readMessages(l, `fwdsms@${D}`)).toEqual([]);
  });
}
