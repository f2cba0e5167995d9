// Searching the tables by address: a whole address finds that account only, one being typed ("name@") still finds
// it, and a phone-width search box shows a whole address.
import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO, expect, originOf, test } from "./fixtures";
import { SCREENSHOTS } from "./artifacts";

const stem = `agn${Date.now().toString(36)}`;
const names = [`${stem}.kowalczyk`, `${stem}.kowalczyk5`, `${stem}.kowalczyk55`];
const editLinks = (page: Page) => page.getByRole("link", { name: new RegExp(`^Edytuj ${stem}\\.`) });

test.beforeEach(async ({ page, loginAs }) => {
  await loginAs(page, "postmaster");
});

test("a whole address finds that account only, and one being typed still finds it", async ({ page }) => {
  for (const name of names) {
    const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
      data: { password: "Haslo-123", capacity: 10 },
      headers: { origin: originOf(page) },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  await page.goto(`/accounts?search=${encodeURIComponent(stem)}`);
  await expect(editLinks(page)).toHaveCount(3);

  const box = page.getByRole("searchbox", { name: "Szukaj" });
  await box.fill(`${names[0]}@${DEMO.domain}`);
  await expect(page).toHaveURL(/search=/);
  await expect(editLinks(page)).toHaveCount(1);
  await expect(page.getByRole("link", { name: `Edytuj ${names[0]}@${DEMO.domain}` })).toBeVisible();

  for (const typed of [`${names[0]}@`, `${names[0]}@demo.ex`]) {
    await box.fill(typed);
    await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(typed).replace(/\./g, "\\.")}`));
    await expect(editLinks(page)).toHaveCount(1);
    await expect(page.getByText("Żadne konto nie pasuje")).toHaveCount(0);
  }
  // A name's end: "kowalczyk5@" finds kowalczyk5, not kowalczyk55.
  await box.fill(`${names[1]}@`);
  await expect(page.getByRole("link", { name: `Edytuj ${names[1]}@${DEMO.domain}` })).toBeVisible();
  await expect(editLinks(page)).toHaveCount(1);
});

for (const width of [320, 375]) {
  test(`at ${width} px the search box shows a whole address`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/accounts");
    const box = page.getByRole("searchbox", { name: "Szukaj" });
    await box.fill(`agnieszka.kowalczyk@${DEMO.domain}`);
    const fits = await box.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(fits.scroll, `text ${fits.scroll} px in a ${fits.client} px box`).toBeLessThanOrEqual(fits.client);
    // The picture shows the table the search gave, not the rows from before it applied.
    await expect(page).toHaveURL(/[?&]search=/);
    await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, `address-search-${width}.png`) });
  });
}

for (const width of [1280, 1920]) {
  test(`search box at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/accounts?search=${encodeURIComponent(`anna.kowalska@${DEMO.domain}`)}`);
    await expect(page.getByRole("link", { name: `Edytuj anna.kowalska@${DEMO.domain}` })).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOTS, `address-search-${width}.png`) });
  });
}
