// How tests start `mailserver sandbox` through the CLI, from the repository root.

/** Node's arguments for `mailserver sandbox --dir <dir> <extra...>` run from source. */
export function sandboxCliArgs(dir: string, ...extra: string[]): string[] {
  return [
    "--conditions=react-server",
    "--import",
    "tsx",
    "lib/cli/index.ts",
    "mailserver",
    "sandbox",
    "--dir",
    dir,
    ...extra,
  ];
}
