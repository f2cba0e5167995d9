import "server-only";
// Reading and rewriting a spooled message with mailsplit: the root headers are parsed and rebuilt, the body is
// streamed from the file untouched, so a copy never holds more than a chunk of the message in memory.
import fs from "node:fs";
import { pipeline, Readable, Transform } from "node:stream";
import { Headers, Joiner, Splitter, type MimeChunk } from "mailsplit";
import addressparser from "nodemailer/lib/addressparser";
import mimeFuncs from "nodemailer/lib/mime-funcs";
import libmime from "libmime";
import { isEmail } from "@/lib/schemas/common";

/** The most of a message's header block the service reads (mailsplit's limit; more is an error). */
export const LIST_MAX_HEAD_BYTES = 1024 * 1024;
const MAX_HEAD = LIST_MAX_HEAD_BYTES;

/** The error mailsplit throws for a header block over LIST_MAX_HEAD_BYTES. */
export const isHeadTooLarge = (err: unknown) => /Max header size/i.test((err as Error)?.message ?? "");

/** The root headers of a spooled message (reads only as far as the end of the header block). */
export function readHeaders(file: string): Promise<Headers> {
  return new Promise((resolve, reject) => {
    const input = fs.createReadStream(file);
    const splitter = new Splitter({ ignoreEmbedded: true, maxHeadSize: MAX_HEAD });
    let done = false;
    splitter.on("data", (chunk: MimeChunk) => {
      if (done || chunk.type !== "node") return;
      done = true;
      resolve(chunk.headers);
      input.destroy();
      splitter.destroy();
    });
    splitter.on("error", (err) => done || reject(err));
    splitter.on("end", () => done || resolve(new Headers("")));
    input.on("error", reject);
    input.pipe(splitter);
  });
}

/**
 * The first mailbox of a header value (From, Reply-To), lowercased; "" when there is none or it is not one plain
 * address: `<a@x,b@y>` parses as a single "address" that Postfix's sendmail would split into two recipients.
 */
export function firstAddress(value: string): string {
  for (const a of addressparser(value, { flatten: true })) {
    if (!a.address) continue;
    const address = a.address.trim().toLowerCase();
    return isEmail(address) ? address : "";
  }
  return "";
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A header field's text as a reader (and Rspamd, which the policy service asks) sees it: RFC 2047 words decoded, and
 * raw UTF-8 (RFC 6532), which mailsplit hands over as one Latin-1 character per byte, read as UTF-8 when it is valid.
 */
export function decodedHeader(value: string): string {
  let text = value;
  if (/[\x80-\xff]/.test(value)) {
    try {
      text = strictUtf8.decode(Buffer.from(value, "latin1"));
    } catch {
      // Not UTF-8 (8-bit text in some other charset): kept as read.
    }
  }
  try {
    return libmime.decodeWords(text);
  } catch {
    return text;
  }
}

/**
 * A display name (the From name, the List-Id phrase) as one RFC 5322 phrase, whatever it holds: printable ASCII as a
 * quoted-string, anything else as RFC 2047 encoded words covering all of it, so no part of it can read as an address.
 */
export function phrase(name: string): string {
  if (/^[\x20-\x7e]*$/.test(name)) return `"${name.replace(/["\\]/g, "\\$&")}"`;
  // 75 characters per encoded word, the most RFC 2047 allows: fewer splits (Python shows a space at each).
  return mimeFuncs.encodeWord(name, "Q", 75);
}

/** "Name" <address>, the name as one phrase. */
export const mailbox = (name: string, address: string) => (name ? `${phrase(name)} <${address}>` : `<${address}>`);

/** Postfix's sendmail reads lines ended by LF: turn CRLF into LF across chunk borders. */
class CrlfToLf extends Transform {
  private pendingCr = false;
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null, data?: Buffer) => void) {
    let data = this.pendingCr ? Buffer.concat([Buffer.from("\r"), chunk]) : chunk;
    this.pendingCr = data.length > 0 && data[data.length - 1] === 0x0d;
    if (this.pendingCr) data = data.subarray(0, data.length - 1);
    cb(null, Buffer.from(data.toString("binary").replace(/\r\n/g, "\n"), "binary"));
  }
  override _flush(cb: (err?: Error | null, data?: Buffer) => void) {
    cb(null, this.pendingCr ? Buffer.from("\r") : undefined);
  }
}

/** The spooled message as a stream with its root headers changed by `rewrite`, LF line ends. */
export function rewrittenStream(file: string | Buffer, rewrite: (headers: Headers) => void): Readable {
  const input = typeof file === "string" ? fs.createReadStream(file) : bufferStream(file);
  const splitter = new Splitter({ ignoreEmbedded: true, maxHeadSize: MAX_HEAD });
  let rootSeen = false;
  const edit = new Transform({
    objectMode: true,
    transform(chunk: MimeChunk, _enc, cb) {
      if (chunk.type === "node" && !rootSeen) {
        rootSeen = true;
        rewrite(chunk.headers);
      }
      cb(null, chunk);
    },
  });
  const out = new CrlfToLf();
  pipeline(input, splitter, edit, new Joiner(), out, () => {});
  return out;
}

/** A held message from the database, in 64 KB chunks like a file stream. */
function bufferStream(buffer: Buffer): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < buffer.length; i += 65536) yield buffer.subarray(i, i + 65536);
    })(),
  );
}
