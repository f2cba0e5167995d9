// An owner's "Moje aliasy": a refused name lands on the field, marked, saying why (reserved for the administrator,
// or taken), not the API's general "invalid list of aliases"; the limit reads as plain Polish. Screenshots at three
// widths.
import path from "node:path";
import { DEMO, colourOf, expect, isRed, signIn, test } from "./fixtures";
import { SCREENSHOTS, WIDTHS } from "./artifacts";

test("an owner adding postmaster or a taken name is told why, on the marked field", async ({ page }) => {
  await signIn(page, DEMO.user.email, DEMO.user.password);
  await page.goto("/me");
  const section = page.getByRole("region", { name: "Moje aliasy" });
  await expect(section).toContainText(/Możesz mieć najwyżej \d+ alias/);
  await expect(section).not.toContainText("mieć ich");
  const field = section.getByLabel("Nowy alias");

  await field.fill("postmaster");
  await section.getByRole("button", { name: "Dodaj alias" }).click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(
    /Adres postmaster@demo\.example\.com jest zastrzeżony dla administratora domeny/,
  );
  await expect(field).toBeFocused();
  await expect(section).not.toContainText("Nieprawidłowa lista aliasów");

  await field.fill("anna.kowalska");
  await section.getByRole("button", { name: "Dodaj alias" }).click();
  await expect(field).toHaveAccessibleDescription(/Adres anna\.kowalska@demo\.example\.com jest już zajęty w domenie/);
  await expect(field).toHaveAttribute("aria-invalid", "true");

  expect(isRed(await colourOf(field, "borderTopColor"))).toBe(true);

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    // The field takes the form's width (beside the button from 640 px, above it below), as the page's other fields
    // do; it was held to 320 px.
    const [fieldBox, formBox, buttonBox] = await Promise.all([
      field.boundingBox(),
      field.locator("xpath=ancestor::form[1]").boundingBox(),
      section.getByRole("button", { name: "Dodaj alias" }).boundingBox(),
    ]);
    const room = width >= 640 ? formBox!.width - buttonBox!.width - 12 : formBox!.width;
    expect(Math.abs(fieldBox!.width - room), `${width} px`).toBeLessThan(1);
    await page.screenshot({ path: path.join(SCREENSHOTS, `my-aliases-refused-${width}.png`), fullPage: true });
    await section.screenshot({ path: path.join(SCREENSHOTS, `my-aliases-refused-section-${width}.png`) });
  }
});
