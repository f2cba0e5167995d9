// Runs an external tool (doveadm, postmap...) and, when it fails, reports the tool's own words: its stderr (or
// stdout when stderr is empty) and exit status, not just "Command failed".
import { execFileSync } from "node:child_process";

export class ToolError extends Error {
  constructor(
    readonly command: string,
    readonly status: number | null,
    readonly output: string,
    readonly signal?: string,
  ) {
    // One line: the CLI prints one line per failure. A crash's backtrace (doveadm's "Raw backtrace") says nothing
    // to an operator; the lines before it do.
    const lines = output.split("\n").map((l) => l.trim()).filter((l) => l && !/Raw backtrace/.test(l));
    super(`${command} failed (${status !== null ? `exit ${status}` : `killed by ${signal ?? "a signal"}`}): ${lines.join(" | ") || "no output"}`);
  }
}

export function runTool(command: string, args: string[], input?: string, timeoutMs = 600_000): string {
  try {
    return execFileSync(command, args, { encoding: "utf8", input, stdio: ["pipe", "pipe", "pipe"], timeout: timeoutMs });
  } catch (err) {
    const e = err as { status?: number | null; signal?: string | null; stderr?: string; stdout?: string; code?: string; message?: string };
    const shown = [command, ...args].join(" ");
    // Not started at all (ENOENT, EACCES): Node's own message is the reason.
    if (typeof e.code === "string" && e.status == null && !e.signal) throw new ToolError(shown, null, `${e.code}: ${e.message ?? ""}`);
    throw new ToolError(shown, e.status ?? null, e.stderr?.trim() ? e.stderr : (e.stdout ?? ""), e.code === "ETIMEDOUT" ? `${e.signal} after the ${timeoutMs / 1000} s time limit` : (e.signal ?? undefined));
  }
}
