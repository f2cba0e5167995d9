// Forwarding cases: aliases and forwards that lead back to where they started.
import { beforeAll, expect, it } from "vitest";
import { readMessages } from "../mail-daemons";
import {
  addAccount,
  addAlias,
  addAliasRow,
  D,
  l,
  MARKER,
  outbound,
  postfixLog,
  send,
  sendLoggedIn,
  setAccount,
  settle,
} from "./harness";

export function loopCases() {
  beforeAll(async () => {
    // A forward-only account forwarding to its own alias; two forward-only accounts forwarding to each other.
    await addAccount("petla", { forwards: [`petla-alias@${D}`], keep_mail: 0 });
    // The API refuses to close these rounds (aliasTargetLoop): written as older data may hold them.
    await addAliasRow("petla-alias", `petla@${D}`);
    await addAccount("ping", { keep_mail: 0, forwards: [MARKER] });
    await addAccount("pong", { keep_mail: 0, forwards: [`ping@${D}`] });
    await setAccount("ping", { forwards: [`pong@${D}`] });
    // Forward-only with its autoresponder on: Dovecot gets the message too, answers and discards it; stored nowhere.
    await addAccount("urlop", {
      keep_mail: 0,
      forwards: [`urlop-alias@${D}`],
      autoresponder_mode: 1,
      autoresponder_body: "Jestem na urlopie.",
    });
    await addAliasRow("urlop-alias", `urlop@${D}`);
    // Legitimate: an account that keeps a copy and forwards to its own alias; an alias to an alias to a mailbox.
    await addAccount("kopia", { keep_mail: 1, forwards: [`kopia-alias@${D}`] });
    await addAlias("kopia-alias", `kopia@${D}`);
    await addAccount("cel");
    await addAlias("drugi", `cel@${D}`);
    await addAlias("pierwszy", `drugi@${D}`);
    // Legitimate: a forward-only account forwarding to its own alias and to a deputy (its script leaves the alias out).
    await addAccount("zastepca");
    await addAccount("dwa", { keep_mail: 0, forwards: [`dwa-alias@${D}`, `zastepca@${D}`] });
    await addAlias("dwa-alias", `dwa@${D}`);
  });

  it("a recipient whose aliases and forwards go round in a loop is refused at RCPT (550 5.4.6); the others get the message, nothing is deferred or returned", async () => {
    const looping = [`petla@${D}`, `petla-alias@${D}`, `ping@${D}`, `pong@${D}`, `urlop@${D}`];
    const fine = [`kopia@${D}`, `pierwszy@${D}`, `dwa@${D}`, MARKER];
    const before = postfixLog().length;
    const outcome = await send("nadawca@outside.test", [...looping, ...fine], "petla-1");
    expect(outcome.accepted.sort()).toEqual([...fine].sort());
    expect(outcome.refused.map((r) => r.address).sort()).toEqual([...looping].sort());
    for (const r of outcome.refused) expect(r.response).toMatch(/^550 5\.4\.6 .*loop/);
    // A logged-in sender of this server is refused the same way (the question Postfix asks every client).
    const own = await sendLoggedIn(MARKER, [`petla@${D}`], "petla-2");
    expect(own.refused.map((r) => `${r.address} ${r.code}`)).toEqual([`petla@${D} 550`]);
    await settle();
    const has = (email: string, subject: string) =>
      readMessages(l, email).filter((m) => m.includes(`Subject: ${subject}`)).length;
    // One copy each: the account that keeps a copy stores it once, the alias chain reaches its mailbox.
    expect(has(`kopia@${D}`, "petla-1")).toBe(1);
    expect(has(`cel@${D}`, "petla-1")).toBe(1);
    // The deputy gets the forward-only account's copy; the account stores none (it was refused as a loop before).
    expect(has(`zastepca@${D}`, "petla-1")).toBe(1);
    expect(has(`dwa@${D}`, "petla-1")).toBe(0);
    expect(postfixLog().slice(before)).not.toMatch(/map nesting|Alias expansion error/);
    expect(outbound().filter((m) => m.to.includes("nadawca@outside.test"))).toEqual([]);
  });
}
