// The account table's selection and bulk block: sorting keeps a selection, "all N matching" included (the same rows
// in another order); blocking asks first, as deleting does, and says the accounts are signed out; Cancel changes
// nothing, and after the confirmation an account signed in elsewhere is signed out. Screenshots of the question at
// widths of WIDTHS (artifacts.ts) (test-results/screenshots/bulk-block-*).
import path from "node:path";
import type { Page, Route } from "@playwright/test";
import { DEMO, expect, originOf, signIn, test } from "./fixtures";
import { SCREENSHOTS, WIDTHS } from "./artifacts";

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e3)}`;

async function createAccounts(page: Page, names: string[]) {
  for (const name of names) {
    const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
      data: { password: "Haslo-123", capacity: 10 },
      headers: { origin: originOf(page) },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
}

const blockedOf = async (page: Page, name: string) =>
  ((await (await page.request.get(`/api/panel/v1/emails/${DEMO.domain}/${name}`)).json()) as { blocked: number })
    .blocked;

test.beforeEach(async ({ page, loginAs }) => {
  await loginAs(page, "postmaster");
});

test("sorting keeps the selection, all matching included", async ({ page }) => {
  test.setTimeout(120_000);
  const prefix = unique("srt");
  await createAccounts(
    page,
    Array.from({ length: 27 }, (_, i) => `${prefix}-${String(i).padStart(2, "0")}`),
  );
  await page.goto(`/accounts?search=${prefix}`);
  await expect(page.getByText("Strona 1 z 2 · 27 pozycji")).toBeVisible();

  // A page's rows: the same rows stay ticked after sorting by another column.
  await page.getByLabel(`Zaznacz ${prefix}-00@${DEMO.domain}`).check();
  await page.getByLabel(`Zaznacz ${prefix}-01@${DEMO.domain}`).check();
  await page.getByRole("button", { name: "Pojemność (MB)", exact: true }).click();
  await expect(page).toHaveURL(/sort=capacity/);
  await expect(page.getByText("Zaznaczono: 2 konta")).toBeVisible();
  await expect(page.getByLabel(`Zaznacz ${prefix}-00@${DEMO.domain}`)).toBeChecked();

  // All matching: still all 27 after sorting by name, descending (two clicks on the column's header).
  await page.getByRole("button", { name: "Zaznacz wszystkie pasujące (27 kont)" }).click();
  await expect(page.getByText("Zaznaczono wszystkie pasujące: 27 kont")).toBeVisible();
  await page.getByRole("button", { name: "Nazwa", exact: true }).click();
  await expect(page).not.toHaveURL(/sort=capacity/);
  await page.getByRole("button", { name: "Nazwa", exact: true }).click();
  await expect(page).toHaveURL(/dir=desc/);
  await expect(page.getByRole("row").nth(1)).toContainText(`${prefix}-26`);
  await expect(page.getByText("Zaznaczono wszystkie pasujące: 27 kont")).toBeVisible();
  await expect(page.getByLabel(`Zaznacz ${prefix}-26@${DEMO.domain}`)).toBeChecked();

  // A new search is a new set of rows: it starts a new selection.
  await page.getByLabel("Szukaj", { exact: true }).fill(`${prefix}-1`);
  await expect(page.getByText("Strona 1 z 1 · 10 pozycji")).toBeVisible();
  await expect(page.getByText(/Zaznaczono/)).toHaveCount(0);
});

test("the selection bar's buttons stay under a press while scripts requested on ticking load", async ({ page }) => {
  const name = unique("bar");
  await createAccounts(page, [name]);
  await page.goto(`/accounts?search=${name}`);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  // Scripts the tick asks for are held until "Delete selected" is pressed: loaded under a pointer, bulk actions
  // once moved the button 846 px away between press and release, so the click opened nothing (a CI flake).
  const held: Route[] = [];
  await page.route("**/_next/static/**", (route) => void held.push(route));
  await page.getByLabel("Zaznacz wszystkie wiersze na tej stronie").check();
  const remove = page.getByRole("button", { name: "Usuń zaznaczone" });
  const pressed = (await remove.boundingBox())!;
  await page.mouse.move(pressed.x + pressed.width / 2, pressed.y + pressed.height / 2);
  await page.mouse.down();
  for (const route of held) await route.continue();
  await page.unroute("**/_next/static/**");
  await Promise.all(held.map(async (route) => (await route.request().response())?.finished()));
  await expect(page.getByRole("button", { name: "Zablokuj", exact: true })).toBeVisible();
  expect(await remove.boundingBox()).toEqual(pressed);
  await page.mouse.up();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Usunąć konto?");
  await dialog.getByRole("button", { name: "Anuluj" }).click();
  await expect(dialog).toBeHidden();
});

test("bulk block asks first and says the accounts are signed out; Cancel blocks none", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const prefix = unique("blk");
  const names = [0, 1, 2].map((i) => `${prefix}-${i}`);
  await createAccounts(page, names);
  // One of them is signed in to the panel elsewhere.
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  await signIn(elsewhere, `${names[0]}@${DEMO.domain}`, "Haslo-123");
  await elsewhere.goto("/me");
  await expect(elsewhere.getByRole("heading", { level: 1 })).toBeVisible();

  await page.goto(`/accounts?search=${prefix}`);
  await page.getByLabel("Zaznacz wszystkie wiersze na tej stronie").check();
  await page.getByRole("button", { name: "Zablokuj", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Zablokować zaznaczone konta?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Zablokować 3 konta?");
  await expect(dialog).toContainText("użytkownicy zostaną wylogowani");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `bulk-block-${width}.png`) });
  }
  await dialog.getByRole("button", { name: "Anuluj" }).click();
  await expect(dialog).toBeHidden();
  for (const n of names) expect(await blockedOf(page, n)).toBe(0);

  await page.getByRole("button", { name: "Zablokuj", exact: true }).click();
  await dialog.getByRole("button", { name: "Zablokuj" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Zmieniono: 3 konta." })).toBeVisible();
  for (const n of names) expect(await blockedOf(page, n)).toBe(1);
  await elsewhere.goto("/me");
  await expect(elsewhere).toHaveURL(/\/login/);
  await other.close();
});

test("block and delete of a selection naming the postmaster leave it out and say so, a page's or all matching", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const prefix = unique("pmx");
  // Found by the search "postmaster" with the postmaster account: their descriptions name it.
  const names = [0, 1].map((i) => `${prefix}-${i}`);
  for (const name of names) {
    const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
      data: { password: "Haslo-123", capacity: 10, description: `zastępca postmaster ${prefix}` },
      headers: { origin: originOf(page) },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  const skipped = "Konto postmaster jest pomijane: tego konta nie można zablokować.";
  await page.goto("/accounts?search=postmaster");
  await expect(page.getByText("Strona 1 z 1 · 3 pozycje")).toBeVisible();

  // A page's selection: the postmaster's row and one more.
  await page.getByLabel(`Zaznacz postmaster@${DEMO.domain}`).check();
  await page.getByLabel(`Zaznacz ${names[0]}@${DEMO.domain}`).check();
  await page.getByRole("button", { name: "Zablokuj", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Zablokować zaznaczone konta?" });
  await expect(dialog).toContainText("Zablokować 1 konto?");
  await expect(dialog).toContainText(skipped);
  await dialog.getByRole("button", { name: "Anuluj" }).click();

  // All matching: the others are blocked, the postmaster is not, and no refusal.
  await page.getByRole("button", { name: "Zaznacz wszystkie pasujące (3 konta)" }).click();
  await page.getByRole("button", { name: "Zablokuj", exact: true }).click();
  await expect(dialog).toContainText("Zablokować 2 konta?");
  await expect(dialog).toContainText(skipped);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `bulk-block-postmaster-${width}.png`) });
  }
  await dialog.getByRole("button", { name: "Zablokuj" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Zmieniono: 2 konta. ${skipped}` })).toBeVisible();
  await expect(page.getByText(/Nic nie zmieniono/)).toHaveCount(0);
  for (const n of names) expect(await blockedOf(page, n)).toBe(1);
  expect(await blockedOf(page, "postmaster")).toBe(0);

  // Delete, all matching still selected: the same.
  await page.getByRole("button", { name: "Usuń zaznaczone" }).click();
  const remove = page.getByRole("dialog");
  await expect(remove.getByRole("heading")).toHaveText("Usunąć 2 konta?");
  await expect(remove).toContainText("Konto postmaster jest pomijane: tego konta nie można usunąć.");
  await remove.getByRole("button", { name: "Usuń", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Usunięto: 2 konta." })).toBeVisible();
  await expect(page.getByText("Strona 1 z 1 · 1 pozycja")).toBeVisible();
  for (const n of names) {
    expect((await page.request.get(`/api/panel/v1/emails/${DEMO.domain}/${n}`)).status()).toBe(404);
  }
  expect(await blockedOf(page, "postmaster")).toBe(0);
});

