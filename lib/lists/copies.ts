import "server-only";
// Personal copies of a post (RFC 8058 needs a List-Unsubscribe link per subscriber): the root headers are rewritten
// once (mailsplit) into a copy of the spooled message; each subscriber's copy is that header block with its own
// List-Unsubscribe (mailsplit's Headers) followed by the body streamed from the file, handed to Postfix over SMTP
// by nodemailer on a few pooled connections, one message and one VERP envelope sender per subscriber. At most
// `connections` copies are in flight, each a stream, so memory does not grow with the list or the message.
import fs from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Headers } from "mailsplit";
import nodemailer from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";

export interface SmtpTarget {
  host: string;
  port: number;
}

/** The spooled message with its common headers rewritten, split into the header block and where the body starts. */
export interface CopyBase {
  file: string;
  head: Buffer;
  bodyStart: number;
}

const MAX_HEAD = 1024 * 1024;

/** Writes `message` (already rewritten) to `file` and finds its header block. */
export async function writeCopyBase(message: Readable, file: string): Promise<CopyBase> {
  await pipeline(message, fs.createWriteStream(file, { mode: 0o600 }));
  const fd = await fs.promises.open(file, "r");
  try {
    const buf = Buffer.alloc(MAX_HEAD + 2);
    const { bytesRead } = await fd.read(buf, 0, buf.length, 0);
    const text = buf.subarray(0, bytesRead);
    const end = text.indexOf("\n\n");
    // A message without a body: all of it is the header block.
    if (end < 0) return { file, head: Buffer.from(text), bodyStart: bytesRead };
    return { file, head: Buffer.from(text.subarray(0, end + 1)), bodyStart: end + 2 };
  } finally {
    await fd.close();
  }
}

/** One subscriber's copy: the base's header block with `personal` headers replaced in place, then the body. */
export function personalCopy(base: CopyBase, personal: Record<string, string>): Readable {
  const headers = new Headers(base.head);
  for (const [key, value] of Object.entries(personal)) headers.update(key, value);
  const head = headers.build("\n");
  return Readable.from(
    (async function* () {
      yield head;
      yield* fs.createReadStream(base.file, { start: base.bodyStart });
    })(),
  );
}

/** The list domain's signing key (lib/mailserver/dkim.ts `currentDkimKey`), which signs every copy. */
export interface CopySigning {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/**
 * nodemailer's default list (RFC 6376 §5.4's suggestions, List-Unsubscribe among them) and List-Unsubscribe-Post,
 * which RFC 8058 §4 wants the signature to cover as well.
 */
const SIGNED_HEADERS =
  "From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:" +
  "Content-ID:Content-Description:In-Reply-To:References:List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:" +
  "List-Subscribe:List-Post:List-Owner:List-Archive:Precedence";

export interface CopySender {
  /**
   * Hands one copy over, DKIM-signed with `signing` when the list's domain has a key. Resolves with Postfix's answer
   * when it refused the recipient for good (5xx at RCPT: an unknown local address, say), which is a bounce known at
   * once; throws on anything temporary.
   */
  send(from: string, to: string, message: Readable, signing?: CopySigning): Promise<string | undefined>;
  close(): void;
}

/**
 * Pooled SMTP connections to Postfix (a listener that trusts this host: no SASL, no content filter needed). A signed
 * copy larger than nodemailer's threshold waits for its signature in `spoolDir`, not in memory.
 */
export function smtpCopySender(target: SmtpTarget, connections: number, spoolDir: string): CopySender {
  const transport = nodemailer.createTransport({
    host: target.host,
    port: target.port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: connections,
    maxMessages: Infinity,
    name: "mailadmin-lists",
  } as SMTPPool.Options);
  return {
    async send(from, to, message, signing) {
      try {
        await transport.sendMail({
          envelope: { from, to: [to] },
          raw: message,
          ...(signing && { dkim: { ...signing, headerFieldNames: SIGNED_HEADERS, cacheDir: spoolDir } }),
        });
        return undefined;
      } catch (err) {
        const refusal =
          (err as { code?: string; rejectedErrors?: { responseCode?: number; response?: string }[] }).code ===
          "EENVELOPE"
            ? (err as { rejectedErrors?: { responseCode?: number; response?: string }[] }).rejectedErrors?.[0]
            : undefined;
        if (refusal && (refusal.responseCode ?? 0) >= 500) return refusal.response ?? "refused";
        throw err;
      }
    },
    close: () => transport.close(),
  };
}

/** Runs `fn` for every item with at most `limit` at a time; the first failure stops taking new items and is thrown. */
export async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: Error | undefined;
  const worker = async () => {
    while (failed === undefined && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (err) {
        failed ??= err instanceof Error ? err : new Error(String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed !== undefined) throw failed;
}
