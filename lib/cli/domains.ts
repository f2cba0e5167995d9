// The operator's domain commands (contract §1): adding and removing domains, their limits, DKIM keys and DNS checks.
import type { Db } from "@/db/client";
import type { DomainRow } from "@/db/schema";
import { postmasterPassword } from "@/lib/config.mjs";
import {
  checkDkimDns,
  currentDkimKey,
  dkimRecord,
  dkimZoneLine,
  generateDkimKey,
  stagedDkimKey,
} from "@/lib/mailserver/dkim";
import { domainsWithLimitsInForce, type PoolableLimit } from "@/lib/server/resources/customers";
import {
  findDomain,
  getDomainOrThrow,
  listDomains,
  removeDomain,
  setDomainLimits,
  toDomainRecord,
  type DomainLimits,
} from "@/lib/server/resources/domains";
import { apiError } from "@/lib/errors/api-error";
import { generatePassword, passwordProblems } from "@/lib/schemas/common";
import {
  activateDkim,
  checkDomainDns,
  checkEveryDomainDns,
  forEveryDomain,
  forEveryDomainAskingDns,
  rotateDkim,
  type DkimActivation,
  type DkimRotation,
} from "@/lib/server/resources/mail-status";
import { addDomain, preparePostmaster, type PreparedPostmaster } from "@/lib/server/resources/new-domain";
import { checkHostExists, mailHostChoice, newDomainMailHost } from "@/lib/mailserver/mail-hosts";
import { resolveCustomer } from "./customers";
import {
  changeEachLine,
  CLI,
  describeLineError,
  refusedByStandby,
  FailedWithReport,
  domainArgument,
  intOption,
  lineOptions,
  MAX_COUNT,
  listOutput,
  readLineFile,
  stringOption,
  showJson as show,
  standbyRefusal,
  UsageError,
  usageLine,
  type Command,
  type Context,
  type OptionSpec,
  type Parsed,
} from "./args";

const LIMIT_OPTIONS: Record<string, OptionSpec> = {
  "account-limit": {
    type: "string",
    value: "N",
    min: 0,
    max: MAX_COUNT,
    help: "how many accounts the domain may have (default 1000)",
  },
  "alias-limit": { type: "string", value: "N", min: 0, max: MAX_COUNT, help: "how many aliases (default 1000)" },
  "mailinglist-limit": {
    type: "string",
    value: "N",
    min: 0,
    max: MAX_COUNT,
    help: "how many mailing lists (default 100)",
  },
  "capacity-limit": {
    type: "string",
    value: "MB",
    min: 0,
    help: "the sum of the accounts' capacities in MB (default 102400)",
  },
  "send-limit": {
    type: "string",
    value: "N",
    min: 0,
    max: MAX_COUNT,
    help: "recipients per rolling hour each signed-in account may send to over SMTP AUTH; past it each further RCPT gets 450 4.7.1 (0: no limit; default 1000)",
  },
};

/** The limits given; `spelt` writes an option's name as the user wrote it (a flag by default, `name=` in an import). */
function limitsOf(command: Command, values: Parsed["values"], spelt = (name: string) => `--${name}`): DomainLimits {
  const limit = (name: string) => intOption(command, values, name, spelt(name), LIMIT_OPTIONS[name]);
  const limits: DomainLimits = {
    accountLimit: limit("account-limit"),
    aliasLimit: limit("alias-limit"),
    mailinglistLimit: limit("mailinglist-limit"),
    capacityLimit: limit("capacity-limit"),
    sendLimit: limit("send-limit"),
  };
  return Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
}

/** The domain's v1 record and its sending limit, which only the operator sees (the API's fields are fixed). */
async function domainReport(db: Db, domain: DomainRow) {
  return { ...(await toDomainRecord(db, domain)), send_limit: String(domain.sendLimit) };
}

