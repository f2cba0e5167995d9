import "server-only";
// The list service's LMTP listener: Postfix delivers list mail here; each recipient gets its own answer (posted,
// held, queued, a subscription request, a recorded bounce, or discarded).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { POSTER_HEADER } from "@/lib/mailserver/antispam-config";
import { isEmail } from "@/lib/schemas/common";
import { parseTarget } from "./addressing";
import { admit, REFUSALS } from "./admission";
import type { ListDistribution } from "./distribution";
import { decodedHeader, firstAddress, isHeadTooLarge, readHeaders, rewrittenStream } from "./message";
import type { ListServiceOptions } from "./options";
import { verpAddress } from "./bounce-address";
import { sendComposed, sendmail } from "./sendmail";
import { newToken, sha256, type ListRow, type ListStore } from "./store";
import type { ListSubscriptions } from "./subscriptions";

/**
 * A socket file at the path is removed before listening: one left by a service killed without closing it would make
 * listen fail with EADDRINUSE. (A second service started on the same path takes it over.) Anything that is not a
 * socket is left for listen to report.
 */
function removeStaleSocket(file: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return;
  }
  if (stat.isSocket()) fs.rmSync(file, { force: true });
}

/** An LMTP answer for one recipient. */
class Reply extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startListLmtp(
  o: ListServiceOptions,
  store: ListStore,
  { distribute, pump }: ListDistribution,
  { requestConfirmation }: ListSubscriptions,
): Promise<SMTPServer> {
  /** Holds a post for its moderators and tells them; the LMTP answer. */
  async function hold(
    list: ListRow,
    file: string,
    poster: string,
    subject: string,
    verified: boolean,
  ): Promise<string> {
    const message = fs.readFileSync(file);
    // Postfix delivers a post again, the same bytes, after a 451 or an answer lost when the service stopped: one
    // already stored is not stored again.
    const earlier = await store.postWithMessage(list.id, message);
    if (earlier?.status === "approved") {
      o.log(`${list.email}: post from ${poster} delivered again, already approved`);
      return "2.0.0 Already approved by a moderator";
    }
    // A new random link each time: the token is kept only as its SHA-256, so an earlier notice's cannot be sent again.
    const token = newToken();
    let id: number;
    if (earlier) {
      // Approved by the old link a moment ago: nothing more to announce.
      if (!(await store.setHeldToken((id = earlier.id), sha256(token)))) return "2.0.0 Decided by a moderator";
    } else id = await store.hold(list.id, poster, subject, message, sha256(token));
    const link = (action: string) => `${o.publicUrl}/moderate/${token}?action=${action}`;
    // The subject is the poster's text, decoded: an encoded word may hold line breaks, which would put lines of the
    // poster's own (a made-up "Zatwierdź" link) into the notice the moderators trust. One line, as the Subject shows it,
    // without C1 controls (U+0085 breaks a line too) or bidirectional overrides that would reorder what follows.
    // eslint-disable-next-line no-control-regex -- control characters are what this pattern is about
    const shown = subject.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, " ");
    // Whether the From was proven (POSTER_HEADER: a DMARC-aligned pass or a login as that address): a post that
    // claims to be the boss's may be anyone's.
    const sender = verified
      ? "Nadawca potwierdzony: wiadomość wysłano po zalogowaniu na ten adres albo przeszła kontrolę DMARC jego domeny."
      : "Nadawca NIEPOTWIERDZONY: wiadomości nie wysłano po zalogowaniu na ten adres ani nie przeszła kontroli DMARC " +
        "jego domeny, więc adres nadawcy mógł zostać podrobiony.";
    const text =
      `Wiadomość od ${poster} do listy ${list.email} czeka na decyzję moderatora.\n${sender}\n\n` +
      `Temat: ${shown}\n\nZatwierdź (zostanie rozesłana do subskrybentów):\n${link("approve")}\n\n` +
      `Odrzuć (zostanie usunięta):\n${link("reject")}\n\n` +
      `Bez decyzji wiadomość zostanie usunięta po ${o.heldDays} dniach. Można też zdecydować w panelu, w edytorze listy.`;
    try {
      for (const moderator of await store.moderators(list.id)) {
        await sendComposed(
          o,
          list,
          list.description || list.email,
          moderator,
          `Do moderacji: ${shown}`.slice(0, 200),
          text,
        );
      }
    } catch (err) {
      // Not kept without its notices: the 451 makes Postfix deliver it again, and every moderator is told then, by a
      // new link. Unless a moderator already decided it by this one, between two notices.
      if (await store.unhold(id)) throw err;
      o.log(`${list.email}: post from ${poster} decided while its notices were sent (${String(err)})`);
      return "2.0.0 Decided by a moderator";
    }
    o.log(`${list.email}: post from ${poster} held for moderation`);
    return "2.0.0 Held for moderation";
  }

  async function handlePost(list: ListRow, file: string, envelopeFrom: string): Promise<string> {
    let h: Awaited<ReturnType<typeof readHeaders>>;
    try {
      h = await readHeaders(file);
    } catch (err) {
      // A header block past what the service reads stays so at every retry: answering 451 kept it in Postfix's queue
      // for days, then returned it to a sender that may be forged. Refused in the SMTP session (admit); here dropped.
      if (!isHeadTooLarge(err)) throw err;
      o.log(`${list.email}: post from ${envelopeFrom || "?"} dropped after acceptance (${REFUSALS.headerTooLarge})`);
      return `2.0.0 Discarded: ${REFUSALS.headerTooLarge}`;
    }
    // One plain address or none: a subscription request goes to it.
    const poster = [firstAddress(h.getFirst("from")), envelopeFrom.toLowerCase()].find(isEmail) ?? "";
    // Decoded, as Rspamd gives them to the policy service at the end of DATA: both must take the same decision.
    const subject = decodedHeader(h.getFirst("subject"));
    const verified = poster !== "" && h.getFirst(POSTER_HEADER.toLowerCase()).trim().toLowerCase() === poster;
    const decision = await admit(store, list, {
      listIds: h.get("list-id").map(decodedHeader),
      autoSubmitted: h.getFirst("auto-submitted"),
      envelopeFrom,
      poster,
      verified,
      subject,
    });
    switch (decision.kind) {
      case "discard":
        // Logged: a list subscribed to another list (its copies come from that list's bounce address) gets nothing.
        o.log(`${list.email}: post from ${envelopeFrom || "<>"} discarded (${decision.reason})`);
        return `2.0.0 Discarded: ${decision.reason}`;
      case "subscribe":
      case "unsubscribe":
        if (!poster) return "2.0.0 Discarded: no sender address to confirm";
        if (await requestConfirmation(list, decision.kind, poster))
          return "2.0.0 A confirmation request is already waiting for this address";
        return decision.kind === "subscribe"
          ? "2.0.0 Subscription request sent for confirmation"
          : "2.0.0 Unsubscription request sent for confirmation";
      case "distribute": {
        // A big list's copies take longer than Postfix waits for an LMTP answer (lmtp_data_done_timeout, 600 s, and
        // it would then send the post again): it is kept in the database and answered at once; the pump sends it.
        const subscribers = await store.subscriberCount(list.id);
        if (subscribers > o.batchSize) {
          await store.queue(list.id, poster, subject, fs.readFileSync(file));
          void pump();
          o.log(`${list.email}: post from ${poster} queued for ${subscribers} subscribers`);
          return `2.0.0 Queued for ${subscribers} subscribers`;
        }
        const n = await distribute(list, file);
        return `2.0.0 Distributed to ${n} subscribers`;
      }
      case "replyto":
        await sendmail(
          o,
          await verpAddress(o.db, list, list.replytoEmail),
          [list.replytoEmail],
          rewrittenStream(file, () => {}),
        );
        o.log(`${list.email}: subscriber's post from ${poster} sent to ${list.replytoEmail}`);
        return `2.0.0 Sent to ${list.replytoEmail}`;
      case "hold":
        return hold(list, file, poster, subject, verified);
      case "refuse":
        // Refused during the SMTP session (Rspamd asks the policy service at the end of DATA); here only when that
        // check did not run. A refusal now would make Postfix return the post to its envelope sender, which may be
        // forged: the post is dropped instead (docs/lists.md).
        o.log(`${list.email}: post from ${poster || "?"} dropped after acceptance (${decision.text})`);
        return `2.0.0 Discarded: ${decision.text}`;
    }
  }

  async function handleBounce(list: ListRow, address: string, file: string, envelopeFrom: string): Promise<string> {
    // A delivery report comes from the null sender (RFC 5321 4.5.5) and is about a subscriber: anything else sent to
    // a bounce address would let anyone write rows (and their text) into the list's bounces.
    if (envelopeFrom !== "" && !/^mailer-daemon@/i.test(envelopeFrom)) return "2.0.0 Discarded: not a delivery report";
    if (!(await store.role(list.id, address)).subscriber) return "2.0.0 Discarded: not a subscriber";
    const head = Buffer.alloc(64 * 1024);
    const fd = fs.openSync(file, "r");
    const n = fs.readSync(fd, head, 0, head.length, 0);
    fs.closeSync(fd);
    const text = head.subarray(0, n).toString("utf8");
    const reason = (/^Diagnostic-Code:\s*(.+)$/im.exec(text) ?? /^Status:\s*(.+)$/im.exec(text))?.[1]?.trim() ?? "";
    await store.recordBounce(list.id, address, reason.slice(0, 500));
    o.log(`${list.email}: bounce recorded for ${address} (${reason})`);
    return "2.0.0 Bounce recorded";
  }

  async function handle(rcpt: string, file: string, envelopeFrom: string): Promise<string | Reply> {
    try {
      const target = await parseTarget(store, o.db, rcpt);
      if (!target) return new Reply(550, "5.1.1 No such list");
      switch (target.kind) {
        case "bounce":
          return await handleBounce(target.list, target.address, file, envelopeFrom);
        case "unsigned bounce":
          // Refused at RCPT by the policy service; here only when that check did not run (Postfix's default_action
          // DUNNO when it does not answer). Dropped, not refused: a refusal now would return it to its sender.
          o.log(`${target.list.email}: mail to ${rcpt} dropped: the bounce address is not signed by this server`);
          return "2.0.0 Discarded: the bounce address is not signed by this server";
        case "post":
          return await handlePost(target.list, file, envelopeFrom);
      }
    } catch (err) {
      if (err instanceof Reply) return err;
      o.log(`${rcpt}: temporary failure: ${(err as Error).message}`);
      return new Reply(451, "4.3.0 Temporary failure, try again later");
    }
  }

  const server = new SMTPServer({
    lmtp: true,
    name: "mailadmin-lists",
    banner: "mailadmin list service",
    disabledCommands: ["AUTH", "STARTTLS"],
    authOptional: true,
    hideSTARTTLS: true,
    logger: false,
    // Postfix keeps idle LMTP connections for a few seconds; do not wait 30 s for them on shutdown.
    closeTimeout: 1000,
    onRcptTo(address, _session, callback) {
      parseTarget(store, o.db, address.address).then(
        (target) =>
          target ? callback() : callback(Object.assign(new Error("5.1.1 No such list"), { responseCode: 550 })),
        () => callback(Object.assign(new Error("4.3.0 Temporary failure, try again later"), { responseCode: 451 })),
      );
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const file = path.join(o.spoolDir, `${Date.now()}-${crypto.randomBytes(6).toString("hex")}.eml`);
      const out = fs.createWriteStream(file, { mode: 0o600 });
      stream.pipe(out);
      out.on("error", (err) => callback(Object.assign(err, { responseCode: 451 })));
      out.on("finish", () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        void (async () => {
          const replies: (string | Reply)[] = [];
          for (const rcpt of session.envelope.rcptTo) replies.push(await handle(rcpt.address, file, from));
          fs.rm(file, { force: true }, () => {});
          callback(null, replies);
        })();
      });
    },
  });

  const at = o.lmtp;
  if ("path" in at) removeStaleSocket(at.path);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    if ("path" in at) server.listen(at.path, () => resolve());
    else server.listen(at.port, at.host, () => resolve());
  });
  // Made with the process's umask; read and write (connect) for the owner and the folder's group only, whatever it is.
  if ("path" in at) fs.chmodSync(at.path, 0o660);
  server.on("error", (err) => o.log(`lmtp: ${err.message}`));
  return server;
}
