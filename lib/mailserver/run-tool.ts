// Runs an external tool (doveadm, postmap...) and, when it fails, reports the tool's own words: its stderr (or
// stdout when stderr is empty) and how it ended, not just "Command failed".
import { execFile, execFileSync } from "node:child_process";

export class ToolError extends Error {
  constructor(
    readonly command: string,
    /** The exit status; null when the tool did not start or was killed (`ended` says which). */
    readonly status: number | null,
    readonly output: string,
    ended?: string,
  ) {
    // One line: the CLI prints one line per failure. A crash's backtrace (doveadm's "Raw backtrace") says nothing
    // to an operator; the lines before it do.
    const lines = output
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !/Raw backtrace/.test(l));
    super(`${command} failed (${ended ?? `exit ${status}`}): ${lines.join(" | ") || "no output"}`);
  }
}

export function runTool(command: string, args: string[], input?: string, timeoutMs = 600_000): string {
  try {
    return execFileSync(command, args, {
      encoding: "utf8",
      input,
      stdio: ["pipe", "pipe", "pipe"],
      timeout: timeoutMs,
    });
  } catch (err) {
    const e = err as {
      status?: number | null;
      signal?: string | null;
      stderr?: string;
      stdout?: string;
      code?: string;
    };
    const shown = [command, ...args].join(" ");
    const output = e.stderr?.trim() ? e.stderr : (e.stdout ?? "");
    if (e.signal) {
      const ended =
        e.code === "ETIMEDOUT"
          ? `killed by ${e.signal} after the ${timeoutMs / 1000} s time limit`
          : `killed by ${e.signal}`;
      throw new ToolError(shown, null, output, ended);
    }
    // Not started at all (ENOENT: not installed or not in PATH; EACCES): the system's reason.
    if (e.status == null) throw new ToolError(shown, null, "", `not started: ${e.code ?? "unknown error"}`);
    throw new ToolError(shown, e.status, output);
  }
}

/** runTool without blocking the event loop (the mail event service answers other requests meanwhile). */
export function runToolAsync(command: string, args: string[], input?: string, timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const shown = [command, ...args].join(" ");
        const e = err as { code?: number | string; signal?: string | null };
        if (e.signal) return reject(new ToolError(shown, null, stderr || stdout, `killed by ${e.signal}`));
        if (typeof e.code !== "number")
          return reject(new ToolError(shown, null, "", `not started: ${e.code ?? "unknown error"}`));
        reject(new ToolError(shown, e.code, stderr.trim() ? stderr : stdout));
      },
    );
    // A tool that exits without reading its input (doveadm who) fails the write with EPIPE, an 'error' event that
    // would otherwise end the process; its exit status says what happened.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(input ?? "");
  });
}
