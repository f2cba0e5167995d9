// `account import`: many accounts from another mail server (docs/migration.md), with the password hashes they had
// there, created by the accounts service in one transaction per batch.
import fs from "node:fs";
import type { DomainRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import { parseImportedHash } from "@/lib/mailserver/imported-hashes";
import { mailPasswordHash } from "@/lib/mailserver/sha512-crypt";
import { generatePassword, passwordProblems } from "@/lib/schemas/common";
import { API_HASH_AT_FIRST_SIGN_IN } from "@/lib/server/caller/password";
import { createAccounts, type NewAccount } from "@/lib/server/resources/accounts";
import { findDomain } from "@/lib/server/resources/domains";
import { CLI, describeError, FailedWithReport, intOption, type Command, type Context } from "./args";

export const ACCOUNT_COMMANDS: Command[] = [
  {
    name: "account import",
    args: ["<file>"],
    summary:
      "Creates many accounts from a file of JSON lines, keeping the password hashes of the mail server they come from; accounts already there are left as they are.",
    notes:
      'A line: {"email": "jan@example.org", "password_hash": "{SHA512-CRYPT}$6$...", "description": "Jan", "capacity": 2048}\n' +
      "with any other writable account field of the API (docs/api.md). password_hash is Dovecot's {SCHEME}hash (or a\n" +
      "bare $1$/$5$/$6$/$2y$ crypt hash) in one of: SHA512-CRYPT, SHA256-CRYPT, BLF-CRYPT, MD5-CRYPT, SSHA512, SSHA256,\n" +
      "SSHA; mail logins take the old password at once, and the panel's first sign-in with it makes the account's\n" +
      'API hash (until then /api/v1 refuses the account as a wrong password). Instead of a hash, "password" gives the\n' +
      "password itself; a line with neither gets a generated one, printed once. The domain must be hosted; the\n" +
      "domain's (or its customer's) account and capacity limits apply as to the API's POST. Blank lines and lines\n" +
      "starting with # are skipped; - as the file reads standard input. Consecutive lines of one domain are created\n" +
      "--batch at a time, each batch in one transaction; one output line per account (created, exists, failed with\n" +
      "the reason), printed as soon as its batch is written, then the counts; exit 1 when a line failed. Run it again\n" +
      "after fixing the failed lines: the accounts created are reported as existing. Details: docs/migration.md.",
    example: `${CLI} account import accounts.jsonl`,
    options: {
      batch: {
        type: "string",
        value: "N",
        min: 1,
        max: 1000,
        help: "accounts of one domain written in one transaction (default 500)",
      },
    },
    async run(ctx, { positionals, values }) {
      const file = positionals[0]!;
      const text = fs.readFileSync(file === "-" ? 0 : file, "utf8");
      return importAccounts(ctx, text, intOption(this, values, "batch") ?? 500);
    },
  },
];

interface Line {
  line: number;
  email: string;
  domain: string;
  account?: NewAccount;
  /** The password generated for it, printed once. */
  generated?: string;
  /** Why the line cannot be imported, found before any database work. */
  refused?: string;
}

/** One line of the file: the account to create, or why it is refused. */
function readLine(line: number, raw: string): Line {
  let fields: unknown;
  try {
    fields = JSON.parse(raw);
  } catch {
    return { line, email: raw.slice(0, 40), domain: "", refused: "not a JSON object" };
  }
  if (typeof fields !== "object" || fields === null || Array.isArray(fields))
    return { line, email: raw.slice(0, 40), domain: "", refused: "not a JSON object" };
  const { email, password_hash: imported, password, ...body } = fields as Record<string, unknown>;
  if (typeof email !== "string" || !email.includes("@"))
    return { line, email: raw.slice(0, 40), domain: "", refused: "no email" };
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  const entry = { line, email: address, domain: address.slice(at + 1) };
  const name = address.slice(0, at);
  if (imported !== undefined && password !== undefined)
    return { ...entry, refused: "password_hash or password, not both" };
  if (imported !== undefined) {
    const parsed = typeof imported === "string" ? parseImportedHash(imported) : { refused: "not a string" };
    if ("refused" in parsed) return { ...entry, refused: `password_hash: ${parsed.refused}` };
    return { ...entry, account: { name, body, hashes: { hash: API_HASH_AT_FIRST_SIGN_IN, mailHash: parsed.hash } } };
  }
  if (password !== undefined && (typeof password !== "string" || passwordProblems(password).length))
    return { ...entry, refused: describeError(apiError("invalidPassword", "password")) };
  const clear = typeof password === "string" ? password : generatePassword();
  // The mail hash now (mail works at once), the API's scrypt at the first panel sign-in, as for an imported hash:
  // 10,000 scrypt hashes would take the import minutes (lib/server/caller/auth.ts).
  return {
    ...entry,
    account: { name, body, hashes: { hash: API_HASH_AT_FIRST_SIGN_IN, mailHash: mailPasswordHash(clear) } },
    ...(password === undefined ? { generated: clear } : {}),
  };
}

async function importAccounts(ctx: Context, text: string, batch: number): Promise<string> {
  const db = ctx.db();
  const raws = text
    .split("\n")
    .map((raw, i) => ({ line: i + 1, raw: raw.trim() }))
    .filter(({ raw }) => raw !== "" && !raw.startsWith("#"));
  const counts = { created: 0, exists: 0, failed: 0 };
  const out = async (state: keyof typeof counts, entry: Line, detail = "") => {
    counts[state]++;
    await ctx.print(`${state}\t${entry.email}${detail}`);
  };
  const domains = new Map<string, DomainRow | undefined>();
  // Consecutive lines of one domain, at most `batch` of them, go in one transaction; each is printed once written.
  for (let start = 0; start < raws.length;) {
    const first = readLine(raws[start]!.line, raws[start]!.raw);
    const group = [first];
    while (start + group.length < raws.length && group.length < batch) {
      const next = readLine(raws[start + group.length]!.line, raws[start + group.length]!.raw);
      if (next.domain !== first.domain) break;
      group.push(next);
    }
    start += group.length;
    if (!domains.has(first.domain)) domains.set(first.domain, await findDomain(db, first.domain));
    const domain = domains.get(first.domain);
    const importable = group.filter((e) => !e.refused && domain);
    const outcomes =
      domain && importable.length
        ? await createAccounts(
            db,
            domain,
            importable.map((e) => e.account!),
          )
        : [];
    const byLine = new Map(importable.map((e, i) => [e, outcomes[i]!]));
    for (const entry of group) {
      const outcome = byLine.get(entry);
      const failed = (reason: string) => out("failed", entry, `\tline ${entry.line}: ${reason}`);
      if (entry.refused) await failed(entry.refused);
      else if (!domain) await failed(describeError(apiError("domainNotFound", "domain")));
      else if (outcome!.state === "failed") await failed(describeError(outcome!.error));
      else if (outcome!.state === "exists") await out("exists", entry);
      else await out("created", entry, entry.generated ? `\tpassword ${entry.generated}` : "");
    }
  }
  const total = `${counts.created} created, ${counts.exists} already there, ${counts.failed} failed`;
  if (!counts.failed) return total;
  throw new FailedWithReport(total, `${counts.failed} of ${raws.length} lines failed`);
}
