// The account delete dialog names every alias the delete takes with it, also those reaching the account through
// another alias; screenshots at each of WIDTHS (artifacts.ts) (test-results/screenshots/delete-chain-*).
import path from "node:path";
import { DEMO, expect, originOf, test } from "./fixtures";
import { SCREENSHOTS, WIDTHS } from "./artifacts";

test("the delete dialog names the aliases that point at the account through another alias, and they all go", async ({
  page,
  loginAs,
}) => {
  await loginAs(page, "postmaster");
  const name = `lanc${Date.now().toString(36)}`;
  const email = (n: string) => `${n}@${DEMO.domain}`;
  const headers = { origin: originOf(page) };
  const bff = (url: string, data: object) => page.request.post(`/api/panel/v1/${url}`, { data, headers });
  expect((await bff(`emails/${DEMO.domain}/${name}`, { password: "Haslo-123", capacity: 10 })).status()).toBe(201);
  // biuro -> account, petla -> biuro, dalej -> petla: all three go with the account.
  expect((await bff(`aliases/${DEMO.domain}/${name}-biuro`, { target: email(name) })).status()).toBe(201);
  expect((await bff(`aliases/${DEMO.domain}/${name}-petla`, { target: email(`${name}-biuro`) })).status()).toBe(201);
  expect((await bff(`aliases/${DEMO.domain}/${name}-dalej`, { target: email(`${name}-petla`) })).status()).toBe(201);

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/accounts?search=${name}`);
    await page.getByRole("button", { name: `Usuń: ${email(name)}` }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText(
      "Razem z kontem znikną aliasy, które na nie wskazują, wprost lub przez inny alias (3 aliasy):",
    );
    await expect(dialog.getByRole("listitem")).toHaveText([
      email(`${name}-biuro`),
      email(`${name}-dalej`),
      email(`${name}-petla`),
    ]);
    await page.screenshot({ path: path.join(SCREENSHOTS, `delete-chain-${width}.png`) });
    if (width !== 1920) await dialog.getByRole("button", { name: "Anuluj" }).click();
    else await dialog.getByRole("button", { name: "Usuń" }).click();
    await expect(dialog).toBeHidden();
  }
  for (const alias of ["biuro", "petla", "dalej"]) {
    expect((await page.request.get(`/api/panel/v1/aliases/${DEMO.domain}/${name}-${alias}`)).status()).toBe(404);
  }
});

test("the delete dialog of one account with nothing attached speaks of one account, in both languages", async ({
  page,
  loginAs,
  baseURL,
}) => {
  await loginAs(page, "postmaster");
  const name = `samo${Date.now().toString(36)}`;
  const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
    data: { password: "Haslo-123", capacity: 10 },
    headers: { origin: originOf(page) },
  });
  expect(res.status()).toBe(201);
  await page.goto(`/accounts?search=${name}`);
  await page.getByRole("button", { name: `Usuń: ${name}@${DEMO.domain}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(
    "Żaden alias nie wskazuje na usuwane konto, nie jest ono na żadnej liście, a catchall go nie dotyczy.",
  );
  await page.screenshot({ path: path.join(SCREENSHOTS, "delete-one-nothing-else.png") });
  await dialog.getByRole("button", { name: "Anuluj" }).click();

  await page.context().addCookies([{ name: "locale", value: "en", url: baseURL! }]);
  await page.goto(`/accounts?search=${name}`);
  await page.getByRole("button", { name: `Delete: ${name}@${DEMO.domain}` }).click();
  await expect(dialog).toContainText(
    "No alias points at the account being deleted, it is on no list, and the catchall does not deliver to it.",
  );
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(dialog).toBeHidden();
});
