// Runs an external tool (doveadm, postmap...) and, when it fails, reports the tool's own words: its stderr (or
// stdout when stderr is empty) and exit status, not just "Command failed".
import { execFileSync } from "node:child_process";

export class ToolError extends Error {
  constructor(
    readonly command: string,
    readonly status: number | null,
    readonly output: string,
  ) {
    // One line: the CLI prints one line per failure.
    super(`${command} failed (${status === null ? "killed" : `exit ${status}`}): ${output.trim().split("\n").filter(Boolean).join(" | ") || "no output"}`);
  }
}

export function runTool(command: string, args: string[], input?: string, timeoutMs = 600_000): string {
  try {
    return execFileSync(command, args, { encoding: "utf8", input, stdio: ["pipe", "pipe", "pipe"], timeout: timeoutMs });
  } catch (err) {
    const e = err as { status?: number | null; stderr?: string; stdout?: string; code?: string; message?: string };
    const shown = [command, ...args].join(" ");
    // Not started at all (ENOENT, EACCES): Node's own message is the reason.
    if (e.code && typeof e.code === "string" && e.status == null) throw new ToolError(shown, null, `${e.code}: ${e.message ?? ""}`);
    throw new ToolError(shown, e.status ?? null, e.stderr?.trim() ? e.stderr : (e.stdout ?? ""));
  }
}