test("a bulk action's outcome goes when the search or the selection changes", async ({ page }) => {
  const prefix = unique("stale");
  const names = [0, 1, 2].map((i) => `${prefix}-${i}`);
  await createAccounts(page, names);
  const done = page.getByRole("status").filter({ hasText: /Zmieniono: / });
  await page.goto(`/accounts?search=${prefix}`);
  await page.getByLabel("Zaznacz wszystkie wiersze na tej stronie").check();
  await page.getByRole("button", { name: "Odblokuj", exact: true }).click();
  await expect(done).toHaveText("Zmieniono: 3 konta.");

  // Another selection: ticking a row off takes the outcome down.
  await page.getByLabel(`Zaznacz ${names[2]}@${DEMO.domain}`).uncheck();
  await expect(done).toHaveCount(0);
  await page.getByRole("button", { name: "Odblokuj", exact: true }).click();
  await expect(done).toHaveText("Zmieniono: 2 konta.");

  // A new search, then a new selection: the old "changed" does not stand beside it.
  await page.getByLabel("Szukaj", { exact: true }).fill(`${prefix}-1`);
  await expect(page.getByText("Strona 1 z 1 · 1 pozycja")).toBeVisible();
  await expect(done).toHaveCount(0);
  await page.getByLabel(`Zaznacz ${names[1]}@${DEMO.domain}`).check();
  await expect(page.getByText("Zaznaczono: 1 konto")).toBeVisible();
  await expect(done).toHaveCount(0);
});
