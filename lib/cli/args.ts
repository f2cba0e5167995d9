// The CLI's command table and argument handling, on node:util's parseArgs in strict mode: every command declares
// its options, so a misspelt option, a missing value or a bad number is refused (exit 2) instead of ignored.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { domainToASCII } from "node:url";
import type { Db } from "@/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { operatorDirectory } from "@/lib/config.mjs";
import { checkReadableFile, unreadableFile } from "./files";
import { PooledLimitError } from "@/lib/server/resources/domains";

/** Wrong usage: the CLI prints the one-line message and exits with 2. */
export class UsageError extends Error {}

export interface OptionSpec {
  type: "string" | "boolean";
  /** Placeholder shown in the help, for string options (N, MB, <dir>...). */
  value?: string;
  help: string;
  /** A whole number of at least `min` and at most `max` (checked by intOption). */
  min?: number;
  max?: number;
  /** Shown without brackets in the usage line (the command checks it with requiredOption). */
  required?: boolean;
  /**
   * The value names a file or folder (`file`), or a program (`program`): parseCommandArgs makes it absolute with
   * operatorPath, a program only when it is a path (a bare name is looked up in PATH).
   */
  path?: "file" | "program";
  /** May be given several times: its value is then every one given, in order (listOption). */
  multiple?: true;
}

/** The largest count a limit column holds (PostgreSQL's integer); capacities are bigint. */
export const MAX_COUNT = 2_147_483_647;

export interface Parsed {
  positionals: string[];
  values: Record<string, string | string[] | boolean | undefined>;
}

export interface Context {
  /** The database, opened (and migrated) on first use: `--help` and `db restore` never open it. */
  db: () => Db;
  /** Writes a line of the output now, before the command ends: a long run's report is not lost if it is cut short. */
  print: (line: string) => Promise<void>;
}

export interface Command {
  /** The words that select it, for example "domain add". */
  name: string;
  /**
   * The positional arguments, for the usage line (`<domain>`, `[file]`); the ones in <> are required. `<file>` and
   * `[file]` name a file: parseCommandArgs makes them absolute with operatorPath; `<domain>` and `[domain]` a domain,
   * normalised by domainArgument (as is an option whose value is `<domain>`).
   */
  args?: string[];
  summary: string;
  /** One example line, shown by --help. */
  example: string;
  options?: Record<string, OptionSpec>;
  /** Longer notes for --help. */
  notes?: string;
  run(ctx: Context, parsed: Parsed): string | Promise<string>;
  /** Opens its own connection, or none: on PostgreSQL the CLI does not open and migrate the database before it runs. */
  ownConnection?: true;
  /** May create the SQLite file; every other command refuses a DATABASE_PATH that does not exist (a typo, a unit
   * without the PostgreSQL host's DATABASE_URL) instead of working on a new empty database. */
  createsDatabase?: true;
}

export const CLI = "npm run --silent cli --";

export function usageLine(command: Command): string {
  const options = Object.entries(command.options ?? {}).map(([name, o]) =>
    o.type === "boolean"
      ? `[--${name}]`
      : o.required
        ? `--${name} ${o.value ?? "<value>"}`
        : `[--${name} ${o.value ?? "<value>"}]${o.multiple ? "..." : ""}`,
  );
  return [CLI, command.name, ...(command.args ?? []), ...options].join(" ");
}

export function commandHelp(command: Command): string {
  const width =
    Math.max(
      6,
      ...Object.entries(command.options ?? {}).map(([n, o]) => n.length + (o.value ? o.value.length + 1 : 0)),
    ) + 4;
  const lines = [`Usage: ${usageLine(command)}`, "", command.summary];
  if (command.notes) lines.push("", command.notes);
  lines.push("", "Options:");
  for (const [name, o] of Object.entries(command.options ?? {})) {
    lines.push(`  ${`--${name}${o.type === "string" ? ` ${o.value ?? "<value>"}` : ""}`.padEnd(width)}${o.help}`);
  }
  lines.push(`  ${"--help".padEnd(width)}this help`, "", "Example:", `  ${command.example}`);
  return lines.join("\n");
}

/** Parses argv (the words after the command's name) against the command's options; UsageError on anything else. */
export function parseCommandArgs(command: Command, argv: string[]): Parsed | "help" {
  const options = Object.fromEntries(
    Object.entries(command.options ?? {}).map(([name, o]) => [name, { type: o.type, multiple: o.multiple === true }]),
  );
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw new UsageError(`${command.name}: ${describeParseError(err)} (see --help)`);
  }
  if (parsed.values.help) return "help";
  const wanted = command.args ?? [];
  const required = wanted.filter((a) => a.startsWith("<")).length;
  if (parsed.positionals.length < required) {
    throw new UsageError(
      `${command.name}: missing ${wanted[parsed.positionals.length]} (usage: ${usageLine(command)})`,
    );
  }
  if (parsed.positionals.length > wanted.length) {
    throw new UsageError(`${command.name}: unexpected argument '${parsed.positionals[wanted.length]}' (see --help)`);
  }
  const values: Parsed["values"] = { ...parsed.values };
  for (const [name, o] of Object.entries(command.options ?? {})) {
    if (o.min !== undefined) intOption(command, values, name);
    if (o.required) requiredOption(command, values, name);
    const value = values[name];
    if (typeof value === "string" && value && (o.path === "file" || (o.path === "program" && value.includes("/"))))
      values[name] = operatorPath(value);
    else if (typeof value === "string" && o.value === "<domain>") values[name] = domainArgument(value);
    else if (Array.isArray(value) && o.value === "<domain>") values[name] = value.map(domainArgument);
  }
  const positionals = parsed.positionals.map((p, i) =>
    FILE_ARGS.has(wanted[i]!) ? operatorPath(p) : DOMAIN_ARGS.has(wanted[i]!) ? domainArgument(p) : p,
  );
  return { positionals, values };
}

