// A small argument parser: positionals and --flag value / --flag=value / --switch.
export interface Args {
  positional: string[];
  options: Map<string, string | true>;
}

export function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    if (eq > 0) options.set(arg.slice(2, eq), arg.slice(eq + 1));
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--")) options.set(arg.slice(2), argv[++i]!);
    else options.set(arg.slice(2), true);
  }
  return { positional, options };
}

export function intOption(args: Args, name: string, min = 0): number | undefined {
  const value = args.options.get(name);
  if (value === undefined) return undefined;
  if (value === true || !/^\d+$/.test(value) || Number(value) < min) {
    throw new Error(`--${name} needs a whole number of at least ${min}`);
  }
  return Number(value);
}

export function stringOption(args: Args, name: string): string | undefined {
  const value = args.options.get(name);
  if (value === true) throw new Error(`--${name} needs a value`);
  return value;
}
