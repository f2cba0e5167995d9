// The operator's command table (contract §1) and its dispatcher: the commands of each group come from their own
// module (domains, customers, db, mailserver, lists, audit...); usage reports and demo data are here. Each declares
// its options; `--help` works at every level.
import type { Db } from "@/db/client";
import { recordUsage } from "@/lib/server/resources/accounts";
import { ACCOUNT_COMMANDS } from "./accounts";
import { CLI, commandHelp, FailedWithReport, intOption, parseCommandArgs, UsageError, type Command } from "./args";
import { AUDIT_COMMANDS } from "./audit";
import { CUSTOMER_COMMANDS } from "./customers";
import { DB_COMMANDS } from "./database";
import { REENCRYPT_COMMANDS } from "./reencrypt";
import { seedDemo } from "./demo";
import { DOMAIN_COMMANDS } from "./domains";
import { LIST_COMMANDS } from "./lists";
import { MAIL_HOST_COMMANDS } from "./mail-hosts";
import { MAILSERVER_COMMANDS } from "./mailserver";
import { SANDBOX_COMMANDS } from "./sandbox";

const OTHER_COMMANDS: Command[] = [
  {
    name: "usage report",
    args: ["<email>"],
    summary:
      "Records a mailbox's usage by hand (Dovecot's quota_clone writes it back by itself; this is for other mail servers).",
    example: `${CLI} usage report jan@example.org --bytes 536870912 --messages 1200`,
    options: {
      bytes: { type: "string", value: "N", min: 0, required: true, help: "bytes used (required)" },
      messages: { type: "string", value: "N", min: 0, help: "number of messages" },
    },
    async run(ctx, { positionals, values }) {
      const bytes = intOption(this, values, "bytes");
      if (bytes === undefined) throw new UsageError("usage report: --bytes is required");
      const row = await recordUsage(
        ctx.db(),
        positionals[0]!.toLowerCase(),
        bytes,
        intOption(this, values, "messages"),
      );
      return `${row.email}: ${row.usageBytes} bytes, ${row.usagePercent}% of ${row.capacity} MB`;
    },
  },
  {
    name: "demo",
    summary: "Seeds a demo domain with accounts, aliases and lists, and prints the logins.",
    example: `${CLI} demo`,
    createsDatabase: true,
    run: (ctx) => seedDemo(ctx.db()),
  },
];

export const COMMANDS: Command[] = [
  ...DOMAIN_COMMANDS,
  ...CUSTOMER_COMMANDS,
  ...ACCOUNT_COMMANDS,
  ...OTHER_COMMANDS,
  ...DB_COMMANDS,
  ...REENCRYPT_COMMANDS,
  ...SANDBOX_COMMANDS,
  ...MAIL_HOST_COMMANDS,
  ...MAILSERVER_COMMANDS,
  ...LIST_COMMANDS,
  ...AUDIT_COMMANDS,
];

const GROUPS: Record<string, string> = {
  domain: "hosted domains and their limits",
  usage: "mailbox usage",
  db: "the database: daily upkeep, migrations, backup and restore, re-encryption after a new key",
  mailserver: "Postfix and Dovecot: configuration, daily housekeeping, self-test",
  lists: "the mailing list service (LMTP for list addresses, confirmation and moderation pages)",
  demo: "demo data",
  audit: "the audit log of changes",
  account: "accounts: bulk import from another mail server; one account's password, two-step sign-in and mail host",
};

function overview(commands: Command[], title: string): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    title,
    "",
    "Commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    "",
    `Every command takes --help. DATABASE_URL (postgres://...) names a PostgreSQL database, else DATABASE_PATH the SQLite file (default data/mail.db).`,
    "A relative file or folder name is taken from the directory npm run was started in (INIT_CWD); - is standard input.",
    "A file to read that is missing or a folder ends the command with one line naming it (exit status 1).",
    "",
    "Example:",
    `  ${commands[0]!.example}`,
  ].join("\n");
}

export const TOP_HELP = overview(COMMANDS, `Usage: ${CLI} <command> [arguments] [--options]`);

/**
 * Runs one command line. `db` is the database or a function opening it (so `--help` and `db restore` never open
 * or create one). Throws UsageError for wrong usage, anything else for a failure.
 */
/** The command `argv` selects, if any. */
const selected = (argv: string[]) => COMMANDS.find((c) => c.name.split(" ").every((w, i) => argv[i] === w));

/**
 * True when running `argv` uses the database the CLI opens, which on PostgreSQL it opens and migrates first. Not for
 * help (`domain list --help` answered with the database down, and applied pending migrations when it was up), wrong
 * usage, or a command that opens its own connection or none (`mailserver sandbox send`: SMTP only, as needed in an
 * outage rehearsal with the primary down).
 */
export function usesDatabase(argv: string[]): boolean {
  const command = selected(argv);
  if (!command || command.ownConnection) return false;
  try {
    return parseCommandArgs(command, argv.slice(command.name.split(" ").length)) !== "help";
  } catch {
    return false; // wrong usage: runCommand parses again and says what is wrong
  }
}
export const createsDatabase = (argv: string[]) => selected(argv)?.createsDatabase === true;

/**
 * Runs the command `argv` names and gives its output. Lines a command prints as it goes go to `print` (the CLI's
 * stdout); without one they are kept and come first in the output, or in a failure's report.
 */
export async function runCommand(
  db: Db | (() => Db),
  argv: string[],
  print?: (line: string) => Promise<void>,
): Promise<string> {
  const printed: string[] = [];
  const ctx = {
    db: typeof db === "function" ? db : () => db,
    print: print ?? ((line: string) => Promise.resolve(void printed.push(line))),
  };
  const withPrinted = (output: string) => [...printed, output].filter((s) => s !== "").join("\n");
  const [first] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") return TOP_HELP;
  const command = selected(argv);
  if (!command) {
    // The longest run of words that starts longer commands names a group ("mailserver", "mailserver host").
    let depth = 0;
    let group: Command[] = [];
    for (let n = 1; n <= argv.length; n++) {
      const longer = COMMANDS.filter((c) => {
        const words = c.name.split(" ");
        return words.length > n && argv.slice(0, n).every((w, i) => words[i] === w);
      });
      if (!longer.length) break;
      [depth, group] = [n, longer];
    }
    if (!group.length) throw new UsageError(`unknown command '${first}' (see --help)`);
    const prefix = argv.slice(0, depth).join(" ");
    const next = argv[depth];
    if (next === undefined || next === "--help" || next === "-h") {
      const words = [...new Set(group.map((c) => c.name.split(" ")[depth]))].join("|");
      const about = GROUPS[prefix] ? `  (${GROUPS[prefix]})` : "";
      return overview(group, `Usage: ${CLI} ${prefix} <${words}> ...${about}`);
    }
    throw new UsageError(`unknown command '${prefix} ${next}' (see ${prefix} --help)`);
  }
  const parsed = parseCommandArgs(command, argv.slice(command.name.split(" ").length));
  if (parsed === "help") return commandHelp(command);
  try {
    return withPrinted(await command.run(ctx, parsed));
  } catch (err) {
    if (err instanceof FailedWithReport && printed.length)
      throw new FailedWithReport(withPrinted(err.output), err.message);
    throw err;
  }
}
