import "server-only";
// Handing the service's own messages to Postfix: its sendmail(1) with the message on stdin, one recipient each, the
// envelope sender that recipient's signed VERP bounce address (./bounce-address.ts), so a bounce says whom it is
// about and passes the signature check. Postfix's own VERP (`sendmail -XV`) would write unsigned addresses, whose
// bounces the policy service refuses.
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import MailComposer from "nodemailer/lib/mail-composer";
import type { Db } from "@/db/client";
import { isEmail } from "@/lib/schemas/common";
import { verpAddress } from "./bounce-address";
import { rewrittenStream } from "./message";

export interface SendmailOptions {
  /** The sendmail program (Postfix's; default /usr/sbin/sendmail). */
  sendmail: string;
  /** Postfix's configuration folder when it is not the default one (sendmail -C). */
  postfixConfig?: string;
}

/** Pipes `message` into `sendmail -i -f <from> -- <recipients>`; rejects with sendmail's stderr on failure. */
export function sendmail(o: SendmailOptions, from: string, recipients: string[], message: Readable): Promise<void> {
  // sendmail splits an argument at commas into several recipients: only plain addresses get this far.
  const bad = recipients.find((r) => !isEmail(r.toLowerCase()));
  if (bad !== undefined) return Promise.reject(new Error(`not one address, nothing sent: ${JSON.stringify(bad)}`));
  const args = [...(o.postfixConfig ? ["-C", o.postfixConfig] : []), "-i", "-f", from, "--", ...recipients];
  return new Promise((resolve, reject) => {
    const child = spawn(o.sendmail, args, { stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    child.on("error", reject);
    child.stdin.on("error", () => {
      // sendmail exited early: its exit status and stderr say why.
    });
    message.on("error", (err) => {
      child.kill();
      reject(err);
    });
    message.pipe(child.stdin);
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${o.sendmail} failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
    });
  });
}

/** A message composed by the service itself (requests, welcomes, moderation notices), sent from the list. */
export async function sendComposed(
  o: SendmailOptions & { db: Db },
  list: { name: string; domain: string; email: string },
  fromName: string,
  to: string,
  subject: string,
  text: string,
): Promise<void> {
  const mime = new MailComposer({
    from: { name: fromName, address: list.email },
    to,
    subject,
    text,
    headers: { "Auto-Submitted": "auto-replied", Precedence: "list", "List-Id": `<${listIdOf(list)}>` },
  }).compile();
  const raw = await mime.build();
  await sendmail(
    o,
    await verpAddress(o.db, list, to),
    [to],
    rewrittenStream(raw, () => {}),
  );
}

/** RFC 2919 list identifier: <name>.<domain>. */
export const listIdOf = (list: { name: string; domain: string }) => `${list.name}.${list.domain}`;