/** --mail-host of the commands that create domains (newDomainMailHost). */
const NEW_DOMAIN_MAIL_HOST: OptionSpec = {
  type: "string",
  value: "<name>|none",
  help: "the mail host its mailboxes live on (`mailserver host list`); required once mail hosts are set up, none to leave it on no host",
};
const MAIL_HOST_NOTE =
  "The new domain's mailboxes go on the mail host --mail-host names. Once `mailserver host list` has hosts, it\n" +
  "is required (--mail-host none places the domain on no host on purpose): a domain on none has its mail stored\n" +
  "by whichever MX takes it, copies that later hide each other and block its move (docs/mail-hosts.md).";

export const DOMAIN_COMMANDS: Command[] = [
  {
    name: "domain add",
    args: ["<domain>"],
    summary: "Creates a domain and its postmaster@<domain> account (the domain's administrator).",
    notes:
      "The postmaster's password: --postmaster-password, else the environment's POSTMASTER_PASSWORD (neither in `ps`\n" +
      "nor in the shell's history), else one generated and printed once. The postmaster gets 1024 MB, or the whole\n" +
      "capacity limit in force (the domain's, or what its customer's pool has left) when that is smaller.\n" +
      MAIL_HOST_NOTE,
    example: `${CLI} domain add example.org --account-limit 50`,
    options: {
      "mail-host": NEW_DOMAIN_MAIL_HOST,
      "postmaster-password": {
        type: "string",
        value: "<pw>",
        help: "the postmaster's password (the account password rule: 6-15 characters, a letter, and a digit or a special character); visible in ps: prefer POSTMASTER_PASSWORD or a generated one",
      },
      customer: {
        type: "string",
        value: "<id>",
        help: "the customer who owns it: an id from `customer list`, or a domain it already owns (default: a new customer named after the domain)",
      },
      ...LIMIT_OPTIONS,
    },
    async run(ctx, { positionals, values }) {
      const option = stringOption(values, "postmaster-password");
      const given = option || postmasterPassword();
      // Checked here so that the error names the environment variable the refused password came from.
      if (given && !option && passwordProblems(given).length) throw apiError("invalidPassword", "POSTMASTER_PASSWORD");
      const password = given ?? generatePassword();
      const db = ctx.db();
      const mailHost = mailHostChoice(stringOption(values, "mail-host"));
      const customer = await customerOption(db, this, values);
      const domain = await addDomain(db, positionals[0]!, password, limitsOf(this, values), customer, { mailHost });
      const login = given ? "" : ` with the password ${password} (generated, shown only here)`;
      const host = domain.mailHost ? `, mailboxes on ${domain.mailHost}` : "";
      return `Domain ${domain.name} added (customer ${domain.customerId}${host}); log in as postmaster@${domain.name}${login}.`;
    },
  },
  {
    name: "domain import",
    args: ["<file>"],
    summary:
      "Adds many domains from a file, as `domain add` would one by one: a line per domain; the ones already hosted are left as they are.",
    notes:
      "A line: <domain> <postmaster-password> [account-limit=N] [alias-limit=N] [mailinglist-limit=N] [capacity-limit=MB]\n" +
      "[send-limit=N] [customer=<id>|<domain>]; a password of - is generated and printed, a line without one fails.\n" +
      "Blank lines and lines starting with # are skipped; - as the file reads standard input. The lines are added in\n" +
      "order, each in its own transaction (a customer=<domain> may name a domain of an earlier line); the passwords'\n" +
      "hashes and DKIM keys are made --concurrency at a time beforehand. One output line per domain (added, exists,\n" +
      "failed), printed as soon as it is done, then the counts; exit 1 when a line failed.\n" +
      MAIL_HOST_NOTE.replace("The new domain's", "Every new domain's") +
      "\nIt is checked as each line adds its domain: without it, once hosts are set up (even during the import),\n" +
      "a line that would add a domain fails; a domain already hosted is reported `exists` and keeps its host\n" +
      "(moving it: docs/mail-hosts.md).",
    example: `${CLI} domain import domains.txt --mail-host imap1`,
    options: {
      "mail-host": NEW_DOMAIN_MAIL_HOST,
      concurrency: {
        type: "string",
        value: "N",
        min: 1,
        help: "how many domains' password hashes and DKIM keys are made at once (default 4, the thread pool's size)",
      },
    },
    async run(ctx, { positionals, values }) {
      // A host named is checked before the file is read (a mistyped name adds none of its domains); without one,
      // each line that adds a domain is refused once mail hosts are set up, even if one is set up mid-import.
      const mailHost = mailHostChoice(stringOption(values, "mail-host"));
      if (mailHost) await checkHostExists(ctx.db(), mailHost);
      const lines = readLineFile(positionals[0]!);
      return importDomains(this, ctx, lines, intOption(this, values, "concurrency") ?? 4, mailHost);
    },
  },
  {
    name: "domain list",
    summary:
      "Lists the hosted domains with their usage, the limits in force and the mail host, one tab-separated line each, by name.",
    notes:
      "A limit pooled over the domain's customer (docs/customers.md) shows the pool's usage and limit, marked\n" +
      "`(customer <id>)`, as GET /api/v1/domains/<domain> answers it; the others are the domain's own.\n" +
      "--mail-host none lists the domains placed on no mail host (added before the hosts were set up, or with\n" +
      "--mail-host none; docs/mail-hosts.md); --search keeps the names containing the text.",
    example: `${CLI} domain list --mail-host none | cut -f1`,
    options: {
      "mail-host": {
        type: "string",
        value: "<name>|none",
        help: "only the domains placed on this mail host, or on none",
      },
      search: { type: "string", value: "<text>", help: "only the domains whose name contains it" },
    },
    async run(ctx, { values }) {
      const db = ctx.db();
      const host = stringOption(values, "mail-host");
      const mailHost = host === undefined ? undefined : host === "none" ? null : host;
      if (mailHost) await checkHostExists(db, mailHost);
      const search = stringOption(values, "search");
      const rows = await domainsWithLimitsInForce(db, await listDomains(db, { mailHost, search }));
      return listOutput(
        rows.map((d) => {
          const f = d.inForce;
          const pool = (k: PoolableLimit) => (d.pooled.includes(k) ? ` (customer ${d.customerId})` : "");
          return [
            d.name,
            `accounts ${f.accountCount}/${f.accountLimit}${pool("accountLimit")}`,
            `aliases ${f.aliasCount}/${f.aliasLimit}${pool("aliasLimit")}`,
            `lists ${f.mailinglistCount}/${f.mailinglistLimit}${pool("mailinglistLimit")}`,
            `capacity ${f.capacitySum}/${f.capacityLimit} MB${pool("capacityLimit")}`,
            `host ${d.mailHost ?? "none"}`,
            `send ${d.sendLimit || "unlimited"}/h`,
          ].join("\t");
        }),
        host === undefined && search === undefined
          ? "no domains yet: `domain add <domain>` adds one"
          : "no hosted domain matches",
      );
    },
  },
  {
    name: "domain show",
    args: ["<domain>"],
    summary:
      "Prints the domain's record (as GET /api/v1/domains/<domain> returns it) and its send_limit, which the API does not carry.",
    example: `${CLI} domain show example.org`,
    run: async (ctx, { positionals }) => {
      const db = ctx.db();
      return show(await domainReport(db, await getDomainOrThrow(db, positionals[0]!)));
    },
  },
  {
    name: "domain set-limits",
    args: ["[domain]"],
    summary: "Changes the given limits of a domain; the others stay as they are.",
    notes:
      "--file changes many domains in one run, a line each as `domain import` writes its limits:\n" +
      "<domain> [account-limit=N] [alias-limit=N] [mailinglist-limit=N] [capacity-limit=MB] [send-limit=N] (blank\n" +
      "lines and lines starting with # are skipped; - reads standard input); each line in its own transaction, one\n" +
      "output line per domain (changed, or failed with the line number and the reason), then the counts; exit 1 when\n" +
      "a line failed. A process per domain takes a second or two each: --file is for hundreds of domains.\n" +
      "--send-limit counts the recipients each signed-in account of the domain (SMTP AUTH on the submission ports)\n" +
      "was accepted for in the last hour, on every mail host together; past it, each further RCPT gets\n" +
      "450 4.7.1 until the hour has moved on. Mail the server composes itself (forwards, Sieve redirects, vacation\n" +
      "replies, the list service's copies, SMS notices) and mail from outside are not counted. It applies to the\n" +
      "next RCPT.\n" +
      "Per domain only: a customer's pooled limits do not cap it (docs/customers.md says why).\n" +
      "A limit the domain's customer pools (`customer show`) is refused, naming the `customer set-limits` line to\n" +
      "use instead: the domain's own figure does not bind while the pool does. Nothing is changed then.",
    example: `${CLI} domain set-limits example.org --account-limit 200 --send-limit 300`,
    options: {
      ...LIMIT_OPTIONS,
      file: {
        type: "string",
        value: "<file>",
        path: "file",
        help: "instead of one domain and its options, a line per domain with its limits as name=value (- for standard input)",
      },
    },
    async run(ctx, { positionals, values }) {
      const file = stringOption(values, "file");
      if ((positionals.length === 1) === (file !== undefined))
        throw new UsageError(`${this.name}: name one domain or --file (a domain and its limits a line), not both`);
      if (file !== undefined) {
        if (Object.keys(limitsOf(this, values)).length)
          throw new UsageError(`${this.name}: with --file the limits are on the file's lines, as name=value`);
        return setLimitsFromFile(this, ctx, readLineFile(file));
      }
      const limits = limitsOf(this, values);
      if (!Object.keys(limits).length)
        throw new UsageError(`${this.name}: give at least one limit (usage: ${usageLine(this)})`);
      const db = ctx.db();
      const domain = await getDomainOrThrow(db, positionals[0]!);
      return show(await domainReport(db, await setDomainLimits(db, domain, limits)));
    },
  },
  {
    name: "domain dkim show",
    args: ["<domain>"],
    summary: "Prints the DKIM TXT record to publish for the domain and whether DNS already holds it.",
    notes:
      "Exit 0 when DNS holds every record printed (the signing key's, and a staged one's), 1 otherwise (missing,\n" +
      "different, or DNS could not be asked), as `domain dns-check` and `mailserver check` do.\n" +
      "DNS_RESOLVER (host[:port], comma-separated) names the resolver to ask; the system's otherwise.",
    example: `${CLI} domain dkim show example.org`,
    async run(ctx, { positionals }) {
      const db = ctx.db();
      const domain = await getDomainOrThrow(db, positionals[0]!);
      const key = (await currentDkimKey(db, domain.id)) ?? (await generateDkimKey(db, domain));
      const staged = await stagedDkimKey(db, domain.id);
      const lines = [];
      const notPublished: string[] = [];
      for (const [label, k] of [
        ["signing", key],
        ["staged", staged],
      ] as const) {
        if (!k) continue;
        const record = dkimRecord(domain.name, k);
        const dns = await checkDkimDns(record);
        lines.push(dkimZoneLine(record), `${label}, DNS: ${dns.state}${dns.detail ? ` (${dns.detail})` : ""}`);
        if (dns.state !== "published") notPublished.push(`${label} ${dns.state}`);
      }
      if (!notPublished.length) return lines.join("\n");
      throw new FailedWithReport(
        lines.join("\n"),
        `DNS does not hold the DKIM record of ${domain.name} as printed (${notPublished.join(", ")})`,
      );
    },
  },
  {
    name: "domain dns-check",
    args: ["[domain]"],
    summary:
      "Checks every DNS record a domain needs (MX, SPF, DKIM, DMARC, client set-up names, MTA-STS, TLS-RPT) against DNS; --all checks every hosted domain.",
    notes:
      "One line per record: its state (present, missing, different, error), type, name and the value to publish,\n" +
      "then what DNS holds when it differs. With --all, one line per domain that lacks something (the records by\n" +
      "state), then how many domains have everything; --json prints every report. Exit 0 when every record is\n" +
      "present, 1 otherwise (for monitoring).\n" +
      "DNS_RESOLVER (host[:port], comma-separated) names the resolver to ask; the system's otherwise. --all first\n" +
      "asks it for MAIL_HOST's address and stops (exit 1) when it does not answer at all.\n" +
      "The host names come from MAIL_HOST, IMAP_*, POP3_*, SUBMISSION_*, WEB_HOST (docs/onboarding.md).",
    example: `${CLI} domain dns-check example.org`,
    options: {
      ...everyDomainOptions("every hosted domain instead of one", "domains are checked", 16),
      json: { type: "boolean", help: "print the report as JSON" },
    },
    async run(ctx, { positionals, values }) {
      const db = ctx.db();
      if (allDomains(this, positionals, values))
        return everyDomainDns(db, intOption(this, values, "concurrency") ?? 16, values.json === true);
      const report = await checkDomainDns(db, await getDomainOrThrow(db, positionals[0]!));
      const output =
        values.json === true
          ? show(report)
          : report.records
              .map((r) => {
                const line = `${r.state.padEnd(9)} ${r.type.padEnd(5)} ${r.name} ${r.type === "TXT" ? JSON.stringify(r.value) : r.value}`;
                return r.state === "present" || !r.found.length
                  ? line
                  : `${line}\n          found: ${r.found.join(" | ")}`;
              })
              .join("\n");
      if (report.ok) return output;
      const bad = report.records.filter((r) => r.state !== "present").length;
      throw new FailedWithReport(
        output,
        `${bad} of ${report.records.length} DNS records of ${report.domain} are not as needed`,
      );
    },
  },
  {
    name: "domain dkim rotate",
    args: ["[domain]"],
    summary:
      "Stages a new DKIM key (new selector) for the domain, or every domain with --all; it signs once `domain dkim activate` finds its record in DNS.",
    notes:
      'Prints the TXT record to publish, one zone-file line per domain (<name>. TXT "<part>" "<part>", strings of at\n' +
      "most 255 characters), for a DNS provider's bulk import. A domain whose staged key is not\n" +
      "activated yet prints that key again instead of getting another. The old record may stay in DNS for a week,\n" +
      "for mail in transit. --now: the new key signs within seconds (mailserver events) and mail signed with it fails\n" +
      "DKIM until DNS has the record; for a domain whose mail nobody checks yet. Each key takes about 0.2 s of\n" +
      "CPU: --all makes about 10 a second on two cores (10,000 domains: 17-35 min); each line is printed as its key\n" +
      "is stored, in the order they finish.",
    example: `${CLI} domain dkim rotate --all > new-dkim-records.txt`,
    options: {
      ...everyDomainOptions("every hosted domain instead of one", "keys are made", 2),
      now: { type: "boolean", help: "the new key signs at once instead of after activation" },
    },
    async run(ctx, { positionals, values }) {
      const db = ctx.db();
      const rotate = (domain: DomainRow) => rotateDkim(db, domain, values.now === true);
      const line = (r: DkimRotation) => dkimZoneLine(r.record);
      if (allDomains(this, positionals, values)) {
        // 10,000 domains take half an hour: each record is printed once its key is stored, so a run cut short has
        // already printed every key it staged (a second run prints them again, as already staged).
        await forEveryDomain(db, intOption(this, values, "concurrency") ?? 2, async (d) =>
          ctx.print(line(await rotate(d))),
        );
        return "";
      }
      const r = await rotate(await getDomainOrThrow(db, positionals[0]!));
      const what = {
        staged: "New DKIM key, not signing yet; publish",
        "already staged": "The staged DKIM key (not signing yet); publish",
        signing: "New DKIM key, signing now; publish",
      }[r.key];
      const then = r.key === "signing" ? "" : `\nthen: ${CLI} domain dkim activate ${r.domain}`;
      return `${what}:\n${line(r)}${then}`;
    },
  },
  {
    name: "domain dkim activate",
    args: ["[domain]"],
    summary:
      "Makes a domain's staged DKIM key sign once DNS holds its record, or every domain's with --all (run it from cron after a rotation).",
    notes:
      "One line per domain with a staged key: activated, or waiting with what DNS answered (missing, different,\n" +
      "error). Exit 0 when no staged key is left waiting, 1 otherwise. --force activates without asking DNS.\n" +
      "--quiet, for cron: only the keys activated, and one line when DNS could not be asked (exit 1); keys\n" +
      "waiting for their record are not listed (each domain's DNS page and `domain dns-check` name them).\n" +
      "DNS_RESOLVER (host[:port], comma-separated) names the resolver to ask; the system's otherwise. --all first\n" +
      "asks it for MAIL_HOST's address and stops (exit 1) when it does not answer at all.",
    example: `${CLI} domain dkim activate --all --quiet`,
    options: {
      ...everyDomainOptions("every hosted domain with a staged key instead of one", "domains are checked", 16),
      force: { type: "boolean", help: "activate without checking DNS" },
      quiet: { type: "boolean", help: "print only the keys activated and DNS failures (for cron)" },
    },
    async run(ctx, { positionals, values }) {
      const db = ctx.db();
      const done = (
        await eachDomainOrOne(
          this,
          db,
          positionals,
          values,
          16,
          (d) => activateDkim(db, d, values.force === true),
          values.force === true ? forEveryDomain : forEveryDomainAskingDns,
        )
      ).filter((a) => a.state !== "none" || positionals.length === 1);
      const line = (a: DkimActivation) =>
        a.state === "none"
          ? `${a.domain}\tno staged key (domain dkim rotate ${a.domain} makes one)`
          : `${a.domain}\t${a.state}\t${a.record!.name}${a.dns ? `\tDNS ${a.dns}` : ""}`;
      if (values.quiet === true) {
        // Hourly from cron at thousands of domains: a record nobody publishes must not mail root every hour.
        const activated = done
          .filter((a) => a.state === "activated")
          .map(line)
          .join("\n");
        const unasked = done.filter((a) => a.dns?.startsWith("error"));
        if (!unasked.length) return activated;
        throw new FailedWithReport(
          activated,
          `DNS could not be asked about ${unasked.length} staged DKIM keys, e.g. ${line(unasked[0]!)}`,
        );
      }
      const waiting = done.filter((a) => a.state === "waiting").length;
      const output = done.length ? done.map(line).join("\n") : "no domain has a staged DKIM key";
      if (!waiting) return output;
      throw new FailedWithReport(output, `${waiting} of ${done.length} staged DKIM keys not activated`);
    },
  },
  {
    name: "domain remove",
    args: ["<domain>"],
    summary:
      "Removes a domain with all its accounts, aliases and lists; the mail hosts' `mailserver events` remove its mailboxes within seconds (docs/mail-server.md); other domains' catchalls into it are switched off and its accounts leave the customer's forwards (docs/customers.md).",
    example: `${CLI} domain remove example.org --yes`,
    options: { yes: { type: "boolean", help: "confirms the removal (required)" } },
    async run(ctx, { positionals, values }) {
      const db = ctx.db();
      const domain = await getDomainOrThrow(db, positionals[0]!);
      if (values.yes !== true) throw new UsageError(`domain remove: refusing to remove ${domain.name} without --yes`);
      const { catchallsOff } = await removeDomain(db, domain);
      const off = catchallsOff.length
        ? `\nCatchall switched off (it delivered into ${domain.name}): ${catchallsOff.join(", ")}`
        : "";
      return `Domain ${domain.name} removed with all its accounts, aliases and lists.${off}`;
    },
  },
];

