import "server-only";
// Sending a list's posts: a copy to every subscriber, and the pump that sends the approved and queued ones.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { listHeaders, personalUnsubscribe } from "./addressing";
import { verpAddress } from "./bounce-address";
import { eachLimited, personalCopy, smtpCopySender, writeCopyBase } from "./copies";
import { rewrittenStream } from "./message";
import type { ListServiceOptions } from "./options";
import type { ListRow, ListStore } from "./store";
import { unsubscribeToken } from "./unsubscribe";
import { eq } from "drizzle-orm";
import { domains } from "@/db/schema";
import { currentDkimKey } from "@/lib/mailserver/dkim";
import { blackListRefuses } from "@/lib/mailserver/policy/spam-policy";

export interface ListDistribution {
  distribute: (list: ListRow, source: string | Buffer) => Promise<number>;
  /** Sends approved posts and expires old ones now. */
  pump: () => Promise<void>;
  /** Waits for a running pump, then closes the SMTP connections. */
  close: () => Promise<void>;
}

export function listDistribution(o: ListServiceOptions, store: ListStore): ListDistribution {
  const copies = smtpCopySender(o.smtp, o.smtpConnections, o.spoolDir);

  /**
   * A copy to every subscriber, each with its own List-Unsubscribe link and VERP sender: the headers are rewritten
   * once into a spool file, and each copy streams from it (lib/lists/copies.ts); subscribers are read in pages.
   */
  async function distribute(list: ListRow, source: string | Buffer): Promise<number> {
    const file = path.join(o.spoolDir, `${Date.now()}-${crypto.randomBytes(6).toString("hex")}.copy`);
    const base = await writeCopyBase(
      rewrittenStream(source, (h) => listHeaders(h, list, o.publicUrl)),
      file,
    );
    // Signed here, where the copy is made: a listener that spares copies the content filter has no milter to sign them.
    const key = await currentDkimKey(o.db, list.domainId);
    const signing = key && { domainName: list.domain, keySelector: key.selector, privateKey: key.privateKey };
    let after = "";
    let sent = 0;
    let skipped = 0;
    let refusedAtRcpt = 0;
    // Only subscribers of domains hosted here have a black list to ask; the others cost one lookup per domain.
    const hosted = new Map<string, boolean>();
    const refusesList = async (rcpt: string) => {
      const name = rcpt.slice(rcpt.lastIndexOf("@") + 1).toLowerCase();
      if (!hosted.has(name)) {
        const found = await o.db.select({ id: domains.id }).from(domains).where(eq(domains.name, name)).limit(1);
        hosted.set(name, found.length > 0);
      }
      return hosted.get(name)! && (await blackListRefuses(o.db, rcpt, await verpAddress(o.db, list, rcpt)));
    };
    try {
      for (;;) {
        const batch = await store.subscribersAfter(list.id, after, o.batchSize);
        if (batch.length === 0) break;
        await eachLimited(batch, o.smtpConnections, async (rcpt) => {
          // A subscriber here whose own black list refuses the list's envelope sender (its domain, usually) said
          // "never from these": no copy, and no bounce counted against a mailbox that works (docs/lists.md).
          if (await refusesList(rcpt)) {
            skipped++;
            o.log(`${list.email}: no copy for ${rcpt}: its black list refuses the list (not a bounce)`);
            return;
          }
          const refused = await copies.send(
            await verpAddress(o.db, list, rcpt),
            rcpt,
            personalCopy(base, {
              "List-Unsubscribe": personalUnsubscribe(list, o.publicUrl, await unsubscribeToken(o.db, list.id, rcpt)),
            }),
            signing,
          );
          // Refused for good at RCPT: the bounce is known now, not from a DSN later.
          if (refused) {
            refusedAtRcpt++;
            await store.recordBounce(list.id, rcpt, refused.slice(0, 500));
            o.log(`${list.email}: bounce recorded for ${rcpt} (${refused})`);
          }
        });
        sent += batch.length;
        after = batch[batch.length - 1]!;
      }
    } finally {
      fs.rm(file, { force: true }, () => {});
    }
    // Only the copies Postfix took: one refused at RCPT was never sent (its bounce is recorded above).
    const delivered = sent - skipped - refusedAtRcpt;
    const notes = [
      ...(skipped ? [`${skipped} refuse it by their black list`] : []),
      ...(refusedAtRcpt ? [`${refusedAtRcpt} refused by Postfix`] : []),
    ];
    o.log(`${list.email}: distributed to ${delivered} subscribers${notes.length ? ` (${notes.join(", ")})` : ""}`);
    return delivered;
  }

  let pumping: Promise<void> | undefined;
  let again = false;
  let lastExpiry = 0;
  async function pumpOnce(): Promise<void> {
    for (;;) {
      const posts = await store.approved();
      if (posts.length === 0) break;
      for (const post of posts) {
        const list = await store.listById(post.listId);
        if (list) await distribute(list, post.message);
        await store.deleteHeld(post.id);
      }
    }
    if (Date.now() - lastExpiry > 60_000) {
      lastExpiry = Date.now();
      const expired = await store.expire(Date.now() - o.heldDays * 86_400_000);
      if (expired) o.log(`expired ${expired} held posts`);
    }
  }
  /** One pump at a time; a call during a run makes it run once more (an approval may have come in meanwhile). */
  function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return pumping;
    }
    const run = async () => {
      do {
        again = false;
        try {
          await pumpOnce();
        } catch (err) {
          o.log(`pump: ${(err as Error).message}`);
        }
      } while (again);
    };
    pumping = run().finally(() => {
      pumping = undefined;
    });
    return pumping;
  }

  return {
    distribute,
    pump,
    async close() {
      await pumping;
      copies.close();
    },
  };
}
