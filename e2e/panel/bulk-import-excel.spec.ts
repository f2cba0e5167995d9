// Bulk create from a CSV file as Excel saves it: Windows-1250, CRLF, and rows of empty fields (";;;") after the data.
// Those rows are not accounts: the preview and the result leave them out. The preview's scrolling box is reached by
// keyboard (a focusable, named region; axe's scrollable-region-focusable). Screenshots of the preview at three
// widths (test-results/screenshots/bulk-excel-*).
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { colourOf, expect, test } from "./fixtures";
import { SCREENSHOTS, WIDTHS } from "./artifacts";

/** Windows-1250 bytes of a text of ASCII and a few Polish letters. */
const windows1250 = (text: string) =>
  Buffer.from(
    [...text].map((c) => ({ ą: 0xb9, ć: 0xe6, ę: 0xea, ł: 0xb3, ó: 0xf3, ś: 0x9c, ż: 0xbf })[c] ?? c.charCodeAt(0)),
  );

test("an Excel CSV's trailing ;;; rows are ignored, and the preview's scrolling box is reachable by keyboard", async ({
  page,
  loginAs,
}) => {
  test.setTimeout(90_000);
  await loginAs(page, "postmaster");
  const prefix = `xl${Date.now().toString(36)}`;
  const names = Array.from({ length: 16 }, (_, i) => `${prefix}-${String(i + 1).padStart(2, "0")}`);
  const csv = ["nazwa;hasło;pojemność;opis", ...names.map((n) => `${n};;10;Księgowość`), ";;;", ";;;", ";;;", ""].join(
    "\r\n",
  );

  await page.goto("/accounts");
  await page.getByRole("button", { name: "Dodaj wiele kont" }).click();
  const dialog = page.getByRole("dialog", { name: "Dodaj wiele kont" });
  await dialog
    .getByLabel("…albo plik CSV")
    .setInputFiles({ name: "konta.csv", mimeType: "text/csv", buffer: windows1250(csv) });
  await expect(dialog.getByLabel("Wiersze")).toHaveValue(/Księgowość/);
  await dialog.getByRole("button", { name: "Sprawdź" }).click();
  await expect(dialog.getByText("Do utworzenia: 16 kont. Wiersze z błędem: 0 (nie zostaną wysłane).")).toBeVisible();

  const preview = dialog.getByRole("region", { name: "Podgląd wierszy" });
  await expect(preview.getByRole("row")).toHaveCount(1 + 16);
  // The box scrolls (16 rows are taller than it), and the keyboard reaches and scrolls it.
  expect(await preview.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await preview.focus();
  await expect(preview).toBeFocused();
  await page.keyboard.press("End");
  await expect.poll(() => preview.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  const axe = await new AxeBuilder({ page })
    .include("dialog[open]")
    .withRules(["scrollable-region-focusable"])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `bulk-excel-${width}.png`) });
  }

  await dialog.getByRole("button", { name: "Utwórz 16 kont" }).click();
  await expect(dialog.getByText("Utworzono: 16 kont. Nie utworzono: 0 kont.")).toBeVisible({ timeout: 60_000 });
  await expect(dialog.getByRole("region", { name: "Wynik dla każdego wiersza" }).getByRole("row")).toHaveCount(1 + 16);
});

test("the CSV file is chosen with the panel's own button, in its language, by keyboard too", async ({
  page,
  loginAs,
}) => {
  await loginAs(page, "postmaster");
  await page.goto("/accounts");
  await page.getByRole("button", { name: "Dodaj wiele kont" }).click();
  const dialog = page.getByRole("dialog", { name: "Dodaj wiele kont" });
  const input = dialog.getByLabel("…albo plik CSV");
  // The browser's control ("Choose File", "No file chosen") is hidden; the panel's says it in Polish.
  await expect(dialog.getByText("Wybierz plik", { exact: true })).toBeVisible();
  await expect(dialog.getByText("Nie wybrano pliku")).toBeVisible();
  expect(await input.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
  await expect(input).toHaveAccessibleName(/…albo plik CSV/);
  // Reached by Tab from the text field above it.
  await dialog.getByRole("textbox").first().focus();
  await page.keyboard.press("Tab");
  await expect(input).toBeFocused();
  // The disabled "Sprawdź" is grey with dark text, not white on light blue.
  await expect(dialog.getByRole("button", { name: "Sprawdź" })).toBeDisabled();
  // Tailwind's gray-200 (white on blue-400 read at 2.9:1).
  expect(await colourOf(dialog.getByRole("button", { name: "Sprawdź" }), "backgroundColor")).toEqual([229, 231, 235]);
  for (const width of [375, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `bulk-create-file-${width}.png`) });
  }
  await input.setInputFiles({ name: "konta.csv", mimeType: "text/csv", buffer: Buffer.from("ala;;10;\n") });
  await expect(dialog.getByText("konta.csv")).toBeVisible();
  await expect(dialog.getByRole("textbox").first()).toHaveValue(/^ala;;10;/);
});
