// /me tells the account how to set up a mail program: the operator's IMAP, POP3 and SMTP hosts from the server's
// configuration, and the Apple profile to download (no password inside). The domain page leads to the DNS page.
// Screenshots of both changed pages at each of WIDTHS (artifacts.ts).
import fs from "node:fs";
import path from "node:path";
import { atEachWidth, DEMO, expect, loginAs, signInAs, test } from "./fixtures";
import { PANEL_MAIL_HOSTS } from "./server-env";
import { SCREENSHOTS, WIDTHS } from "./artifacts";

test("/me lists the mail program settings and downloads the account's Apple profile", async ({ page }) => {
  await loginAs(page, "user");
  const card = page.getByRole("region", { name: "Programy pocztowe" });
  await expect(card).toContainText(`Poczta przychodząca (IMAP)${PANEL_MAIL_HOSTS.MAIL_HOST}:993SSL/TLS`);
  await expect(card).toContainText(`Poczta wychodząca (SMTP)${PANEL_MAIL_HOSTS.MAIL_HOST}:465SSL/TLS`);
  await expect(card).toContainText(`Nazwa użytkownika: pełny adres ${DEMO.user.email}`);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    card.getByRole("link", { name: /Pobierz profil/ }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${DEMO.user.email}.mobileconfig`);
  const profile = fs.readFileSync(await download.path(), "utf8");
  expect(profile).toContain("<string>com.apple.mail.managed</string>");
  expect(profile).toContain(`<key>IncomingMailServerUsername</key>\n      <string>${DEMO.user.email}</string>`);
  expect(profile).not.toContain(DEMO.user.password);

  await page.getByRole("heading", { name: "Programy pocztowe" }).scrollIntoViewIfNeeded();
  await atEachWidth(page, (width) => card.screenshot({ path: path.join(SCREENSHOTS, `me-mail-clients-${width}.png`) }));
});

test("the domain page's DKIM card links to the DNS page", async ({ page }) => {
  await signInAs(page, "postmaster");
  await page.goto("/domain");
  const link = page.getByRole("link", { name: /Wszystkie rekordy DNS domeny/ });
  await expect(link).toHaveAttribute("href", "/domain/dns");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await link.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, `domain-dkim-link-${width}.png`) });
  }
});