/** The positional arguments that name a file, and those that name a domain (Command.args). */
const FILE_ARGS = new Set(["<file>", "[file]"]);
const DOMAIN_ARGS = new Set(["<domain>", "[domain]"]);

/**
 * A domain name as the operator typed it, in the form the database and the mail system keep: lowercase, and an
 * internationalised name (zażółć.pl) in its ASCII form (xn--za-6ja4f8n1l.pl), which is what DNS and Postfix use. Text
 * that is no domain name stays as it is, to be refused with the service's error.
 */
export function domainArgument(text: string): string {
  // eslint-disable-next-line no-control-regex
  return /[^\x00-\x7f]/.test(text) ? domainToASCII(text) || text : text.toLowerCase();
}

/**
 * A file or folder the operator named, as an absolute path: a relative one is taken from the directory the command
 * was typed in. `npm run` starts the CLI in the package's folder and gives that directory in INIT_CWD (a file name
 * taken from the package's folder read or wrote the wrong file); run without npm (node, a systemd unit), it is the
 * working directory. `-` (standard input) stays as it is.
 */
export function operatorPath(file: string): string {
  return file === "-" ? file : path.resolve(operatorDirectory(), file);
}

/** parseArgs' messages run over several lines and suggest `--`; one line naming the option is enough. */
function describeParseError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const option = /'(-[^' ]+)/.exec(e.message ?? "")?.[1] ?? "";
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${option}`;
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    if (/does not take an argument/.test(e.message ?? "")) return `${option} takes no value`;
    // parseArgs will not take a value that starts with "-" after a space (it may be a forgotten value).
    if (/ambiguous/.test(e.message ?? ""))
      return `${option} needs a value (one that starts with - is written ${option}=-...)`;
    return `${option} needs a value`;
  }
  return (e.message ?? String(err)).split("\n")[0]!;
}

/** A whole-number option: undefined when absent, UsageError naming it (as `spelt`) when not a number of at least its min. */
export function intOption(
  command: Command,
  values: Parsed["values"],
  name: string,
  spelt = `--${name}`,
  spec = command.options?.[name],
): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  const min = spec?.min ?? 0;
  const max = spec?.max ?? Number.MAX_SAFE_INTEGER;
  if (
    typeof value !== "string" ||
    !/^\d+$/.test(value) ||
    !Number.isSafeInteger(Number(value)) ||
    Number(value) < min ||
    Number(value) > max
  ) {
    // Digits past the maximum are a number, only too large: saying it needs a whole number would mislead.
    if (typeof value === "string" && /^\d+$/.test(value) && BigInt(value) > BigInt(max))
      throw new UsageError(`${command.name}: ${spelt} is too large: at most ${max}, not '${value}'`);
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${command.name}: ${spelt} needs a whole number ${range}, not '${String(value)}'`);
  }
  return Number(value);
}

/** Every value of an option given several times (OptionSpec.multiple), in order; [] when absent. */
export function listOption(values: Parsed["values"], name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
}

