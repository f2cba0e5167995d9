import "server-only";
// The operator's commands for mailbox hosts (docs/mail-hosts.md): the hosts table, a domain's host, an account's.
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import {
  CLI,
  domainArgument,
  intOption,
  listOption,
  listOutput,
  readLineFile,
  requiredOption,
  stringOption,
  UsageError,
  type Command,
  type Parsed,
} from "./args";
import {
  accountsOnHost,
  hostedDomainIds,
  listMailHosts,
  removeMailHost,
  setAccountMailHost,
  setAccountsMailHost,
  setDomainMailHost,
  setDomainsMailHost,
  setMailHost,
} from "@/lib/mailserver/mail-hosts";

const port = (help: string) => ({ type: "string", value: "N", min: 1, help }) as const;

/** --mail-host <name>, or `none` for no host. */
function hostArgument(command: Command, values: Parsed["values"]): string | null {
  const host = requiredOption(command, values, "mail-host");
  return host === "none" ? null : host;
}

export const MAIL_HOST_COMMANDS: Command[] = [
  {
    name: "mailserver host set",
    args: ["<name>"],
    summary: "Adds a mail host, or changes where the other hosts reach its IMAP, POP3, LMTP and ManageSieve.",
    example: `${CLI} mailserver host set imap2 --address 192.0.2.2`,
    notes:
      "The name is the one its own configuration gives (MAIL_HOST_NAME, `mailserver config --host-name`). Ports default\n" +
      "to 143, 110, 24 and 4190. Place domains on it with `domain set-mail-host <domain> --mail-host <name>`. docs/mail-hosts.md.",
    options: {
      address: {
        type: "string",
        value: "<host>",
        help: "host name or IPv4 address the other mail hosts connect to (required for a new host)",
      },
      "imap-port": port("its IMAP port (default 143)"),
      "pop3-port": port("its POP3 port (default 110)"),
      "lmtp-port": port("its LMTP port, where the other hosts' Postfix and Dovecot deliver (default 24)"),
      "sieve-port": port("its ManageSieve port (default 4190)"),
    },
    async run(ctx, { positionals, values }) {
      const h = await setMailHost(ctx.db(), positionals[0]!, {
        address: stringOption(values, "address"),
        imapPort: intOption(this, values, "imap-port"),
        pop3Port: intOption(this, values, "pop3-port"),
        lmtpPort: intOption(this, values, "lmtp-port"),
        sievePort: intOption(this, values, "sieve-port"),
      });
      return `${h.name}: ${h.address} imap ${h.imapPort} pop3 ${h.pop3Port} lmtp ${h.lmtpPort} sieve ${h.sievePort}`;
    },
  },
  {
    name: "mailserver host list",
    summary: "Prints the mail hosts: name, address, ports, domains and accounts placed on each.",
    example: `${CLI} mailserver host list`,
    async run(ctx) {
      const hosts = await listMailHosts(ctx.db());
      return listOutput(
        hosts.map((h) =>
          [
            h.name,
            h.address,
            `imap ${h.imapPort}`,
            `pop3 ${h.pop3Port}`,
            `lmtp ${h.lmtpPort}`,
            `sieve ${h.sievePort}`,
            `${h.domains} domain(s)`,
            `${h.accounts} account(s)`,
          ].join("\t"),
        ),
        "no mail hosts: every host serves every mailbox itself",
      );
    },
  },
  {
    name: "mailserver host accounts",
    args: ["<name>"],
    summary: "Prints the addresses whose mailboxes live on a mail host, one a line (doveadm's -F user list).",
    example: `${CLI} mailserver host accounts imap1 --domain example.org --by-domain > /root/move-example.org.users`,
    notes:
      "--by-domain leaves out the accounts placed on the host by themselves (`account set-mail-host`): the list is\n" +
      'the mailboxes that `domain set-mail-host` moves, the ones a move copies (docs/mail-hosts.md, "Moving a domain").\n' +
      "Several domains (--domain repeated, --file, or both) print the lines one command per domain would, each\n" +
      "domain's in the order given, in one process; a name that is not hosted is named and nothing is printed.",
    options: {
      domain: {
        type: "string",
        value: "<domain>",
        multiple: true,
        help: "only this domain's accounts (may be repeated)",
      },
      file: {
        type: "string",
        value: "<file>",
        path: "file",
        help: "only the accounts of the domains named in this file, one a line (- for standard input)",
      },
      "by-domain": {
        type: "boolean",
        help: "only the accounts there through their domain's host, not by a host of their own (those a domain move moves)",
      },
    },
    async run(ctx, { positionals, values }) {
      const db = ctx.db();
      const file = stringOption(values, "file");
      const names = [
        ...listOption(values, "domain"),
        ...(file === undefined ? [] : readLineFile(file).map(({ words }) => domainArgument(words[0]!))),
      ];
      // One --domain alone keeps its error (the API's "no such domain"); several are named together.
      const domainIds =
        names.length === 1 && file === undefined
          ? (await getDomainOrThrow(db, names[0]!)).id
          : file === undefined && !names.length
            ? undefined
            : await hostedDomainIds(db, names);
      const byDomain = values["by-domain"] === true;
      return (await accountsOnHost(db, positionals[0]!, domainIds, { byDomain })).join("\n");
    },
  },
  {
    name: "mailserver host remove",
    args: ["<name>"],
    summary: "Removes a mail host that holds no domain and no account.",
    example: `${CLI} mailserver host remove imap2`,
    async run(ctx, { positionals }) {
      await removeMailHost(ctx.db(), positionals[0]!);
      return `${positionals[0]}: removed`;
    },
  },
  {
    name: "domain set-mail-host",
    args: ["[domain]"],
    summary:
      "Places a domain's mailboxes on a mail host: every host then proxies them there (the switch step of a move).",
    example: `${CLI} domain set-mail-host example.org --mail-host imap2`,
    notes:
      'Run it when the copy to the new host is done (docs/mail-hosts.md, "Moving a domain"); `none` places the domain\n' +
      "on no host (every host serves it itself: one mail host). Accounts placed on a host of their own keep it.\n" +
      "--file places every domain the file names (one a line; blank lines and lines starting with # are skipped; -\n" +
      "reads standard input) in one transaction: all of them, or none when one is not hosted.",
    options: {
      "mail-host": {
        type: "string",
        value: "<name>|none",
        required: true,
        help: "a host of `mailserver host list`, or none (required)",
      },
      file: {
        type: "string",
        value: "<file>",
        path: "file",
        help: "instead of one domain, the domains named in this file, one a line (- for standard input)",
      },
    },
    async run(ctx, { positionals, values }) {
      const file = stringOption(values, "file");
      if ((positionals.length === 1) === (file !== undefined))
        throw new UsageError(`${this.name}: name one domain or --file (a domain a line), not both`);
      const host = hostArgument(this, values);
      const db = ctx.db();
      const where = host ?? "no host (served by every host)";
      if (file !== undefined) {
        const names = readLineFile(file).map(({ words }) => domainArgument(words[0]!));
        const placed = await setDomainsMailHost(db, names, host);
        return `${placed} ${placed === 1 ? "domain" : "domains"}: mailboxes on ${where}`;
      }
      const domain = await getDomainOrThrow(db, positionals[0]!);
      await setDomainMailHost(db, domain.id, host);
      return `${domain.name}: mailboxes on ${where}`;
    },
  },
  {
    name: "account set-mail-host",
    args: ["[email]"],
    summary:
      "Places an account on another mail host than its domain's (`domain` returns it to the domain's); --file places many.",
    example: `${CLI} account set-mail-host jan@example.org --mail-host imap3`,
    notes:
      "--file places every account the file names (one address a line; blank lines and lines starting with # are\n" +
      "skipped; - reads standard input) in one transaction: all of them, or none when one is not hosted.",
    options: {
      "mail-host": {
        type: "string",
        value: "<name>|domain",
        required: true,
        help: "a host of `mailserver host list`, or domain (required)",
      },
      file: {
        type: "string",
        value: "<file>",
        path: "file",
        help: "instead of one account, the accounts named in this file, one address a line (- for standard input)",
      },
    },
    async run(ctx, { positionals, values }) {
      const file = stringOption(values, "file");
      if ((positionals.length === 1) === (file !== undefined))
        throw new UsageError(`${this.name}: name one account or --file (an address a line), not both`);
      const value = requiredOption(this, values, "mail-host");
      if (value === "none")
        throw new UsageError("account set-mail-host: `domain` returns the account to its domain's host");
      const host = value === "domain" ? null : value;
      if (file !== undefined) {
        const emails = readLineFile(file).map(({ words }) => words[0]!);
        const placed = await setAccountsMailHost(ctx.db(), emails, host);
        return `${placed} ${placed === 1 ? "account" : "accounts"}: mailboxes on ${host ?? "their domains' hosts"}`;
      }
      await setAccountMailHost(ctx.db(), positionals[0]!, host);
      return `${positionals[0]!.toLowerCase()}: mailbox on ${host ?? "its domain's host"}`;
    },
  },
];
