// The page number in a panel page's URL is the one the pager shows (1-based): ?page=2 is "Strona 2". The API's own
// `page` (0-based, the specification's) is not this. An old 0-based link still opens a page (docs/panel.md).
import path from "node:path";
import { EXTRA_DOMAINS, SEEDED_ACCOUNTS, expect, originOf, signIn, test } from "./fixtures";
import { SCREENSHOTS } from "./artifacts";

const { domain, email, password } = EXTRA_DOMAINS.bulk;
const user = (i: number) => `${SEEDED_ACCOUNTS.prefix}${String(i).padStart(4, "0")}`;

test("the account table's URL counts pages as the pager does, from 1", async ({ page }) => {
  await signIn(page, email, password);
  // The row's name links to its editor, named by the whole address.
  const firstRow = (i: number) =>
    page
      .locator("tbody tr")
      .first()
      .getByRole("link", { name: `Edytuj ${user(i)}@${domain}` });
  await page.goto(`/accounts?search=${SEEDED_ACCOUNTS.prefix}`);
  await expect(page.getByText(/^Strona 1 z 60 · /)).toBeVisible();

  await page.getByRole("button", { name: "Następna" }).click();
  await expect(page.getByText(/^Strona 2 z 60 · /)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/accounts\\?search=${SEEDED_ACCOUNTS.prefix}&page=2$`));
  await page.getByRole("button", { name: "Następna" }).click();
  await expect(page).toHaveURL(/&page=3$/);
  await expect(firstRow(51)).toBeVisible();
  await page.getByRole("button", { name: "Poprzednia" }).click();
  await expect(page).toHaveURL(/&page=2$/);
  await page.getByRole("button", { name: "Poprzednia" }).click();
  // The first page needs no number.
  await expect(page).toHaveURL(new RegExp(`/accounts\\?search=${SEEDED_ACCOUNTS.prefix}$`));

  // A link typed or kept: ?page=3 opens the page the pager calls 3 (server-rendered, then the browser's).
  await page.goto(`/accounts?search=${SEEDED_ACCOUNTS.prefix}&page=3`);
  await expect(page.getByText(/^Strona 3 z 60 · /)).toBeVisible();
  await expect(firstRow(51)).toBeVisible();
  for (const width of [375, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `page-number-accounts-${width}.png`), fullPage: true });
  }
  // An old link's page=0 (never written by the panel, whose first page had no number) is the first page.
  await page.goto(`/accounts?search=${SEEDED_ACCOUNTS.prefix}&page=0`);
  await expect(page.getByText(/^Strona 1 z 60 · /)).toBeVisible();
  await expect(firstRow(1)).toBeVisible();
});

test("the audit log's URL counts pages as its pager does, from 1", async ({ page }) => {
  await signIn(page, email, password);
  // 51 changes: two pages of 50 at least.
  for (let i = 1; i <= 51; i++) {
    const res = await page.request.put(`/api/panel/v1/emails/${domain}/${user(i)}`, {
      data: { description: `Zmiana ${i}` },
      headers: { origin: originOf(page) },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  await page.goto("/audit");
  await expect(page.getByText(/^Strona 1 z \d+ · /)).toBeVisible();
  await page.getByRole("link", { name: "Następna" }).click();
  await expect(page).toHaveURL(/\/audit\?page=2$/);
  await expect(page.getByText(/^Strona 2 z \d+ · /)).toBeVisible();
  await page.getByRole("link", { name: "Poprzednia" }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByText(/^Strona 1 z \d+ · /)).toBeVisible();
  await page.goto("/audit?page=2");
  await expect(page.getByText(/^Strona 2 z \d+ · /)).toBeVisible();
  for (const width of [375, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `page-number-audit-${width}.png`), fullPage: true });
  }
});
