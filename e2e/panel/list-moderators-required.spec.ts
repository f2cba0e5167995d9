// A moderated list needs a moderator: the list editor refuses to save "moderators only" with none, on the moderators'
// add field (marked, described, focused), in Polish and English; the service refuses the same through the BFF.
// The add button stays beside its field, the error under both. Screenshots of the refusal at each of WIDTHS
// (test-results/screenshots/list-no-moderator-*).
import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO, expect, originOf, test } from "./fixtures";
import { SCREENSHOTS, WIDTHS } from "./artifacts";

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e3)}`;

async function createList(page: Page, name: string) {
  const res = await page.request.post(`/api/panel/v1/mailinglists/${DEMO.domain}/${name}`, {
    data: { description: "Bez moderatora", accounts: [`jan.nowak@${DEMO.domain}`] },
    headers: { origin: originOf(page) },
  });
  expect(res.status(), await res.text()).toBe(201);
}

test("a moderated list without a moderator is refused on the moderators field, then saved with one", async ({
  page,
  loginAs,
}) => {
  await loginAs(page, "postmaster");
  const name = unique("mod");
  await createList(page, name);

  // The service itself refuses it (the API's rule, not only the form's).
  const direct = await page.request.put(`/api/panel/v1/mailinglists/${DEMO.domain}/${name}`, {
    data: { privacy_mode: 1 },
    headers: { origin: originOf(page) },
  });
  expect(await direct.json()).toMatchObject({
    code: "500.353",
    source: "moderators",
    attributes: { required_for_privacy_mode: 1 },
  });

  await page.goto(`/lists/${name}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  await page.getByLabel("Kto może pisać na listę").selectOption("1");
  await page.getByRole("button", { name: "Zapisz listę" }).click();
  const field = page.getByLabel("Dodaj adresy: Moderatorzy");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(/Lista moderowana musi mieć co najmniej jednego moderatora/);
  await expect(field).toBeFocused();
  await expect(page.getByRole("alert").filter({ hasText: "Do poprawienia (1)" })).toContainText("„Moderatorzy”");
  // The add button beside the field (its top on the field's top), the error under both, at every width.
  const addButton = page.getByRole("button", { name: "Dodaj", exact: true }).nth(1);
  const errorText = page.locator(`[id="${await field.getAttribute("id")}-error"]`);
  await expect(errorText).toContainText("Lista moderowana musi mieć co najmniej jednego moderatora");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await field.scrollIntoViewIfNeeded();
    const [input, button, message] = await Promise.all([field, addButton, errorText].map((l) => l.boundingBox()));
    expect(Math.abs(button!.y - input!.y), `button top vs field top at ${width} px`).toBeLessThanOrEqual(1);
    expect(button!.x, `button right of the field at ${width} px`).toBeGreaterThanOrEqual(input!.x + input!.width);
    expect(message!.y, `error under the field at ${width} px`).toBeGreaterThanOrEqual(input!.y + input!.height);
    expect(message!.y, `error under the button at ${width} px`).toBeGreaterThanOrEqual(button!.y + button!.height);
    await page.screenshot({ path: path.join(SCREENSHOTS, `list-no-moderator-${width}.png`) });
  }
  const stored = async () =>
    (await (await page.request.get(`/api/panel/v1/mailinglists/${DEMO.domain}/${name}`)).json()) as Record<
      string,
      unknown
    >;
  expect(await stored()).toMatchObject({ privacy_mode: 0, moderators: [] });

  await field.fill(`biuro@${DEMO.domain}`);
  await addButton.click();
  await page.getByRole("button", { name: "Zapisz listę" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Zapisano listę." })).toBeVisible();
  expect(await stored()).toMatchObject({ privacy_mode: 1, moderators: [`biuro@${DEMO.domain}`] });
});

test("in English the refusal speaks English", async ({ page, context, baseURL, loginAs }) => {
  await context.addCookies([{ name: "locale", value: "en", url: baseURL! }]);
  await loginAs(page, "postmaster");
  const name = unique("moden");
  await createList(page, name);
  await page.goto(`/lists/${name}`);
  await page.getByLabel("Who may post").selectOption("1");
  await page.getByRole("button", { name: "Save list" }).click();
  const field = page.getByLabel("Add addresses: Moderators");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(/A moderated list needs at least one moderator/);
  await expect(field).toBeFocused();
});
