// Small wording and documentation edges a postmaster or owner meets.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";

const ROOT = path.resolve(import.meta.dirname, "../..");

test("the owner's alias card states the limit once, without a doubled pronoun", async ({ page, loginAs }) => {
  await loginAs(page, "user");
  const desc = page.getByText(/Dodatkowe adresy w domenie/);
  await expect(desc).toContainText(/Możesz mieć najwyżej \d+ alias/);
  await expect(desc).not.toContainText("ich najwyżej");
  await page.screenshot({ path: path.join(ROOT, "test-results/screenshots/me-aliases-desc.png"), fullPage: true });
});

test("the README's sandbox line runs in a root shell without sudo (a minimal Debian has none)", () => {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const line = readme.split("\n").find((l) => l.includes("mailserver sandbox --dir"));
  expect(line).toBeDefined();
  expect(line!.trimStart().startsWith("sudo")).toBe(false);
  expect(line).toContain("as root");
});
