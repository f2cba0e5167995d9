// What `npm run bench` needs besides node_modules, checked before it seeds 100,000 accounts (issue 33: it seeded,
// then crashed with `spawn wrk ENOENT`). One line says what to install.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

interface Tool {
  name: string;
  /** Present when this answers (exit status 0 or 1: wrk prints its usage and exits 1 without a URL). */
  present: () => boolean;
  install: string;
}

const runs = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { stdio: "ignore" });
  return !r.error && (r.status === 0 || r.status === 1);
};

export function missingPrerequisites(chromium: string): Tool[] {
  const tools: Tool[] = [
    { name: "wrk", present: () => runs("wrk", ["--version"]), install: "wrk" },
    { name: `Chromium (${chromium})`, present: () => fs.existsSync(chromium), install: "chromium" },
  ];
  return tools.filter((t) => !t.present());
}

/** Exits with one line naming the Debian packages to install when something is missing. */
export function checkPrerequisites(chromium: string): void {
  const missing = missingPrerequisites(chromium);
  if (missing.length === 0) return;
  console.error(
    `npm run bench: missing ${missing.map((m) => m.name).join(", ")}; install with: sudo apt-get install -y ${missing.map((m) => m.install).join(" ")}${missing.some((m) => m.install === "chromium") ? " (or set CHROMIUM_PATH)" : ""}, then run it again.`,
  );
  process.exit(1);
}
