// runTool's failures carry the tool's own words on one line, and say how the tool ended.
import { describe, expect, it } from "vitest";
import { runTool, runToolAsync, ToolError } from "./run-tool";

const failure = (command: string, args: string[], timeoutMs?: number) => {
  try {
    runTool(command, args, undefined, timeoutMs);
  } catch (err) {
    expect(err).toBeInstanceOf(ToolError);
    return err as ToolError;
  }
  throw new Error("no failure");
};

describe("runTool", () => {
  it("returns stdout on success, and passes input", () => {
    expect(runTool("sh", ["-c", "cat; echo done"], "in\n")).toBe("in\ndone\n");
  });

  it("shows the tool's stderr, joined into one line, and its exit status", () => {
    const err = failure("sh", ["-c", "echo out; echo 'first problem' >&2; echo 'second problem' >&2; exit 3"]);
    expect(err.message).toBe(
      "sh -c echo out; echo 'first problem' >&2; echo 'second problem' >&2; exit 3 failed (exit 3): first problem | second problem",
    );
    expect(err.status).toBe(3);
  });

  it("falls back to stdout when stderr is empty, and leaves out a crash's backtrace", () => {
    expect(failure("sh", ["-c", "echo 'only here'; exit 1"]).message).toMatch(/failed \(exit 1\): only here$/);
    const crash = failure("sh", [
      "-c",
      "echo 'Panic: assertion failed' >&2; echo 'Error: Raw backtrace: #0 x' >&2; kill -ABRT $$",
    ]);
    expect(crash.message).toMatch(/failed \(killed by SIGABRT\): Panic: assertion failed$/);
  });

  it("says when the tool was not started or ran out of time", () => {
    expect(failure("/nonexistent/doveadm", ["user", "x"]).message).toBe(
      "/nonexistent/doveadm user x failed (not started: ENOENT): no output",
    );
    expect(failure("sh", ["-c", "echo slow >&2; sleep 5"], 300).message).toBe(
      "sh -c echo slow >&2; sleep 5 failed (killed by SIGTERM after the 0.3 s time limit): slow",
    );
  });
});

describe("runToolAsync", () => {
  it("a tool that exits without reading its input answers by its exit status, and nothing else fails", async () => {
    // The write into the closed pipe (EPIPE) was an unhandled 'error' event: it ended the mail event service.
    await expect(runToolAsync("sh", ["-c", "exit 0"], "x".repeat(4_000_000))).resolves.toBe("");
    await expect(runToolAsync("sh", ["-c", "exit 4"], "x".repeat(4_000_000))).rejects.toMatchObject({ status: 4 });
  });
});