export function stringOption(values: Parsed["values"], name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * A list command's output: its rows, one a line. With none, `hint` goes to stderr and stdout stays empty, so a
 * script reading the list gets no line it could take for a row.
 */
export function listOutput(rows: string[], hint: string): string {
  if (!rows.length) process.stderr.write(`${hint}\n`);
  return rows.join("\n");
}

/** A required string option. */
export function requiredOption(command: Command, values: Parsed["values"], name: string): string {
  const value = stringOption(values, name);
  if (!value) throw new UsageError(`${command.name}: --${name} is required (usage: ${usageLine(command)})`);
  return value;
}

/** A command that ran and found problems: `output` goes to stdout as usual, then the one-line error, exit 1. */
export class FailedWithReport extends Error {
  constructor(
    readonly output: string,
    message: string,
  ) {
    super(message);
  }
}

/** A host:port option value. */
export function splitHostPort(value: string): [string, number] {
  const i = value.lastIndexOf(":");
  const port = Number(value.slice(i + 1));
  if (i <= 0 || !Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${value}: expected host:port`);
  return [value.slice(0, i), port];
}

/** A value as the commands print JSON: indented by two spaces. */
export const showJson = (value: unknown) => JSON.stringify(value, null, 2);

/** The driver's SQLSTATE, also under drizzle's wrapper ("Failed query: ...", the original as its cause). */
function sqlState(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: unknown } | null;
  if (typeof e?.code === "string") return e.code;
  return e?.cause && e.cause !== err ? sqlState(e.cause) : undefined;
}

/** A write refused because the database is a read-only standby (SQLSTATE 25006): no later write can succeed either. */
export const refusedByStandby = (err: unknown) => sqlState(err) === "25006";

/**
 * The one line for a write a standby refused. `written`: what the command had written before (a run that began on the
 * primary and found it demoted); nothing when unset.
 */
export const standbyRefusal = (written?: string) =>
  `the database is a read-only standby: DATABASE_URL must name the primary (${written ? `only ${written} written` : "nothing was written"})`;

/**
 * A failure to open (connect to, or migrate) the PostgreSQL database of DATABASE_URL, naming it without its password:
 * pg's own text (`unable to verify the first certificate`, `connect ECONNREFUSED ...`) does not say it was the
 * database. The original stays the cause, so a standby's refusal is still recognised.
 */
export function databaseOpenError(url: string, err: unknown): Error {
  let where = "DATABASE_URL";
  try {
    const u = new URL(url);
    const host = u.host || u.searchParams.get("host") || "localhost";
    where = `the database at ${host}${u.pathname} (DATABASE_URL)`;
  } catch {
    // A URL that does not parse is named by its variable alone.
  }
  return new Error(`${where} could not be opened: ${err instanceof Error ? err.message : String(err)}`, {
    cause: err,
  });
}

/** A failure in one line: an API error's message, source and code (500.363...), else the error's first line. */
export function describeError(err: unknown): string {
  // A write on a standby (25006) otherwise prints the failed SQL, which does not say the fix is the other host.
  if (refusedByStandby(err)) return standbyRefusal();
  const message =
    err instanceof ApiError
      ? `${err.message}${err.source ? ` (${err.source})` : ""} [${err.toBody().code}]`
      : err instanceof Error
        ? err.message
        : String(err);
  return message.split("\n")[0]!;
}

/** describeError for a line of a file (`domain import`, `set-limits --file`): its limits spelt as the line spells them. */
export function describeLineError(err: unknown): string {
  return err instanceof PooledLimitError ? err.forFileLine() : describeError(err);
}

/** A line's `name=value` words, each one of `allowed`; anything else is refused, naming what is allowed. */
export function lineOptions(words: string[], allowed: Set<string>): Parsed["values"] {
  const values: Parsed["values"] = {};
  for (const word of words) {
    const [key, ...value] = word.split("=");
    if (!allowed.has(key!) || !value.length)
      throw new UsageError(`unknown option '${word}' (${[...allowed].map((o) => `${o}=`).join(", ")})`);
    values[key!] = value.join("=");
  }
  return values;
}

/**
 * A `--file` of changes, a line each (`<name> <options...>`): `change` applies one line in its own transaction and
 * returns what to print after `changed\t`; a line that fails is printed with its reason and the others go on, and a
 * standby's refusal stops the run naming what was already changed. Returns the counts, or throws them when any failed.
 */
export async function changeEachLine(
  ctx: Context,
  lines: { line: number; words: string[] }[],
  changedAbove: string,
  change: (name: string, options: string[]) => Promise<string>,
): Promise<string> {
  const counts = { changed: 0, failed: 0 };
  for (const { line, words } of lines) {
    const [typed, ...options] = words as [string, ...string[]];
    // A domain (or a customer id, which stays as it is), as an argument would be taken.
    const name = domainArgument(typed);
    try {
      const changed = await change(name, options);
      counts.changed++;
      await ctx.print(`changed\t${changed}`);
    } catch (err) {
      if (refusedByStandby(err)) throw new Error(standbyRefusal(counts.changed ? changedAbove : undefined));
      counts.failed++;
      await ctx.print(`failed\t${name}\tline ${line}: ${describeLineError(err)}`);
    }
  }
  const total = `${counts.changed} changed, ${counts.failed} failed`;
  if (!counts.failed) return total;
  throw new FailedWithReport(total, `${counts.failed} of ${lines.length} lines failed`);
}

/** Opens a file argument to read it as a stream (- is standard input); unreadable, it fails as unreadableFile says. */
export function openInputStream(file: string): NodeJS.ReadableStream {
  if (file === "-") return process.stdin;
  checkReadableFile(file);
  return fs.createReadStream(file, { encoding: "utf8" });
}

/** A file of one item a line (- reads standard input): each line's words, blank lines and # comments left out. */
export function readLineFile(file: string): { line: number; words: string[] }[] {
  let text: string;
  try {
    text = fs.readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (err) {
    throw unreadableFile(file, err);
  }
  return text
    .split("\n")
    .map((raw, i) => ({ line: i + 1, words: raw.trim().split(/\s+/) }))
    .filter(({ words }) => words[0] !== "" && !words[0]!.startsWith("#"));
}