/** `--customer <id>` (or a domain the customer owns), checked to exist; undefined when not given. */
async function customerOption(db: Db, command: Command, values: Parsed["values"]): Promise<number | undefined> {
  const value = values.customer;
  if (value === undefined) return undefined;
  // A hosted domain of no customer: the new domain gets a customer of its own, as without --customer.
  return (await resolveCustomer(db, `${command.name} --customer`, String(value)))?.id;
}

/** --all and --concurrency of a command that works on one domain or on every one. */
function everyDomainOptions(all: string, atOnce: string, concurrency: number): Record<string, OptionSpec> {
  return {
    all: { type: "boolean", help: all },
    concurrency: {
      type: "string",
      value: "N",
      min: 1,
      help: `with --all, how many ${atOnce} at once (default ${concurrency})`,
    },
  };
}

/** Whether --all was given; a usage error unless exactly one of a domain and --all is. */
function allDomains(command: Command, positionals: string[], values: Parsed["values"]): boolean {
  if ((positionals.length === 1) === (values.all === true))
    throw new UsageError(`${command.name}: name one domain, or give --all for every hosted domain`);
  return values.all === true;
}

/**
 * `fn` of the one domain named, or of every domain with --all (`concurrency` at once, through `every`); one of the
 * two is required.
 */
