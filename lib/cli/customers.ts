// The operator's customer commands: the customers who own domains, and the limits pooled over their domains.
import type { Db } from "@/db/client";
import type { CustomerRow } from "@/db/schema";
import { isDomainName } from "@/lib/schemas/common";
import {
  customerReport,
  findCustomer,
  getCustomerOrThrow,
  isPooled,
  listCustomers,
  renameCustomer,
  setCustomerLimits,
  type CustomerLimits,
} from "@/lib/server/resources/customers";
import { findDomain } from "@/lib/server/resources/domains";
import {
  changeEachLine,
  CLI,
  intOption,
  domainArgument,
  lineOptions,
  readLineFile,
  stringOption,
  MAX_COUNT,
  listOutput,
  showJson as show,
  UsageError,
  usageLine,
  type Command,
  type Context,
  type OptionSpec,
  type Parsed,
} from "./args";

const POOL_OPTIONS: Record<string, OptionSpec> = {
  "account-limit": {
    type: "string",
    value: "N|none",
    max: MAX_COUNT,
    help: "accounts over all the customer's domains (none: back to per-domain limits)",
  },
  "alias-limit": { type: "string", value: "N|none", max: MAX_COUNT, help: "aliases over all its domains" },
  "mailinglist-limit": { type: "string", value: "N|none", max: MAX_COUNT, help: "mailing lists over all its domains" },
  "capacity-limit": { type: "string", value: "MB|none", help: "the sum of all its accounts' capacities in MB" },
};

function poolLimitsOf(
  command: Command,
  values: Parsed["values"],
  spelt = (name: string) => `--${name}`,
): CustomerLimits {
  const out: Record<string, number | null> = {};
  for (const [option, key] of [
    ["account-limit", "accountLimit"],
    ["alias-limit", "aliasLimit"],
    ["mailinglist-limit", "mailinglistLimit"],
    ["capacity-limit", "capacityLimit"],
  ] as const) {
    if (values[option] === "none") out[key] = null;
    else {
      const n = intOption(command, values, option, spelt(option), POOL_OPTIONS[option]);
      if (n !== undefined) out[key] = n;
    }
  }
  return out;
}

/**
 * The customer named by an id (`customer list`) or by a domain it owns (the operator knows the domain among
 * thousands of customers, and `customer list | grep` matches other names containing it); null for a hosted domain
 * that belongs to no customer. `what` names the argument in the messages. Neither an id nor a domain name: wrong
 * usage (exit 2). An id or a domain that names no customer: an error (exit 1), as the command could not be done.
 */
export async function resolveCustomer(db: Db, what: string, text: string): Promise<CustomerRow | null> {
  if (/^\d+$/.test(text)) {
    const id = Number(text);
    if (!Number.isSafeInteger(id) || id < 1) throw new UsageError(`${what}: '${text}' is not a customer id`);
    const customer = await findCustomer(db, id);
    if (!customer) throw new Error(`${what}: no customer with id ${id} (see \`customer list\`)`);
    return customer;
  }
  const name = domainArgument(text);
  if (!isDomainName(name))
    throw new UsageError(`${what}: must be a customer id (see \`customer list\`) or a hosted domain, not '${text}'`);
  const owned = await findDomain(db, name);
  if (!owned) throw new Error(`${what}: ${name} is not a hosted domain (see \`domain list\`)`);
  return owned.customerId == null ? null : getCustomerOrThrow(db, owned.customerId);
}

/** A customer command's <id>|<domain>: a hosted domain without a customer names none either (exit 1). */
async function customerArg(db: Db, command: Command, text: string): Promise<CustomerRow> {
  const customer = await resolveCustomer(db, `${command.name} <id>|<domain>`, text);
  if (!customer) throw new Error(`${command.name}: ${domainArgument(text)} belongs to no customer`);
  return customer;
}

/** --help of the commands that name a customer. */
const EXIT_STATUS =
  "Exit status: 0 done; 1 no such customer (an id or a hosted domain that names none); 2 wrong usage (an argument\n" +
  "that is neither a customer id nor a domain name, a missing argument or an unknown option).";

