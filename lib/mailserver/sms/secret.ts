import "server-only";
// sms_password_N at rest: AES-256-GCM with a key from the environment (SMS_SECRET_KEY: 32 bytes as 64 hex digits
// or base64). Without it, a key file beside the database (sms-secret.key, mode 0600, created on first use) serves,
// so a fresh installation works; docs/mail-server.md says to set the variable and keep the key out of backups.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { databasePath } from "@/db/client";
import { smsSecretKey } from "@/lib/config.mjs";

const PREFIX = "enc1:";
let cachedKey: { source: string; key: Buffer } | undefined;

/** An SMS_SECRET_KEY value (or the key file's text) as the key; throws when it is not 32 bytes. */
export function smsKeyFrom(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, "hex") : Buffer.from(t, "base64");
  if (key.length !== 32) throw new Error("SMS_SECRET_KEY must be 32 bytes (64 hex digits or base64)");
  return key;
}

/** The key in use: SMS_SECRET_KEY, else the key file beside the database. */
export function smsSecretKeyInUse(): Buffer {
  const fromEnv = smsSecretKey();
  const source = fromEnv ? `env:${fromEnv}` : `file:${databasePath()}`;
  if (cachedKey?.source === source) return cachedKey.key;
  let key: Buffer;
  if (fromEnv) key = smsKeyFrom(fromEnv);
  else {
    const file = path.join(path.dirname(path.resolve(databasePath())), "sms-secret.key");
    if (!fs.existsSync(file)) {
      try {
        fs.writeFileSync(file, crypto.randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
    }
    key = smsKeyFrom(fs.readFileSync(file, "utf8"));
  }
  cachedKey = { source, key };
  return key;
}

/** "" stays "" (no password); anything else is stored as enc1:<iv>.<tag>.<ciphertext> (base64url). */
export function encryptSmsPassword(plain: string, withKey?: Buffer): string {
  if (plain === "") return "";
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", withKey ?? smsSecretKeyInUse(), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${PREFIX}${[iv, cipher.getAuthTag(), data].map((b) => b.toString("base64url")).join(".")}`;
}

export function decryptSmsPassword(stored: string, withKey?: Buffer): string {
  if (!stored.startsWith(PREFIX)) return stored; // written before encryption existed
  const [iv, tag, data] = stored
    .slice(PREFIX.length)
    .split(".")
    .map((p) => Buffer.from(p, "base64url"));
  const decipher = crypto.createDecipheriv("aes-256-gcm", withKey ?? smsSecretKeyInUse(), iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(data!), decipher.final()]).toString("utf8");
}