async function eachDomainOrOne<R>(
  command: Command,
  db: Db,
  positionals: string[],
  values: Parsed["values"],
  defaultConcurrency: number,
  fn: (domain: DomainRow) => Promise<R>,
  every: typeof forEveryDomain = forEveryDomain,
): Promise<R[]> {
  if (!allDomains(command, positionals, values)) return [await fn(await getDomainOrThrow(db, positionals[0]!))];
  return every(db, intOption(command, values, "concurrency") ?? defaultConcurrency, fn);
}

/** `domain dns-check --all`: a line per domain that lacks a record, e.g. `a.test  missing mx, dkim; different spf`. */
async function everyDomainDns(db: Db, concurrency: number, json: boolean): Promise<string> {
  const reports = await checkEveryDomainDns(db, concurrency);
  const failing = reports.filter((r) => !r.ok);
  const lines = failing.map((report) => {
    const byState = new Map<string, string[]>();
    for (const r of report.records)
      if (r.state !== "present") byState.set(r.state, [...(byState.get(r.state) ?? []), r.kind]);
    return `${report.domain}\t${[...byState].map(([state, kinds]) => `${state} ${kinds.join(", ")}`).join("; ")}`;
  });
  const summary = `${reports.length - failing.length} of ${reports.length} domains have every DNS record they need`;
  const output = json ? show(reports) : [...lines, summary].join("\n");
  if (!failing.length) return output;
  throw new FailedWithReport(output, `${failing.length} of ${reports.length} domains lack DNS records they need`);
}

