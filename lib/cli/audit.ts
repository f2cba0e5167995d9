// The operator's commands for the audit log (`audit list`) and the per-domain sign-in policy
// (`domain set --require-2fa`), for an owner locked out: removing an account's second step (`account reset-2fa`)
// and setting a new password (`account set-password`), and for an incident: blocking an account (`account block`).
import type { Db } from "@/db/client";
import { accountPassword } from "@/lib/config.mjs";
import { generatePassword } from "@/lib/schemas/common";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { listAudit } from "@/lib/server/resources/audit";
import { removeSecondStep, setRequire2fa } from "@/lib/server/caller/totp";
import {
  deleteAccounts,
  findAccount,
  getAccountOrThrow,
  resetPassword,
  setBlocked,
} from "@/lib/server/resources/accounts";
import { findAlias } from "@/lib/server/resources/aliases";
import { CLI, intOption, stringOption, UsageError, type Command } from "./args";

/**
 * The domain and the name of an account's address, both checked to exist. An alias's address names the account it
 * leads to instead of "not found": in an incident the operator often has the address a message came from.
 */
async function accountOf(db: Db, command: Command, address: string) {
  const at = address.lastIndexOf("@");
  if (at <= 0 || at === address.length - 1)
    throw new UsageError(`${command.name}: ${address} is not an address (name@domain)`);
  const domain = await getDomainOrThrow(db, address.slice(at + 1));
  const name = address.slice(0, at);
  const account = await findAccount(db, domain, name);
  if (account) return { domain, account };
  const alias = await findAlias(db, domain, name);
  if (alias) throw new Error(`${command.name}: ${address} is an alias of ${alias.target}, not an account`);
  return { domain, account: await getAccountOrThrow(db, domain, name) };
}

const line = (e: Awaited<ReturnType<typeof listAudit>>["entries"][number]) =>
  [
    new Date(e.at).toISOString(),
    e.domain || "-",
    e.actor,
    e.clientIp || "-",
    e.via,
    `${e.action} ${e.resource}`,
    e.names.length > 10 ? `${e.names.slice(0, 10).join(",")},… (${e.names.length})` : e.names.join(","),
    JSON.stringify(e.changes),
  ].join("\t");

