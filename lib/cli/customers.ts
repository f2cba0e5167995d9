// The operator's customer commands: the customers who own domains, and the limits pooled over their domains.
import type { Db } from "@/db/client";
import {
  customerReport,
  getCustomerOrThrow,
  isPooled,
  listCustomers,
  renameCustomer,
  setCustomerLimits,
  type CustomerLimits,
} from "@/lib/server/resources/customers";
import { findDomain } from "@/lib/server/resources/domains";
import {
  CLI,
  intOption,
  MAX_COUNT,
  listOutput,
  showJson as show,
  UsageError,
  usageLine,
  type Command,
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

function poolLimitsOf(command: Command, values: Parsed["values"]): CustomerLimits {
  const out: Record<string, number | null> = {};
  for (const [option, key] of [
    ["account-limit", "accountLimit"],
    ["alias-limit", "aliasLimit"],
    ["mailinglist-limit", "mailinglistLimit"],
    ["capacity-limit", "capacityLimit"],
  ] as const) {
    if (values[option] === "none") out[key] = null;
    else {
      const n = intOption(command, values, option);
      if (n !== undefined) out[key] = n;
    }
  }
  return out;
}

/**
 * The customer named by an id or by a domain it owns (as `domain add --customer` takes it): among thousands of
 * customers the operator knows the domain, and `customer list | grep` matches other names containing it.
 */
async function customerArg(db: Db, command: Command, text: string) {
  if (/^\d+$/.test(text)) return getCustomerOrThrow(db, Number(text));
  const owned = await findDomain(db, text.toLowerCase());
  if (owned?.customerId != null) return getCustomerOrThrow(db, owned.customerId);
  throw new UsageError(
    `${command.name}: <id> must be a customer id (see \`customer list\`) or a hosted domain, not '${text}'`,
  );
}

export const CUSTOMER_COMMANDS: Command[] = [
  {
    name: "customer list",
    summary: "Lists the customers: id, name, pooled limits, domains.",
    example: `${CLI} customer list`,
    run: async (ctx) =>
      listOutput(
        (await listCustomers(ctx.db())).map((c) => {
          const pool = isPooled(c)
            ? `pool accounts ${c.accountLimit ?? "-"} aliases ${c.aliasLimit ?? "-"} lists ${c.mailinglistLimit ?? "-"} capacity ${c.capacityLimit ?? "-"} MB`
            : "per-domain limits";
          return `${c.id}\t${c.name}\t${pool}\t${c.domains.join(",")}`;
        }),
        "no customers yet: `domain add <domain>` adds one with its domain",
      ),
  },
  {
    name: "customer show",
    args: ["<id>|<domain>"],
    summary: "Prints a customer: its pooled limits, the pool's usage and each of its domains.",
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
    example: `${CLI} customer rename 3 "Kowalski sp. z o.o. (contract 2026/117)"`,
    async run(ctx, { positionals }) {
      const db = ctx.db();
      const customer = await renameCustomer(db, await customerArg(db, this, positionals[0]!), positionals[1]!);
      return `${customer.id}\t${customer.name}`;
    },
  },
  {
    name: "customer set-limits",
    args: ["<id>|<domain>"],
    summary:
      "Pools the given limits over all the customer's domains (each domain then answers the pool's limits and usage); `none` returns a limit to per-domain.",
    example: `${CLI} customer set-limits 3 --account-limit 100 --capacity-limit 512000`,
    options: POOL_OPTIONS,
    async run(ctx, { positionals, values }) {
      const limits = poolLimitsOf(this, values);
      if (!Object.keys(limits).length)
        throw new UsageError(`${this.name}: give at least one limit (usage: ${usageLine(this)})`);
      const db = ctx.db();
      const customer = await customerArg(db, this, positionals[0]!);
      return show(await customerReport(db, await setCustomerLimits(db, customer, limits)));
    },
  },
];
