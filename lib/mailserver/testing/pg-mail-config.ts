// The `mailserver config --database postgres` command line of a test's mail host.

/** Arguments for a mail host reading from `readHosts` and writing usage to `writeHost` (host:port each). */
export function pgMailConfigArgs(out: string, readHosts: string[], writeHost: string, maildirRoot: string): string[] {
  return [
    "mailserver",
    "config",
    "--database",
    "postgres",
    "--out",
    out,
    "--read-hosts",
    readHosts.join(","),
    "--write-host",
    writeHost,
    "--maildir-root",
    maildirRoot,
    "--mail-user",
    "nobody",
    "--mail-group",
    "nogroup",
    "--db-group",
    "nogroup",
  ];
}
