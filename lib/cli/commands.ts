// The operator's commands: domains and their limits, usage reports from the mail server, and demo data.
import type { Db } from "@/db/client";
import { apiError } from "@/lib/errors/api-error";
import { passwordProblems } from "@/lib/schemas/common";
import { createAccount, recordUsage } from "@/lib/server/accounts";
import {
  getDomainOrThrow,
  insertDomain,
  listDomains,
  removeDomain,
  setDomainLimits,
  toDomainRecord,
  type DomainLimits,
} from "@/lib/server/domains";
import { optimizeSearchIndex } from "@/lib/server/search-index";
import { purgeExpiredLoginState } from "@/lib/server/session";
import { MAILSERVER_USAGE, runMailServerCommand } from "@/lib/mailserver/commands";
import { intOption, parseArgs, stringOption, type Args } from "./args";
import { seedDemo } from "./demo";

export const USAGE = `Usage: npm run --silent cli -- <command>
  domain add <domain> --postmaster-password <pw> [--account-limit N] [--alias-limit N] [--mailinglist-limit N] [--capacity-limit MB]
  domain list
  domain show <domain>
  domain set-limits <domain> [--account-limit N] [--alias-limit N] [--mailinglist-limit N] [--capacity-limit MB]
  domain remove <domain> --yes
  usage report <email> --bytes N [--messages N]
  db optimize            (daily from cron, and after a bulk load: merges the search index)
${MAILSERVER_USAGE}
  demo`;

function purgedLoginState(db: Db): string {
  const purged = purgeExpiredLoginState(db);
  return `expired sessions deleted: ${purged.sessions}, stale login-throttle rows deleted: ${purged.throttle}`;
}

function limitsOf(args: Args): DomainLimits {
  const limits: DomainLimits = {
    accountLimit: intOption(args, "account-limit"),
    aliasLimit: intOption(args, "alias-limit"),
    mailinglistLimit: intOption(args, "mailinglist-limit"),
    capacityLimit: intOption(args, "capacity-limit"),
  };
  return Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
}

const show = (value: unknown) => JSON.stringify(value, null, 2);

function need(value: string | undefined, what: string): string {
  if (!value) throw new Error(`missing ${what}\n${USAGE}`);
  return value;
}

/** Adds a domain with its postmaster account, in one transaction. */
export function addDomain(db: Db, name: string, postmasterPassword: string, limits: DomainLimits) {
  if (passwordProblems(postmasterPassword).length) throw apiError("invalidPassword", "--postmaster-password");
  return db.transaction(() => {
    const domain = insertDomain(db, name, limits);
    createAccount(db, domain, "postmaster", { password: postmasterPassword, description: "Administrator domeny" });
    return getDomainOrThrow(db, name);
  });
}

export function runCommand(db: Db, argv: string[]): string {
  const args = parseArgs(argv);
  const [group, action, target] = args.positional;
  switch (`${group ?? ""} ${action ?? ""}`.trim()) {
    case "domain add": {
      const pw = need(stringOption(args, "postmaster-password"), "--postmaster-password");
      const domain = addDomain(db, need(target, "<domain>"), pw, limitsOf(args));
      return `Domain ${domain.name} added; log in as postmaster@${domain.name}.`;
    }
    case "domain list":
      return listDomains(db)
        .map((d) => `${d.name}\taccounts ${d.accountCount}/${d.accountLimit}\taliases ${d.aliasCount}/${d.aliasLimit}\tlists ${d.mailinglistCount}/${d.mailinglistLimit}\tcapacity ${d.capacitySum}/${d.capacityLimit} MB`)
        .join("\n");
    case "domain show":
      return show(toDomainRecord(getDomainOrThrow(db, need(target, "<domain>"))));
    case "domain set-limits": {
      const domain = getDomainOrThrow(db, need(target, "<domain>"));
      return show(toDomainRecord(setDomainLimits(db, domain, limitsOf(args))));
    }
    case "domain remove": {
      const domain = getDomainOrThrow(db, need(target, "<domain>"));
      if (args.options.get("yes") !== true) throw new Error(`refusing to remove ${domain.name} without --yes`);
      removeDomain(db, domain);
      return `Domain ${domain.name} removed with all its accounts, aliases and lists.`;
    }
    case "usage report": {
      const bytes = intOption(args, "bytes");
      if (bytes === undefined) throw new Error("--bytes is required");
      const row = recordUsage(db, need(target, "<email>").toLowerCase(), bytes, intOption(args, "messages"));
      return `${row.email}: ${row.usageBytes} bytes, ${row.usagePercent}% of ${row.capacity} MB`;
    }
    case "mailserver config":
    case "mailserver housekeeping":
      return runMailServerCommand(db, action!, args);
    case "db optimize":
      return `Search index merged in ${optimizeSearchIndex(db).ms.toFixed(0)} ms; ${purgedLoginState(db)}.`;
    case "demo":
      return seedDemo(db);
    default:
      throw new Error(`unknown command: ${argv.join(" ") || "(none)"}\n${USAGE}`);
  }
}
