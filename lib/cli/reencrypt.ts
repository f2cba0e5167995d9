// `db reencrypt`: after TOTP_ENCRYPTION_KEY or SMS_SECRET_KEY is replaced, the values the old key encrypted (the
// accounts' TOTP secrets, sms_password_1/2) are decrypted with it (the *_OLD variable) and written again under the
// key now set. Without it a new TOTP key makes every enrolled account's code a server error, and a new SMS key
// makes every stored gateway password unreadable (docs/deploy.md, section 8).
import { eq, like, or } from "drizzle-orm";
import { accounts, accountTotp } from "@/db/schema";
import { withTransaction } from "@/db/transaction";
import { oldEncryptionKeys } from "@/lib/config.mjs";
import { decryptSmsPassword, encryptSmsPassword, smsKeyFrom, smsSecretKeyInUse } from "@/lib/mailserver/sms/secret";
import { decryptSecret, encryptSecret, isConfigured, totpKeyFrom } from "@/lib/server/caller/totp";
import { env } from "@/lib/server/env";
import { CLI, FailedWithReport, UsageError, type Command } from "./args";

type Outcome = "current" | "reencrypted" | "unreadable";

/** One stored value: readable with the new key (left), with the old (written again), or with neither. */
function rekey(stored: string, decryptNew: () => unknown, reencrypt: () => string): [Outcome, string] {
  try {
    decryptNew();
    return ["current", stored];
  } catch {
    try {
      return ["reencrypted", reencrypt()];
    } catch {
      return ["unreadable", stored];
    }
  }
}

export const REENCRYPT_COMMANDS: Command[] = [
  {
    name: "db reencrypt",
    summary:
      "After a new TOTP_ENCRYPTION_KEY or SMS_SECRET_KEY: writes the values the old key encrypted again under the new one.",
    example: `${CLI} db reencrypt`,
    notes:
      "The old keys come from TOTP_ENCRYPTION_KEY_OLD and SMS_SECRET_KEY_OLD (either or both), the new ones from\n" +
      "TOTP_ENCRYPTION_KEY and SMS_SECRET_KEY. Each TOTP secret and sms_password_N that the new key cannot read is\n" +
      "decrypted with the old one and written under the new; values already under the new key are left alone, so\n" +
      "the command may run again. Prints the counts; exit 1 when a value reads with neither key (named by account).",
    async run(ctx) {
      const old = oldEncryptionKeys();
      if (!old.totp && !old.sms)
        throw new UsageError("db reencrypt: set TOTP_ENCRYPTION_KEY_OLD or SMS_SECRET_KEY_OLD to the key replaced");
      const db = ctx.db();
      const report: string[] = [];
      const unreadable: string[] = [];
      if (old.totp) {
        const oldKey = totpKeyFrom(old.totp);
        if (!oldKey)
          throw new UsageError("db reencrypt: TOTP_ENCRYPTION_KEY_OLD is not 32 bytes (64 hex digits or base64)");
        if (!isConfigured())
          throw new UsageError(
            "db reencrypt: TOTP_ENCRYPTION_KEY (the new key) is not 32 bytes (64 hex digits or base64)",
          );
        if (env().TOTP_ENCRYPTION_KEY === old.totp)
          throw new UsageError("db reencrypt: TOTP_ENCRYPTION_KEY_OLD is the key in use");
        const counts = { current: 0, reencrypted: 0, unreadable: 0 };
        await withTransaction(db, async (tx) => {
          const rows = await tx
            .select({ id: accountTotp.accountId, secret: accountTotp.secret, email: accounts.email })
            .from(accountTotp)
            .innerJoin(accounts, eq(accounts.id, accountTotp.accountId));
          for (const row of rows) {
            const [outcome, value] = rekey(
              row.secret,
              () => decryptSecret(row.secret),
              () => encryptSecret(decryptSecret(row.secret, oldKey)),
            );
            counts[outcome]++;
            if (outcome === "unreadable") unreadable.push(`${row.email} (TOTP secret)`);
            if (outcome === "reencrypted")
              await tx.update(accountTotp).set({ secret: value }).where(eq(accountTotp.accountId, row.id));
          }
        });
        report.push(
          `TOTP secrets: ${counts.reencrypted} re-encrypted, ${counts.current} already under the new key, ${counts.unreadable} unreadable`,
        );
      }
      if (old.sms) {
        let oldKey: Buffer;
        try {
          oldKey = smsKeyFrom(old.sms);
        } catch {
          throw new UsageError("db reencrypt: SMS_SECRET_KEY_OLD is not 32 bytes (64 hex digits or base64)");
        }
        if (smsSecretKeyInUse().equals(oldKey))
          throw new UsageError("db reencrypt: SMS_SECRET_KEY_OLD is the key in use");
        const counts = { current: 0, reencrypted: 0, unreadable: 0 };
        await withTransaction(db, async (tx) => {
          // Only the accounts holding an encrypted value: a provider's million accounts, few with an SMS gateway,
          // would otherwise all be held in memory at once.
          const rows = await tx
            .select({ id: accounts.id, email: accounts.email, p1: accounts.smsPassword1, p2: accounts.smsPassword2 })
            .from(accounts)
            .where(or(like(accounts.smsPassword1, "enc1:%"), like(accounts.smsPassword2, "enc1:%")));
          for (const row of rows) {
            const set: { smsPassword1?: string; smsPassword2?: string } = {};
            for (const [column, stored, n] of [
              ["smsPassword1", row.p1, 1],
              ["smsPassword2", row.p2, 2],
            ] as const) {
              if (!stored.startsWith("enc1:")) continue;
              const [outcome, value] = rekey(
                stored,
                () => decryptSmsPassword(stored),
                () => encryptSmsPassword(decryptSmsPassword(stored, oldKey)),
              );
              counts[outcome]++;
              if (outcome === "unreadable") unreadable.push(`${row.email} (sms_password_${n})`);
              if (outcome === "reencrypted") set[column] = value;
            }
            if (Object.keys(set).length) await tx.update(accounts).set(set).where(eq(accounts.id, row.id));
          }
        });
        report.push(
          `SMS passwords: ${counts.reencrypted} re-encrypted, ${counts.current} already under the new key, ${counts.unreadable} unreadable`,
        );
      }
      const output = report.join("\n");
      if (unreadable.length)
        throw new FailedWithReport(
          `${output}\n${unreadable.map((u) => `unreadable: ${u}`).join("\n")}`,
          `${unreadable.length} value(s) read with neither key: left as they were`,
        );
      return output;
    },
  },
];
