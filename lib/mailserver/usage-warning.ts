import "server-only";
// The usage warning delivered into the mailbox itself (Polish, like the panel), as a complete RFC 5322 message.
import crypto from "node:crypto";
import type { AccountRow } from "@/db/schema";

/** RFC 2047 encoded word, for the Polish characters of the subject. */
const encodedWord = (text: string) => `=?UTF-8?B?${Buffer.from(text, "utf8").toString("base64")}?=`;

export function usageWarningMessage(account: AccountRow, now: Date): string {
  const domain = account.email.slice(account.email.indexOf("@") + 1);
  const usedMb = (account.usageBytes / 1048576).toFixed(1);
  const body = [
    "Dzień dobry,",
    "",
    `skrzynka ${account.email} jest zajęta w ${account.usagePercent}% (${usedMb} MB z ${account.capacity} MB).`,
    "Po jej zapełnieniu nowe wiadomości nie będą dostarczane.",
    "Usuń niepotrzebne wiadomości (także z Kosza) albo poproś administratora domeny o większą pojemność.",
    "",
    "Wiadomość wygenerowana automatycznie.",
    "",
  ].join("\r\n");
  return [
    `From: ${encodedWord("Administrator poczty")} <postmaster@${domain}>`,
    `To: <${account.email}>`,
    `Subject: ${encodedWord(`Skrzynka zajęta w ${account.usagePercent}%`)}`,
    `Date: ${now.toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: <usage-${crypto.randomUUID()}@${domain}>`,
    "Auto-Submitted: auto-generated",
    "X-Mailadmin: usage-warning",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    body,
  ].join("\r\n");
}