const IMPORT_OPTIONS = new Set([...Object.keys(LIMIT_OPTIONS), "customer"]);

/**
 * `domain set-limits --file`: each line's limits checked as the command's flags are, then set as `domain
 * set-limits` sets them, each domain in its own transaction; a line that fails changes nothing of its domain.
 */
async function setLimitsFromFile(
  command: Command,
  ctx: Context,
  lines: { line: number; words: string[] }[],
): Promise<string> {
  const db = ctx.db();
  const allowed = new Set(Object.keys(LIMIT_OPTIONS));
  return changeEachLine(ctx, lines, "the domains changed above", async (name, options) => {
    const limits = limitsOf(command, lineOptions(options, allowed), (option) => `${option}=`);
    if (!Object.keys(limits).length) throw new UsageError("no limit given (account-limit=N, capacity-limit=MB...)");
    await setDomainLimits(db, await getDomainOrThrow(db, name), limits);
    return name;
  });
}

/**
 * `domain import`: each line's options checked as `domain add` checks its flags, the slow parts prepared
 * `concurrency` lines ahead, the domains added in the file's order.
 */
async function importDomains(
  command: Command,
  ctx: Context,
  lines: { line: number; words: string[] }[],
  concurrency: number,
  mailHost: string | null | undefined,
): Promise<string> {
  const db = ctx.db();
  const entries = lines.map(({ line, words: [name, given, ...rest] }) => {
    // The password is the line's second word (--help): a line without one, or with an option in its place, is
    // refused rather than given a generated password (or, worse, one that is the option's text).
    const option = given !== undefined && IMPORT_OPTIONS.has(given.split("=")[0]!) && given.includes("=");
    const missing = given === undefined || option;
    const password = missing || given === "-" ? generatePassword() : given;
    return { line, name: domainArgument(name!), password, generated: given === "-", missing, rest };
  });
  // A second run of the same file (after fixing its failed lines) prepares nothing for the domains already added.
  const hosted = new Set((await listDomains(db)).map((d) => d.name));
  const prepared: Promise<PreparedPostmaster | undefined>[] = [];
  const prepare = (i: number) => {
    // Without --mail-host, the placement rule first (addDomain asks it again in its transaction): a line it refuses
    // makes no password hash nor RSA key, and fails with its message.
    const p =
      hosted.has(entries[i]!.name) || entries[i]!.missing
        ? Promise.resolve(undefined)
        : (mailHost === undefined ? newDomainMailHost(db, undefined) : Promise.resolve()).then(() =>
            preparePostmaster(entries[i]!.password),
          );
    p.catch(() => {}); // awaited in order below; not an unhandled rejection meanwhile
    prepared[i] = p;
  };
  for (let i = 0; i < Math.min(concurrency, entries.length); i++) prepare(i);
  // Each line is printed as its domain is done: an import cut short has already printed the passwords it made.
  const out = ctx.print;
  const counts = { added: 0, exists: 0, failed: 0 };
  for (const [i, entry] of entries.entries()) {
    try {
      if (entry.missing)
        throw new UsageError("no postmaster password: give one after the domain, or - to have one generated");
      const values = lineOptions(entry.rest, IMPORT_OPTIONS);
      const limits = limitsOf(command, values, (name) => `${name}=`);
      if (await findDomain(db, entry.name)) {
        counts.exists++;
        await out(`exists\t${entry.name}`);
        continue;
      }
      const customer = await customerOption(db, command, values);
      const domain = await addDomain(db, entry.name, entry.password, limits, customer, {
        prepared: await prepared[i]!,
        mailHost,
      });
      counts.added++;
      await out(
        `added\t${domain.name}\tcustomer ${domain.customerId}${entry.generated ? `\tpassword ${entry.password}` : ""}`,
      );
    } catch (err) {
      // On a standby every line would fail the same way, each after hashing its password: stop there, with the
      // counts so far (the lines from this one on are not added) and what was written before, if anything.
      if (refusedByStandby(err)) {
        const added = counts.added ? `the ${counts.added} domain${counts.added > 1 ? "s" : ""} added above` : undefined;
        throw new FailedWithReport(
          `${counts.added} added, ${counts.exists} already hosted, ${counts.failed} failed, ${entries.length - i} not added`,
          standbyRefusal(added),
        );
      }
      counts.failed++;
      await out(`failed\t${entry.name}\tline ${entry.line}: ${describeLineError(err)}`);
    } finally {
      if (i + concurrency < entries.length) prepare(i + concurrency);
    }
  }
  const total = `${counts.added} added, ${counts.exists} already hosted, ${counts.failed} failed`;
  if (!counts.failed) return total;
  throw new FailedWithReport(total, `${counts.failed} of ${entries.length} lines failed`);
}
