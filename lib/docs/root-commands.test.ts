// The README's and docs' commands for a root shell run as written on a minimal Debian 12, which has no sudo: a
// command needing root says "as root" instead of starting with `sudo`, and one run as another user uses runuser.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

test("the README and the operator's guides start no command with sudo", () => {
  for (const file of [
    "README.md",
    "docs/mail-server.md",
    "docs/deploy.md",
    "docs/postgresql.md",
    "docs/mail-hosts.md",
    "docs/migration.md",
  ]) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const withSudo = text.split("\n").filter((line) => /(^|`)\s*sudo\s/.test(line));
    expect(withSudo, file).toEqual([]);
  }
});
