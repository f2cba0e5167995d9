// Small wording and documentation edges a postmaster or owner meets.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { SCREENSHOTS } from "./artifacts";

const ROOT = path.resolve(import.meta.dirname, "../..");

test("the owner's alias card states the limit once, without a doubled pronoun", async ({ page, loginAs }) => {
  await loginAs(page, "user");
  const desc = page.getByText(/Dodatkowe adresy w domenie/);
  await expect(desc).toContainText(/Możesz mieć najwyżej \d+ alias/);
  await expect(desc).not.toContainText("ich najwyżej");
  await page.screenshot({ path: path.join(SCREENSHOTS, "me-aliases-desc.png"), fullPage: true });
});

test("the README's sandbox line runs in a root shell without sudo (a minimal Debian has none)", () => {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const line = readme.split("\n").find((l) => l.includes("mailserver sandbox --dir"));
  expect(line).toBeDefined();
  expect(line!.trimStart().startsWith("sudo")).toBe(false);
  expect(line).toContain("as root");
});

test("the UTF-8 and Windows-1250 exports have different file names", async ({ page, loginAs }) => {
  await loginAs(page, "postmaster");
  const nameOf = async (query: string) => {
    const res = await page.request.get(`/api/panel/export/accounts${query}`);
    expect(res.status()).toBe(200);
    return /filename="([^"]+)"/.exec(res.headers()["content-disposition"] ?? "")?.[1];
  };
  const utf8 = await nameOf("");
  const cp1250 = await nameOf("?encoding=windows-1250");
  expect(utf8).toMatch(/\.csv$/);
  expect(cp1250).toMatch(/windows-1250\.csv$/);
  expect(cp1250).not.toBe(utf8);
});
