// The postmaster creates, retargets and deletes an alias, and creates a mailing list with subscribers.
import path from "node:path";
import type { Page } from "@playwright/test";
import { SCREENSHOTS } from "./artifacts";
import { DEMO, expect, originOf, test } from "./fixtures";

/** The list editor's one-time "created" notice at the top of the page, at a phone's, a laptop's and a wide width. */
async function shotCreated(page: Page, locale: "pl" | "en") {
  for (const width of [375, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENSHOTS, `list-created-${locale}-${width}.png`) });
  }
}

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test.beforeEach(async ({ page, loginAs }) => {
  await loginAs(page, "postmaster");
});

test("creates an alias, changes its target and deletes it", async ({ page }) => {
  const name = unique("alias");
  await page.goto("/aliases");
  await expect(page.getByRole("heading", { level: 1, name: "Aliasy" })).toBeVisible();
  await page.getByLabel("Alias", { exact: true }).fill(name);
  await page.getByLabel("Cel", { exact: true }).fill(`biuro@${DEMO.domain}`);
  await page.getByRole("button", { name: "Utwórz alias" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Utworzono alias ${name}@${DEMO.domain}.` })).toBeVisible();

  await page.getByLabel("Szukaj").fill(name);
  const row = page.getByRole("row").filter({ hasText: `${name}@${DEMO.domain}` });
  await expect(row).toContainText(`biuro@${DEMO.domain}`);
  await row.getByRole("button", { name: /Zmień cel/ }).click();
  const target = page.getByLabel(`Nowy cel aliasu ${name}@${DEMO.domain}`);
  await expect(target).toBeFocused();
  await target.fill("to nie adres");
  await target.press("Enter");
  await expect(target).toHaveAttribute("aria-invalid", "true");
  // Escape closes the editor and gives the focus back to the row's button, not to the page's body.
  await target.press("Escape");
  await expect(target).toHaveCount(0);
  const change = row.getByRole("button", { name: /Zmień cel/ });
  await expect(change).toBeFocused();
  await change.click();
  await target.fill(`faktury@${DEMO.domain}`);
  await target.press("Enter");
  await expect(row).toContainText(`faktury@${DEMO.domain}`);
  await expect(change).toBeFocused();

  await row.getByRole("button", { name: /Usuń/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Usuń" }).click();
  await expect(page.getByText(`Żaden alias nie pasuje do „${name}”`)).toBeVisible();
});

test("the target editor fits a phone's 375 px with its buttons, in Polish and English", async ({ page }) => {
  const words = { pl: ["Zmień cel", "Zapisz", "Anuluj"], en: ["Change target", "Save", "Cancel"] } as const;
  for (const locale of ["pl", "en"] as const) {
    const [change, save, cancel] = words[locale];
    await page.context().addCookies([{ name: "locale", value: locale, url: originOf(page) }]);
    await page.setViewportSize({ width: 375, height: 900 });
    await page.goto("/aliases");
    const row = page.getByRole("row").filter({ hasText: `ania@${DEMO.domain}` });
    await row.getByRole("button", { name: new RegExp(change) }).click();
    const form = row.locator("form");
    await expect(form.getByRole("textbox")).toBeFocused();
    for (const width of [375, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      // It stretched the page to 378 px (Polish) and 410 px (English): the field had a minimum width of 192 px.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `horizontal scroll at ${width} px (${locale})`).toBeLessThanOrEqual(0);
      // The field, its buttons and every row's buttons stay inside the table's border.
      const table = (await page.getByRole("table").boundingBox())!;
      const controls = [
        form.getByRole("textbox"),
        form.getByRole("button", { name: save }),
        form.getByRole("button", { name: cancel }),
        ...(await page.getByRole("table").getByRole("button").all()),
      ];
      for (const control of controls) {
        const box = (await control.boundingBox())!;
        expect(box.x + box.width, `${await control.textContent()} at ${width} px (${locale})`).toBeLessThanOrEqual(
          table.x + table.width,
        );
      }
      await row.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SCREENSHOTS, `alias-target-editor-${locale}-${width}.png`) });
    }
  }
});

test("refuses an alias whose name is taken", async ({ page }) => {
  await page.goto("/aliases");
  await page.getByLabel("Alias", { exact: true }).fill("biuro");
  await page.getByLabel("Cel", { exact: true }).fill(`faktury@${DEMO.domain}`);
  await page.getByRole("button", { name: "Utwórz alias" }).click();
  // On the name field, not as a raw code in a banner.
  await expect(page.getByLabel("Alias", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Ten adres jest już zajęty w domenie")).toBeVisible();
});

test("creates a mailing list with subscribers and a moderator", async ({ page }) => {
  const name = unique("lista");
  await page.goto("/lists");
  await expect(page.getByRole("heading", { level: 1, name: "Listy dyskusyjne" })).toBeVisible();
  await page.getByLabel("Lista", { exact: true }).fill(name);
  await page.getByLabel("Opis", { exact: true }).fill("Lista z testu E2E");
  await page.getByRole("button", { name: "Utwórz listę" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Lista ${name}@${DEMO.domain}` })).toBeVisible();
  // Said once: the address loses ?created=1, so the reload below does not say it again.
  await expect(page.getByText("Utworzono listę. Dodaj subskrybentów i zapisz.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/lists/${name}$`));
  await shotCreated(page, "pl");

  await page
    .getByLabel("Dodaj adresy: Subskrybenci")
    .fill(`anna.kowalska@${DEMO.domain}, jan.nowak@${DEMO.domain}\nklient@example.org\nzły adres@`);
  await page.getByRole("button", { name: "Dodaj" }).first().click();
  await expect(page.getByText("Dodano: 3.")).toBeVisible();
  await expect(page.getByText(/Pominięto nieprawidłowe adresy/)).toBeVisible();
  await page.getByLabel("Dodaj adresy: Moderatorzy").fill(`biuro@${DEMO.domain}`);
  await page.getByRole("button", { name: "Dodaj" }).nth(1).click();
  await page.getByRole("button", { name: "Usuń klient@example.org" }).click();
  await page.getByLabel("Kto może pisać na listę").selectOption("2");
  await page.getByRole("button", { name: "Zapisz listę" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Zapisano listę." })).toBeVisible();

  await page.reload();
  const subscribers = page.getByRole("list", { name: "Subskrybenci" });
  await expect(subscribers.getByRole("listitem")).toHaveCount(2);
  await expect(page.getByText("Utworzono listę. Dodaj subskrybentów i zapisz.")).toHaveCount(0);
  await expect(subscribers).toContainText(`jan.nowak@${DEMO.domain}`);
  await expect(page.getByRole("list", { name: "Moderatorzy" })).toContainText(`biuro@${DEMO.domain}`);
  await expect(page.getByLabel("Kto może pisać na listę")).toHaveValue("2");
  await expect(page.getByLabel("Temat: Potwierdzenie zapisu")).toHaveValue("Witamy na liście {{list}}");
});

test("the English editor says once that the list was created", async ({ page }) => {
  const name = unique("list");
  await page.context().addCookies([{ name: "locale", value: "en", url: new URL(page.url()).origin }]);
  await page.goto("/lists");
  await expect(page.getByRole("heading", { level: 1, name: "Mailing lists" })).toBeVisible();
  await page.getByLabel("List", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create list" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `List ${name}@${DEMO.domain}` })).toBeVisible();
  await expect(page.getByText("List created. Add subscribers and save.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/lists/${name}$`));
  await shotCreated(page, "en");
});

test("a subscriber that leads to another list is refused under the subscribers' field, and nothing is saved", async ({
  page,
}) => {
  // An alias to the demo's list "ogloszenia": the list would discard every copy "wszyscy" sent it (docs/lists.md).
  const alias = unique("do-ogloszen");
  const created = await page.request.post(`/api/panel/v1/aliases/${DEMO.domain}/${alias}`, {
    data: { target: `ogloszenia@${DEMO.domain}` },
    headers: { origin: originOf(page) },
  });
  expect(created.status(), await created.text()).toBe(201);
  const stored = async () =>
    (
      (await (await page.request.get(`/api/panel/v1/mailinglists/${DEMO.domain}/wszyscy`)).json()) as {
        accounts: string[];
      }
    ).accounts;
  const before = await stored();

  await page.goto("/lists/wszyscy");
  const field = page.getByLabel("Dodaj adresy: Subskrybenci");
  await field.fill(`${alias}@${DEMO.domain}`);
  await page.getByRole("button", { name: "Dodaj" }).first().click();
  await page.getByRole("button", { name: "Zapisz listę" }).click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  // Under the field, in its error element (which the field's description names): the address and the list it reaches.
  const id = await field.getAttribute("id");
  await expect(field).toHaveAttribute("aria-describedby", new RegExp(`\\b${id}-error\\b`));
  await expect(page.locator(`[id="${id}-error"]`)).toHaveText(
    `Adres prowadzi do listy dyskusyjnej tego serwera, a lista nie przyjmuje wiadomości rozsyłanych przez inną listę: ta lista nie dostałaby tych wiadomości. Prowadzi do listy: „${alias}@${DEMO.domain}” → „ogloszenia@${DEMO.domain}”.`,
  );
  await field.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SCREENSHOTS, "list-nested-refused-pl.png") });
  expect(await stored()).toEqual(before);
  // The demo's alias table is the later specs' too (tables.spec.ts measures it at 375 px): the alias goes again.
  const removed = await page.request.delete(`/api/panel/v1/aliases/${DEMO.domain}/${alias}`, {
    headers: { origin: originOf(page) },
  });
  expect(removed.status(), await removed.text()).toBe(204);
});

test("a request template without the confirmation link is refused on its field", async ({ page }) => {
  await page.goto("/lists/wszyscy");
  const body = page.getByLabel("Treść: Prośba o potwierdzenie zapisu");
  await body.fill("Brak linku");
  await page.getByRole("button", { name: "Zapisz listę" }).click();
  await expect(body).toHaveAttribute("aria-invalid", "true");
  await page.getByRole("button", { name: "Przywróć domyślny: Prośba o potwierdzenie zapisu" }).click();
  await expect(body).toHaveValue(/\{\{confirm_link\}\}/);
  // On a phone the longer "restore" buttons wrap: every line starts at the fields' left edge, none centred.
  await page.setViewportSize({ width: 375, height: 900 });
  const restore = page.getByRole("button", { name: /^Przywróć domyślny: / });
  await expect(restore).toHaveCount(4);
  const lineStarts = await restore.evaluateAll((buttons) =>
    buttons.map((button) => {
      const range = document.createRange();
      range.selectNodeContents(button);
      return [...range.getClientRects()].map((r) => Math.round(r.left));
    }),
  );
  const fieldLeft = await body.evaluate((el) => Math.round(el.getBoundingClientRect().left));
  expect(
    lineStarts.some((lines) => lines.length > 1),
    "a button wraps at 375 px",
  ).toBe(true);
  for (const lines of lineStarts) for (const left of lines) expect(Math.abs(left - fieldLeft)).toBeLessThanOrEqual(1);
});

test("pasted members keep each address whole: names from a mail program, commas, semicolons, a spreadsheet column", async ({
  page,
}) => {
  const name = unique("wklej");
  const created = await page.request.post(`/api/panel/v1/mailinglists/${DEMO.domain}/${name}`, {
    data: { description: "" },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(created.status(), await created.text()).toBe(201);
  await page.goto(`/lists/${name}`);
  const field = page.getByLabel("Dodaj adresy: Subskrybenci");
  // What a mail program's To: line and a spreadsheet's column give: display names with spaces (a comma inside the
  // quotes), commas and semicolons between entries, one address a line; and one entry with no address at all.
  await field.fill(
    [
      `Jan Nowak <jan.nowak@${DEMO.domain}>, "Kowalska, Anna" <Anna.Kowalska@${DEMO.domain}>; <biuro@${DEMO.domain}>`,
      "klient@example.org",
      "  faktury@example.org  ",
      "Zofia Brak Adresu",
    ].join("\n"),
  );
  await page.getByRole("button", { name: "Dodaj" }).first().click();
  await expect(page.getByRole("status").filter({ hasText: "Dodano: 5." })).toContainText(
    "Pominięto nieprawidłowe adresy: Zofia Brak Adresu",
  );
  await expect(page.getByRole("list", { name: "Subskrybenci" }).getByRole("listitem")).toHaveText(
    [
      `jan.nowak@${DEMO.domain}`,
      `anna.kowalska@${DEMO.domain}`,
      `biuro@${DEMO.domain}`,
      "klient@example.org",
      "faktury@example.org",
    ].map((address) => new RegExp(`^${address.replace(/\./g, "\\.")}×$`)),
  );
  // What was skipped stays in the field, whole, to be corrected.
  await expect(field).toHaveValue("Zofia Brak Adresu");
  for (const width of [375, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    // The field mid-window: scrolled in from below, it would sit under the sticky save bar.
    await field.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: path.join(SCREENSHOTS, `list-members-paste-${width}.png`) });
    // The filter takes the row's width beside the count (above it on a phone), as the add field does; it was held
    // to 320 px.
    const filter = page.getByLabel("Filtruj: Subskrybenci");
    const [filterBox, rowBox, countBox] = await Promise.all([
      filter.boundingBox(),
      filter.locator("xpath=ancestor::div[contains(@class,'justify-between')][1]").boundingBox(),
      filter.locator("xpath=ancestor::div[contains(@class,'justify-between')][1]/p").boundingBox(),
    ]);
    const below = countBox!.y >= filterBox!.y + filterBox!.height;
    const room = below ? rowBox!.width : rowBox!.width - countBox!.width - 8;
    expect(Math.abs(filterBox!.width - room), `${width} px`).toBeLessThan(1);
    expect(filterBox!.width, `${width} px`).toBeGreaterThan(width >= 1280 ? 400 : 300);
    // The hint's example stays on one line: broken inside, „Jan Nowak <jan@…” no longer reads as one entry.
    const exampleLines = await page.evaluate(() => {
      const example = "Jan\u00a0Nowak\u00a0<jan@example.com>";
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.indexOf(example) ?? -1;
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + example.length);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      }
      return 0;
    });
    expect(exampleLines, `the hint's example at ${width} px`).toBe(1);
  }
});
