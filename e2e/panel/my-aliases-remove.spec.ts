// An owner's "Moje aliasy": removing an alias asks first (Cancel keeps it), and after the removal the keyboard focus
// is on the next alias's Remove button, or on the new-alias field when none follows, not at the top of the page.
// Screenshots of the question at each of WIDTHS (artifacts.ts) (test-results/screenshots/my-aliases-remove-*).
import path from "node:path";
import { DEMO, expect, originOf, signIn, test } from "./fixtures";
import { SCREENSHOTS, WIDTHS } from "./artifacts";

test("removing an alias asks first, then the focus moves to the next alias or the new-alias field", async ({
  page,
  loginAs,
}) => {
  test.setTimeout(90_000);
  await loginAs(page, "postmaster");
  const name = `wlas${Date.now().toString(36)}`;
  const email = (n: string) => `${n}@${DEMO.domain}`;
  const [first, second] = [email(`${name}-a`), email(`${name}-b`)];
  const created = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
    data: { password: "Haslo-123", capacity: 10, alias_limit: 3, aliases: [first, second] },
    headers: { origin: originOf(page) },
  });
  expect(created.status(), await created.text()).toBe(201);
  await page.context().clearCookies();
  await signIn(page, email(name), "Haslo-123");
  await page.goto("/me");
  const section = page.getByRole("region", { name: "Moje aliasy" });
  const removeButton = (address: string) => section.getByRole("button", { name: `Usuń: ${address}` });
  const dialog = page.getByRole("dialog", { name: "Usunąć alias?" });

  // Cancel keeps the alias and gives the focus back to its button.
  await removeButton(first).click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Poczta wysłana na ${first} przestanie trafiać do tej skrzynki.`);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `my-aliases-remove-${width}.png`) });
  }
  await dialog.getByRole("button", { name: "Anuluj" }).click();
  await expect(dialog).toBeHidden();
  await expect(removeButton(first)).toBeFocused();
  const stored = async () =>
    ((await (await page.request.get(`/api/panel/v1/emails/${DEMO.domain}/${name}`)).json()) as { aliases: string[] })
      .aliases;
  expect(await stored()).toEqual([first, second]);

  // Confirmed: gone, and the focus is on the next alias's Remove button.
  await removeButton(first).click();
  await dialog.getByRole("button", { name: "Usuń alias" }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByRole("status").filter({ hasText: `Usunięto alias ${first}.` })).toBeVisible();
  await expect(removeButton(first)).toHaveCount(0);
  await expect(removeButton(second)).toBeFocused();
  expect(await stored()).toEqual([second]);

  // By keyboard alone: Enter on the focused button, Tab from Cancel to the confirmation, Enter; no alias follows,
  // so the focus lands on the new-alias field.
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Anuluj" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(section.getByLabel("Nowy alias")).toBeFocused();
  await expect(section).toContainText("To konto nie ma jeszcze aliasów.");
  expect(await stored()).toEqual([]);
});