export const CUSTOMER_COMMANDS: Command[] = [
  {
    name: "customer list",
    summary: "Lists the customers: id, name, pooled limits, domains.",
    notes:
      "--search keeps the customers whose name, or one of whose domains, contains the text in any case (ASCII letters;\n" +
      "others as written on SQLite), found by the database, not by reading every customer.\n" +
      "Exit status: 0 done (also with no customers yet, or none matching); 2 wrong usage (an unknown option or argument).",
    example: `${CLI} customer list --search kowalski`,
    options: {
      search: {
        type: "string",
        value: "<text>",
        help: "only the customers whose name or one of whose domains contains it (any case)",
      },
    },
    run: async (ctx, { values }) =>
      listOutput(
        (await listCustomers(ctx.db(), { search: stringOption(values, "search") })).map((c) => {
          // Only the limits the customer pools; the others bind each domain on its own.
          const pooled = [
            ["accounts", c.accountLimit],
            ["aliases", c.aliasLimit],
            ["lists", c.mailinglistLimit],
            ["capacity", c.capacityLimit === null ? null : `${c.capacityLimit} MB`],
          ].flatMap(([what, limit]) => (limit === null ? [] : [`${what} ${limit}`]));
          const pool = isPooled(c) ? `pool ${pooled.join(" ")}` : "per-domain limits";
          return `${c.id}\t${c.name}\t${pool}\t${c.domains.join(",")}`;
        }),
        stringOption(values, "search") === undefined
          ? "no customers yet: `domain add <domain>` adds one with its domain"
          : "no customer matches",
      ),
  },
  {
    name: "customer show",
    args: ["<id>|<domain>"],
    summary: "Prints a customer: its pooled limits, the pool's usage and each of its domains.",
    notes: EXIT_STATUS,
    example: `${CLI} customer show example.org`,
    async run(ctx, { positionals }) {
      const db = ctx.db();
      return show(await customerReport(db, await customerArg(db, this, positionals[0]!)));
    },
  },
  {
    name: "customer rename",
    args: ["<id>|<domain>", "<name>"],
    summary: "Names a customer (a new customer takes its first domain's name): what `customer list` shows.",
    notes: EXIT_STATUS,
    example: `${CLI} customer rename 3 "Kowalski sp. z o.o. (contract 2026/117)"`,
    async run(ctx, { positionals }) {
      const db = ctx.db();
      const customer = await renameCustomer(db, await customerArg(db, this, positionals[0]!), positionals[1]!);
      return `${customer.id}\t${customer.name}`;
    },
  },
  {
    name: "customer set-limits",
    args: ["[<id>|<domain>]"],
    summary:
      "Pools the given limits over all the customer's domains (each domain then answers the pool's limits and usage); `none` returns a limit to per-domain.",
    notes:
      `${EXIT_STATUS}\n` +
      "--file sets many customers' pools in one run, a line each: <id>|<domain> [account-limit=N|none]\n" +
      "[alias-limit=N|none] [mailinglist-limit=N|none] [capacity-limit=MB|none] (blank lines and lines starting with\n" +
      "# are skipped; - reads standard input); each line in its own transaction, one output line per customer\n" +
      "(changed <what the line named> <id>, or failed <what the line named> with the line number and the reason),\n" +
      "then the counts; exit 1 when a line failed. A process per customer takes 2 to 3 s each: --file is for\n" +
      "hundreds of customers.",
    example: `${CLI} customer set-limits 3 --account-limit 100 --capacity-limit 512000`,
    options: {
      ...POOL_OPTIONS,
      file: {
        type: "string",
        value: "<file>",
        path: "file",
        help: "instead of one customer and its options, a line per customer with its limits as name=value (- for standard input)",
      },
    },
    async run(ctx, { positionals, values }) {
      const file = stringOption(values, "file");
      if ((positionals.length === 1) === (file !== undefined))
        throw new UsageError(`${this.name}: name one customer or --file (a customer and its limits a line), not both`);
      if (file !== undefined) {
        if (Object.keys(poolLimitsOf(this, values)).length)
          throw new UsageError(`${this.name}: with --file the limits are on the file's lines, as name=value`);
        return setPoolsFromFile(this, ctx, readLineFile(file));
      }
      const limits = poolLimitsOf(this, values);
      if (!Object.keys(limits).length)
        throw new UsageError(`${this.name}: give at least one limit (usage: ${usageLine(this)})`);
      const db = ctx.db();
      const customer = await customerArg(db, this, positionals[0]!);
      return show(await customerReport(db, await setCustomerLimits(db, customer, limits)));
    },
  },
];

/**
 * `customer set-limits --file`: each line's customer named as the command's argument is, its limits checked as the
 * command's flags are, then pooled as `customer set-limits` pools them, each customer in its own transaction.
 */
async function setPoolsFromFile(
  command: Command,
  ctx: Context,
  lines: { line: number; words: string[] }[],
): Promise<string> {
  const db = ctx.db();
  const allowed = new Set(Object.keys(POOL_OPTIONS));
  return changeEachLine(ctx, lines, "the customers changed above", async (what, options) => {
    const limits = poolLimitsOf(command, lineOptions(options, allowed), (option) => `${option}=`);
    if (!Object.keys(limits).length)
      throw new UsageError("no limit given (account-limit=N|none, capacity-limit=MB|none...)");
    const customer = await customerArg(db, command, what);
    await setCustomerLimits(db, customer, limits);
    // The line's argument first, as a failed line prints it (one column to cut), then the customer's id.
    return `${what}\t${customer.id}`;
  });
}
