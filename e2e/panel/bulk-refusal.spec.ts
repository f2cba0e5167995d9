// A bulk change the API refuses as a whole: setting a capacity that would take the domain over its capacity total.
// The answer has one child per selected name (a81a640), each repeating the whole's error; the outcome alert shows the
// message alone, not a line per name (errorChildren in resource-table.tsx, a76bb06), and no account is changed.
// A refusal of only some names (the postmaster in a bulk block) still lists them: postmaster-accounts.spec.ts, "a bulk
// change that fails for one name changes none and lists the failure". Screenshots of the alert at the widths of
// WIDTHS (artifacts.ts) in Polish and at 375 px in English (test-results/screenshots/bulk-refusal-*).
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { errorCatalog } from "@/lib/errors/catalog";
import { atEachWidth, DEMO, expect, originOf, test } from "./fixtures";
import { SCREENSHOTS } from "./artifacts";

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e3)}`;

/** The accounts' capacity when created, in MB. */
const START = 10;

async function createAccounts(page: Page, names: string[]) {
  for (const name of names) {
    const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
      data: { password: "Haslo-123", capacity: START },
      headers: { origin: originOf(page) },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
}

const capacityOf = async (page: Page, name: string) =>
  ((await (await page.request.get(`/api/panel/v1/emails/${DEMO.domain}/${name}`)).json()) as { capacity: number })
    .capacity;

/** A capacity just large enough that giving it to each of `count` accounts (now at START) exceeds the domain's total. */
async function capacityOverTheTotal(page: Page, count: number): Promise<number> {
  const res = await page.request.get(`/api/panel/v1/domains/${DEMO.domain}`);
  expect(res.status(), await res.text()).toBe(200);
  const domain = (await res.json()) as { capacity_limit: string; capacity_limit_usage: string };
  const limit = Number(domain.capacity_limit);
  const usage = Number(domain.capacity_limit_usage);
  const capacity = START + Math.floor((limit - usage) / count) + 1;
  expect(usage + count * (capacity - START), "the new capacities exceed the domain's total").toBeGreaterThan(limit);
  // The account field's own bound (1 TB): a larger value would be refused in the browser, before the API.
  expect(capacity, "a capacity the account field accepts").toBeLessThanOrEqual(1048576);
  return capacity;
}

/** Scrolls the alert to the middle of the window, for a screenshot that shows all of it. */
async function showWhole(alert: Locator) {
  await alert.evaluate((el) => el.scrollIntoView({ block: "center" }));
  await expect(alert).toBeInViewport({ ratio: 1 });
}

/**
 * Creates three accounts, selects them in the table and sets a capacity over the domain's total; returns their names
 * and the alert. Checks that the API's answer has a child per name, so the panel had lines it could have listed.
 */
async function refuseCapacity(page: Page, search: string, setCapacity: string, capacityLabel: string) {
  const prefix = unique("cap");
  const names = [0, 1, 2].map((i) => `${prefix}-${String(i).padStart(2, "0")}`);
  await createAccounts(page, names);
  const capacity = await capacityOverTheTotal(page, names.length);
  await page.goto(`/accounts?search=${prefix}`);
  await expect(page.locator("tbody tr")).toHaveCount(names.length);
  await page.getByLabel(search).check();
  await page.getByLabel(capacityLabel, { exact: true }).fill(String(capacity));
  const answer = page.waitForResponse(
    (r) => r.url().includes(`/api/panel/v1/emails/${DEMO.domain}/`) && r.request().method() === "PUT",
  );
  await page.getByRole("button", { name: setCapacity, exact: true }).click();
  const body = (await (await answer).json()) as { code: string; source: string; children?: { source: string }[] };
  expect(body.code).toBe(errorCatalog.capacityLimitReached.code);
  expect(body.source).toBe("capacity");
  expect(body.children?.map((c) => c.source).sort()).toEqual(names);
  return { names, prefix };
}

test("a capacity over the domain's total shows the refusal once, with no line per account, and changes none", async ({
  page,
  loginAs,
}) => {
  test.setTimeout(90_000);
  await loginAs(page, "postmaster");
  const { names, prefix } = await refuseCapacity(
    page,
    "Zaznacz wszystkie wiersze na tej stronie",
    "Ustaw pojemność",
    "Nowa pojemność (MB)",
  );
  const alert = page.getByRole("alert").filter({ hasText: "Nic nie zmieniono" });
  await expect(alert).toContainText(`Nic nie zmieniono: ${errorCatalog.capacityLimitReached.message}`);
  await expect(alert.getByRole("listitem")).toHaveCount(0);
  await expect(alert).not.toContainText(prefix);
  await expect(alert).not.toContainText(`${names[0]}:`);
  for (const n of names) expect(await capacityOf(page, n)).toBe(START);

  await atEachWidth(page, async (width) => {
    await showWhole(alert);
    await page.screenshot({ path: path.join(SCREENSHOTS, `bulk-refusal-${width}.png`) });
  });
});

test("in English the refusal is the catalog's English text, still with no line per account", async ({
  page,
  context,
  baseURL,
  loginAs,
}) => {
  test.setTimeout(90_000);
  await context.addCookies([{ name: "locale", value: "en", url: baseURL! }]);
  await loginAs(page, "postmaster");
  await page.setViewportSize({ width: 375, height: 900 });
  const { names, prefix } = await refuseCapacity(
    page,
    "Select all rows on this page",
    "Set capacity",
    "New capacity (MB)",
  );
  const alert = page.getByRole("alert").filter({ hasText: "Nothing was changed" });
  await expect(alert).toContainText(`Nothing was changed: ${errorCatalog.capacityLimitReached.messageEn}`);
  await expect(alert.getByRole("listitem")).toHaveCount(0);
  await expect(alert).not.toContainText(prefix);
  for (const n of names) expect(await capacityOf(page, n)).toBe(START);

  await showWhole(alert);
  await page.screenshot({ path: path.join(SCREENSHOTS, "bulk-refusal-en-375.png") });
});
