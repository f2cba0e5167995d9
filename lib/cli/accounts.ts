// `account import`: many accounts from another mail server (docs/migration.md), with the password hashes they had
// there, created by the accounts service in one transaction per batch.
import readline from "node:readline";
import type { DomainRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import { parseImportedHash } from "@/lib/mailserver/imported-hashes";
import { mailPasswordHash } from "@/lib/mailserver/sha512-crypt";
import { generatePassword, isDomainName, passwordProblems } from "@/lib/schemas/common";
import { API_HASH_AT_FIRST_SIGN_IN } from "@/lib/server/caller/password";
import { createAccounts, type NewAccount } from "@/lib/server/resources/accounts";
import { findDomain } from "@/lib/server/resources/domains";
import { CLI, describeError, FailedWithReport, intOption, openInputStream, type Command, type Context } from "./args";

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
      const input = openInputStream(file);
      const lines = readline.createInterface({ input, crlfDelay: Infinity });
      try {
        return await importAccounts(ctx, lines, intOption(this, values, "batch") ?? 500);
      } finally {
        lines.close();
      }
    },
  },
];

interface Line {
  line: number;
  email: string;
  domain: string;
  name: string;
  body: Record<string, unknown>;
  /** The imported hash as mail_password_hash stores it; else `clear` gets its mail hash when its batch is written. */
  mailHash?: string;
  clear?: string;
  /** The password generated for it, printed once. */
  generated?: boolean;
  /** Why the line cannot be imported, found before any database work. */
  refused?: string;
}

/** One line of the file: the account to create, or why it is refused. */
function readLine(line: number, raw: string): Line {
  const bad = (refused: string): Line => ({ line, email: raw.slice(0, 40), domain: "", name: "", body: {}, refused });
  let fields: unknown;
  try {
    fields = JSON.parse(raw);
  } catch {
    return bad("not a JSON object");
  }
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return bad("not a JSON object");
  const { email, password_hash: imported, password, ...body } = fields as Record<string, unknown>;
  if (typeof email !== "string" || !email.includes("@")) return bad("no email");
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  const entry = { line, email: address, domain: address.slice(at + 1), name: address.slice(0, at), body };
  if (!isDomainName(entry.domain)) return { ...entry, refused: describeError(apiError("invalidDomainName", "domain")) };
  if (imported !== undefined && password !== undefined)
    return { ...entry, refused: "password_hash or password, not both" };
  if (imported !== undefined) {
    const parsed = typeof imported === "string" ? parseImportedHash(imported) : { refused: "not a string" };
    if ("refused" in parsed) return { ...entry, refused: `password_hash: ${parsed.refused}` };
    return { ...entry, mailHash: parsed.hash };
  }
  if (password !== undefined && (typeof password !== "string" || passwordProblems(password).length))
    return { ...entry, refused: describeError(apiError("invalidPassword", "password")) };
  if (typeof password === "string") return { ...entry, clear: password };
  return { ...entry, clear: generatePassword(), generated: true };
}

/**
 * The account to create: the imported hash, or the mail hash of the given or generated password. The API's scrypt
 * comes at the first panel sign-in in both cases (lib/server/caller/auth.ts): 10,000 of them would take the import
 * many minutes.
 */
const newAccount = (e: Line): NewAccount => ({
  name: e.name,
  body: e.body,
  hashes: { hash: API_HASH_AT_FIRST_SIGN_IN, mailHash: e.mailHash ?? mailPasswordHash(e.clear!) },
  password: e.generated ? undefined : e.clear,
});

/**
 * Reads the file as it goes, a batch at a time, so the memory does not grow with the file: read whole, 200,000
 * lines peaked at 634 MB (and a provider's million accounts at several GB); 200,000 lines of unhosted domains
 * took 380 MB read whole and 217 MB read as they go (2026-12-03).
 */
async function importAccounts(ctx: Context, source: AsyncIterable<string>, batch: number): Promise<string> {
  const db = ctx.db();
  const counts = { created: 0, exists: 0, failed: 0 };
  const out = async (state: keyof typeof counts, entry: Line, detail = "") => {
    counts[state]++;
    await ctx.print(`${state}\t${entry.email}${detail}`);
  };
  const domains = new Map<string, DomainRow | undefined>();
  // Consecutive lines of one domain, at most `batch` of them, go in one transaction; each is printed once written.
  const write = async (group: Line[]) => {
    const first = group[0]!;
    if (first.domain && !domains.has(first.domain)) domains.set(first.domain, await findDomain(db, first.domain));
    const domain = domains.get(first.domain);
    const importable = domain ? group.filter((e) => !e.refused) : [];
    const outcomes = importable.length ? await createAccounts(db, domain!, importable.map(newAccount)) : [];
    const byLine = new Map(importable.map((e, i) => [e, outcomes[i]!]));
    for (const entry of group) {
      const outcome = byLine.get(entry);
      const failed = (reason: string) => out("failed", entry, `\tline ${entry.line}: ${reason}`);
      if (entry.refused) await failed(entry.refused);
      else if (!domain || !outcome) await failed(describeError(apiError("domainNotFound", "domain")));
      else if (outcome.state === "failed") await failed(describeError(outcome.error));
      else if (outcome.state === "exists") await out("exists", entry);
      else await out("created", entry, entry.generated ? `\tpassword ${entry.clear}` : "");
    }
  };
  let group: Line[] = [];
  let lineNumber = 0;
  let read = 0;
  for await (const text of source) {
    lineNumber++;
    const raw = text.trim();
    if (raw === "" || raw.startsWith("#")) continue;
    read++;
    const entry = readLine(lineNumber, raw);
    if (group.length && entry.domain !== group[0]!.domain) {
      await write(group);
      group = [];
    }
    group.push(entry);
    // A full batch goes at once, not when the next line comes: a pipe's writer may be waiting on its output.
    if (group.length >= batch) {
      await write(group);
      group = [];
    }
  }
  if (group.length) await write(group);
  const total = `${counts.created} created, ${counts.exists} already there, ${counts.failed} failed`;
  if (!counts.failed) return total;
  throw new FailedWithReport(total, `${counts.failed} of ${read} lines failed`);
}
