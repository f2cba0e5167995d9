// Where the sandbox's Postfix "sends" mail for domains the database does not host: an LMTP server (nodemailer's
// smtp-server in LMTP mode) that files every message into one Maildir, so nothing leaves the machine and a
// reviewer can read what would have. Each file starts with the envelope as X-Sandbox-Envelope-* headers.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";

export function maildirNew(dir: string): string[] {
  const files: string[] = [];
  for (const sub of ["new", "cur"]) {
    const d = path.join(dir, sub);
    if (fs.existsSync(d)) files.push(...fs.readdirSync(d).map((f) => path.join(d, f)));
  }
  return files;
}

export function writeToMaildir(dir: string, content: Buffer): string {
  for (const sub of ["tmp", "new", "cur"]) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const name = `${Date.now()}.${process.pid}_${crypto.randomBytes(6).toString("hex")}.${os.hostname()}`;
  const tmp = path.join(dir, "tmp", name);
  fs.writeFileSync(tmp, content);
  const target = path.join(dir, "new", name);
  fs.renameSync(tmp, target);
  return target;
}

export interface OutboundSink {
  close(): Promise<void>;
}

export async function startOutboundSink(maildir: string, port: number): Promise<OutboundSink> {
  const server = new SMTPServer({
    lmtp: true,
    name: "outbound.sandbox.test",
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const envelope =
          `X-Sandbox-Envelope-From: <${session.envelope.mailFrom ? session.envelope.mailFrom.address : ""}>\r\n` +
          `X-Sandbox-Envelope-To: ${session.envelope.rcptTo.map((r) => `<${r.address}>`).join(", ")}\r\n`;
        try {
          writeToMaildir(maildir, Buffer.concat([Buffer.from(envelope), ...chunks]));
          // LMTP: smtp-server repeats the answer once per recipient.
          callback(null, "2.0.0 filed in the sandbox's outbound Maildir");
        } catch (err) {
          callback(err as Error);
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return { close: () => new Promise((resolve) => server.close(() => resolve())) };
}