export const AUDIT_COMMANDS: Command[] = [
  {
    name: "audit list",
    summary: "Prints the audit log, newest first: time, domain, who, client address, channel, action, names, changes.",
    example: `${CLI} audit list --domain example.org --search jan --limit 20`,
    notes:
      "Entries are kept AUDIT_RETENTION_DAYS days (default 365); `mailserver housekeeping` deletes older ones.\nPasswords and SMS passwords are never recorded, only that they changed.",
    options: {
      domain: { type: "string", value: "<domain>", help: "only this domain's entries" },
      search: {
        type: "string",
        value: "<text>",
        help: "only entries whose actor, address, names or fields contain it",
      },
      limit: {
        type: "string",
        value: "N",
        min: 0,
        help: "how many entries (default 50, at most 500; 0 means the default)",
      },
      page: { type: "string", value: "N", min: 0, help: "which page of that many (default 0, the newest)" },
      json: { type: "boolean", help: "one JSON object a line instead of tab-separated text" },
    },
    async run(ctx, { values }) {
      const { total, entries } = await listAudit(ctx.db(), {
        domain: typeof values.domain === "string" ? values.domain : undefined,
        search: typeof values.search === "string" ? values.search : undefined,
        size: intOption(this, values, "limit") || 50,
        page: intOption(this, values, "page") ?? 0,
      });
      if (values.json === true) return entries.map((e) => JSON.stringify(e)).join("\n");
      return entries.length
        ? [...entries.map(line), `(${entries.length} of ${total})`].join("\n")
        : `no entries (of ${total})`;
    },
  },
  {
    name: "domain set",
    args: ["<domain>"],
    summary: "Sets a domain's sign-in policy: --require-2fa makes its postmaster use two-step sign-in in the panel.",
    example: `${CLI} domain set example.org --require-2fa`,
    notes:
      "The postmaster is asked to set it up at the next sign-in and cannot switch it off. --no-require-2fa lifts it.",
    options: {
      "require-2fa": { type: "boolean", help: "require two-step sign-in (TOTP) of the domain's postmaster" },
      "no-require-2fa": { type: "boolean", help: "stop requiring it (the postmaster may keep it on)" },
    },
    async run(ctx, { positionals, values }) {
      const on = values["require-2fa"] === true;
      const off = values["no-require-2fa"] === true;
      if (on === off)
        throw new UsageError("domain set: give exactly one of --require-2fa or --no-require-2fa (see --help)");
      const db = ctx.db();
      const domain = await getDomainOrThrow(db, positionals[0]!);
      await setRequire2fa(db, domain.id, domain.name, on);
      return `${domain.name}: two-step sign-in ${on ? "required" : "not required"} for postmaster@${domain.name}.`;
    },
  },
  {
    name: "account reset-2fa",
    args: ["<address>"],
    summary:
      "Removes an account's two-step sign-in (and the lock of its wrong codes), for an owner who lost the phone.",
    example: `${CLI} account reset-2fa jan@example.org`,
    notes:
      "The account then signs in to the panel with its password alone and may set the second step up again\n(a postmaster of a domain set with --require-2fa is asked to at the next sign-in). Audited.",
    async run(ctx, { positionals }) {
      const db = ctx.db();
      const { account } = await accountOf(db, this, positionals[0]!.toLowerCase());
      const had = await removeSecondStep(db, account);
      return had
        ? `${account.email}: two-step sign-in removed.`
        : `${account.email}: had no two-step sign-in (its code lock, if any, is lifted).`;
    },
  },
  {
    name: "account set-password",
    args: ["<address>"],
    summary: "Sets an account's password, for an owner or a postmaster who forgot it; a new one is made unless given.",
    example: `${CLI} account set-password postmaster@example.org`,
    notes:
      "The password: --password, else the environment's ACCOUNT_PASSWORD (neither in `ps` nor in the shell's\n" +
      "history), else one generated and printed once. The account password rule applies. The account's panel\n" +
      "sessions end and mail programs need the new one; audited (as the CLI's, the password itself never).",
    options: {
      password: {
        type: "string",
        value: "<pw>",
        help: "the new password; visible in ps: prefer ACCOUNT_PASSWORD or a generated one",
      },
    },
    async run(ctx, { positionals, values }) {
      const db = ctx.db();
      const { domain, account } = await accountOf(db, this, positionals[0]!.toLowerCase());
      const given = stringOption(values, "password") || accountPassword();
      const password = given ?? generatePassword();
      await resetPassword(db, domain, account.name, password);
      return given ? `${account.email}: password set.` : `${account.email}: password set to ${password}`;
    },
  },
  {
    name: "account block",
    args: ["<address>"],
    summary: "Blocks an account (a stolen password, abuse, an unpaid invoice): it signs in nowhere until unblocked.",
    example: `${CLI} account block jan@example.org`,
    notes:
      "As the domain's administrator's block (the API's and the panel's `blocked`): the panel, the API and mail logins\n" +
      "are refused, open IMAP, POP3 and ManageSieve sessions end within 5 s on every mail host, an open SMTP\n" +
      "submission session's next RCPT is refused; mail is still delivered, its forwards, autoresponder and SMS are\n" +
      "suspended. The postmaster cannot be blocked. Audited as the CLI's; blocking a blocked account changes\n" +
      "nothing and is not audited (exit 0). `account unblock` lifts it.",
    async run(ctx, { positionals }) {
      const db = ctx.db();
      const { domain, account } = await accountOf(db, this, positionals[0]!.toLowerCase());
      if (account.blocked) return `${account.email}: already blocked.`;
      await setBlocked(db, domain, account.name, true);
      return `${account.email}: blocked.`;
    },
  },
  {
    name: "account remove",
    args: ["<address>"],
    summary:
      "Deletes an account (a customer's request, abuse) as its domain's administrator would: its aliases and list memberships go, and the mail hosts' `mailserver events` remove its mailbox within seconds.",
    example: `${CLI} account remove jan@example.org --yes`,
    options: { yes: { type: "boolean", help: "confirms the removal (required)" } },
    notes:
      "As the API's DELETE of the account (docs/mail-server.md, Deleted accounts' mailboxes): the domain's aliases\n" +
      "that led to it and the forwards of the customer's accounts to it go too, and mail for an account created\n" +
      "again under the address is deferred until the old mailbox is removed. The postmaster cannot be removed\n" +
      "(`domain remove` removes the whole domain). Audited as the CLI's.",
    async run(ctx, { positionals, values }) {
      const db = ctx.db();
      const { domain, account } = await accountOf(db, this, positionals[0]!.toLowerCase());
      if (values.yes !== true)
        throw new UsageError(`account remove: refusing to remove ${account.email} without --yes`);
      await deleteAccounts(db, domain, [account.name]);
      return `${account.email}: removed; its mailbox goes from the mail host within seconds.`;
    },
  },
  {
    name: "account unblock",
    args: ["<address>"],
    summary: "Lifts an account's block: it signs in again, and its forwards, autoresponder and SMS resume.",
    example: `${CLI} account unblock jan@example.org`,
    notes:
      "Audited as the CLI's; unblocking an account that is not blocked changes nothing (exit 0). After a stolen\n" +
      "password, set a new one first (`account set-password`), and unblock once the thief's SMTP submission\n" +
      "sessions have closed: an open one keeps its login and sends again (docs/mail-server.md, Sending limit).",
    async run(ctx, { positionals }) {
      const db = ctx.db();
      const { domain, account } = await accountOf(db, this, positionals[0]!.toLowerCase());
      if (!account.blocked) return `${account.email}: not blocked.`;
      await setBlocked(db, domain, account.name, false);
      return `${account.email}: unblocked.`;
    },
  },
];
