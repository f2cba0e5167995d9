// In English the panel shows English error texts: the API still answers in Polish, and the panel shows the error
// catalog's English text of the same entry (lib/client/error-text.ts), both for the server's errors placed on a
// field and for the panel's own checks that mirror an API rule.
import { errorCatalog } from "@/lib/errors/catalog";
import { DEMO, expect, signInAs, test } from "./fixtures";

test.beforeEach(async ({ context, baseURL }) => {
  await context.addCookies([{ name: "locale", value: "en", url: baseURL! }]);
});

test("a server error on the domain page lands on its field in English (no such account)", async ({ page }) => {
  await signInAs(page, "postmaster");
  await page.goto("/domain");
  await expect(page.getByRole("heading", { level: 1, name: "Domain settings" })).toBeVisible();
  await page.getByLabel("Kind of default account").selectOption("1");
  const address = page.getByLabel("Default account address");
  await address.fill(`nie-ma-takiego@${DEMO.domain}`);
  const answer = page.waitForResponse(
    (r) => r.url().includes("/api/panel/v1/domains/") && r.request().method() === "PUT",
  );
  await page.getByRole("button", { name: "Save settings" }).click();
  // The API itself still speaks Polish...
  expect(((await (await answer).json()) as { message: string }).message).toBe(
    errorCatalog.catchallAccountMissing.message,
  );
  // ...and the panel shows the English text on the field.
  await expect(address).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(errorCatalog.catchallAccountMissing.messageEn)).toBeVisible();
  await expect(page.getByText(errorCatalog.catchallAccountMissing.message)).toHaveCount(0);
});

test("the account form's own checks use the catalog's English text", async ({ page, loginAs }) => {
  await loginAs(page, "postmaster");
  await expect(page.getByRole("heading", { level: 1, name: "Mail accounts" })).toBeVisible();
  await expect(page.getByRole("link", { name: /anna\.kowalska@/ })).toHaveCount(1);
  await page.getByRole("button", { name: "New account" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Zła Nazwa");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText(errorCatalog.invalidAccountName.messageEn)).toBeVisible();
  await expect(page.getByText(errorCatalog.invalidPassword.messageEn)).toBeVisible();
});

test("a name already taken lands on the name field in English, without its code", async ({ page }) => {
  await signInAs(page, "postmaster");
  await page.goto("/aliases");
  await expect(page.getByRole("cell", { name: /^kontakt@/ })).toBeVisible();
  await page.getByLabel("Alias", { exact: true }).fill("biuro");
  await page.getByLabel("Target", { exact: true }).fill(`faktury@${DEMO.domain}`);
  await page.getByRole("button", { name: "Create alias" }).click();
  await expect(page.getByLabel("Alias", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(errorCatalog.nameTaken.messageEn)).toBeVisible();
  // The code is for support only: folded away in a details element, never in the visible text.
  await expect(page.getByText("409.1")).not.toBeVisible();
});

test("a bad confirmation URL in the list editor says why, in English", async ({ page }) => {
  await signInAs(page, "postmaster");
  await page.goto("/lists/ogloszenia");
  const url = page.getByLabel("Confirmation page URL");
  await url.fill("lista.example.com/potwierdz");
  await page.getByRole("button", { name: "Save list" }).click();
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(
    page.getByText(
      `${errorCatalog.invalidListOption.messageEn} The confirmation page URL must start with http:// or https:// (given: "lista.example.com/potwierdz")`,
      { exact: false },
    ),
  ).toBeVisible();
  await url.fill("https://lista.example.com/po twierdz");
  await page.getByRole("button", { name: "Save list" }).click();
  await expect(
    page.getByText(
      'The confirmation page URL must not contain spaces (given: "https://lista.example.com/po twierdz").',
    ),
  ).toBeVisible();
});
