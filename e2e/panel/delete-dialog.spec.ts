// The account delete dialog names every alias the delete takes with it, also those reaching the account through
// another alias; screenshots at each of WIDTHS (artifacts.ts) (test-results/screenshots/delete-chain-*). Its "Delete"
// cannot be pressed before what goes too is shown, and neither button moves when it arrives or fails to.
import path from "node:path";
import type { Request } from "@playwright/test";
import { DEMO, expect, originOf, signInAs, test } from "./fixtures";
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

test("the delete dialog of several accounts speaks of them all, with the Polish plural forms, in both languages", async ({
  page,
  loginAs,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await loginAs(page, "postmaster");
  const stamp = Date.now().toString(36);
  const prefix = `mn${stamp}`;
  const email = (n: string) => `${n}@${DEMO.domain}`;
  const headers = { origin: originOf(page) };
  const bff = async (method: "post" | "delete", url: string, data?: object) => {
    const res = await page.request[method](`/api/panel/v1/${url}`, { data, headers });
    expect(res.status(), await res.text()).toBeLessThan(300);
  };
  // Eleven accounts (ten names shown, "and 1 more"); a and c each have an alias, a list and an account
  // forwarding to them; b has nothing.
  const names = Array.from({ length: 11 }, (_, i) => `${prefix}-${String(i).padStart(2, "0")}`);
  const [a, b, c] = names as [string, string, string];
  for (const n of names) await bff("post", `emails/${DEMO.domain}/${n}`, { password: "Haslo-123", capacity: 10 });
  await bff("post", `aliases/${DEMO.domain}/${prefix}-al1`, { target: email(a) });
  await bff("post", `aliases/${DEMO.domain}/${prefix}-al2`, { target: email(c) });
  const lists = [`ls${stamp}a`, `ls${stamp}c`];
  await bff("post", `mailinglists/${DEMO.domain}/${lists[0]}`, { accounts: [email(a)] });
  await bff("post", `mailinglists/${DEMO.domain}/${lists[1]}`, { accounts: [email(c)] });
  const forwarders = [`fw${stamp}a`, `fw${stamp}c`];
  await bff("post", `emails/${DEMO.domain}/${forwarders[0]}`, {
    password: "Haslo-123",
    capacity: 10,
    forwards: [email(a)],
  });
  await bff("post", `emails/${DEMO.domain}/${forwarders[1]}`, {
    password: "Haslo-123",
    capacity: 10,
    forwards: [email(c)],
  });
  const dialog = page.getByRole("dialog");
  const open = async () => {
    await page.goto(`/accounts?search=${prefix}`);
    await expect(page.getByRole("checkbox", { name: new RegExp(` ${email(names[10]!)}$`) })).toBeVisible();
  };

  // One account, one of each: the singular throughout.
  await open();
  await page.getByRole("button", { name: `Usuń: ${email(a)}` }).click();
  await expect(dialog).toContainText(
    "Razem z kontem zniknie alias, który na nie wskazuje, wprost lub przez inny alias:",
  );
  await expect(dialog).toContainText(
    "Konto zostanie usunięte z tej listy dyskusyjnej domeny (jako subskrybent i moderator):",
  );
  await expect(dialog).toContainText("To konto przestanie przekierowywać pocztę na usuwane konto:");
  await dialog.getByRole("button", { name: "Anuluj" }).click();

  // Two accounts: every sentence speaks of them, from the check on (held until it has been read).
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/panel/aliases-reaching*", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel(`Zaznacz ${email(a)}`).check();
  await page.getByLabel(`Zaznacz ${email(b)}`).check();
  await page.getByRole("button", { name: "Usuń zaznaczone" }).click();
  await expect(dialog.getByRole("heading")).toHaveText("Usunąć 2 konta?");
  // What is lost, as the one-account question says it; the title's question is not asked again below it.
  await expect(dialog).toContainText("Poczta w ich skrzynkach zostanie utracona. Tej operacji nie można cofnąć.");
  await expect(dialog.getByText("Usunąć 2 konta?")).toHaveCount(1);
  await expect(dialog).toContainText("Sprawdzanie, co zostanie usunięte razem z kontami…");
  release();
  await expect(dialog).toContainText(
    "Razem z kontami zniknie alias, który wskazuje na któreś z nich, wprost lub przez inny alias:",
  );
  await expect(dialog).toContainText(
    "Konta zostaną usunięte z tej listy dyskusyjnej domeny (jako subskrybenci i moderatorzy):",
  );
  await expect(dialog).toContainText("To konto przestanie przekierowywać pocztę na usuwane konta:");
  await page.unroute("**/api/panel/aliases-reaching*");
  for (const width of [375, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `delete-two-pl-${width}.png`) });
  }
  await expect(dialog).not.toContainText(/Razem z kontem|Konto zostanie|na usuwane konto\b|na nie wskazuje\b/);
  await dialog.getByRole("button", { name: "Anuluj" }).click();

  // Eleven accounts, two of each: "11 kont", "2 aliasy", "2 konta", and the eleventh name as "i jeszcze 1".
  await open();
  await page.getByLabel("Zaznacz wszystkie wiersze na tej stronie").check();
  await page.getByRole("button", { name: "Usuń zaznaczone" }).click();
  await expect(dialog.getByRole("heading")).toHaveText("Usunąć 11 kont?");
  await expect(dialog).toContainText(`${names.slice(0, 10).join(", ")} i jeszcze 1`);
  await expect(dialog).toContainText(
    "Razem z kontami znikną aliasy, które na nie wskazują, wprost lub przez inny alias (2 aliasy):",
  );
  await expect(dialog).toContainText(
    "Konta zostaną usunięte z 2 list dyskusyjnych domeny (jako subskrybenci i moderatorzy):",
  );
  await expect(dialog).toContainText("Te konta przestaną przekierowywać pocztę na usuwane konta (2 konta):");
  for (const width of [375, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `delete-many-pl-${width}.png`) });
  }
  await dialog.getByRole("button", { name: "Anuluj" }).click();

  // The same in English.
  await page.context().addCookies([{ name: "locale", value: "en", url: baseURL! }]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await open();
  await page.getByLabel(`Select ${email(a)}`).check();
  await page.getByLabel(`Select ${email(b)}`).check();
  await page.getByRole("button", { name: "Delete selected" }).click();
  await expect(dialog.getByRole("heading")).toHaveText("Delete 2 accounts?");
  await expect(dialog).toContainText("Their mailboxes are lost. This cannot be undone.");
  await expect(dialog).toContainText("The alias pointing at one of them, directly or through another alias, goes too:");
  await expect(dialog).toContainText(
    "They are taken off this mailing list of the domain (as subscribers and moderators):",
  );
  await expect(dialog).toContainText("This account stops forwarding to the accounts being deleted:");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await page.getByLabel("Select all rows on this page").check();
  await page.getByRole("button", { name: "Delete selected" }).click();
  await expect(dialog.getByRole("heading")).toHaveText("Delete 11 accounts?");
  await expect(dialog).toContainText(`${names.slice(0, 10).join(", ")} and 1 more`);
  await expect(dialog).toContainText(
    "The aliases pointing at them, directly or through another alias, go too (2 aliases):",
  );
  await expect(dialog).toContainText(
    "They are taken off 2 mailing lists of the domain (as subscribers and moderators):",
  );
  await expect(dialog).toContainText("These accounts stop forwarding to the accounts being deleted (2 accounts):");
  for (const width of [375, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `delete-many-en-${width}.png`) });
  }
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Deleted: 11 accounts." })).toBeVisible();
  await page.context().addCookies([{ name: "locale", value: "pl", url: baseURL! }]);
  for (const f of forwarders) await bff("delete", `emails/${DEMO.domain}/${f}`);
  for (const l of lists) await bff("delete", `mailinglists/${DEMO.domain}/${l}`);
});

test("the delete dialog's Delete is disabled and stays in place until what goes too is shown; a failed check says so", async ({
  page,
}) => {
  await signInAs(page, "postmaster");
  const name = `czek${Date.now().toString(36)}`;
  const email = (n: string) => `${n}@${DEMO.domain}`;
  const headers = { origin: originOf(page) };
  const bff = (url: string, data: object) => page.request.post(`/api/panel/v1/${url}`, { data, headers });
  expect((await bff(`emails/${DEMO.domain}/${name}`, { password: "Haslo-123", capacity: 10 })).status()).toBe(201);
  for (const alias of ["a", "b", "c"]) {
    expect((await bff(`aliases/${DEMO.domain}/${name}-${alias}`, { target: email(name) })).status()).toBe(201);
  }
  const deletes: Request[] = [];
  page.on("request", (req) => void (req.method() === "DELETE" && deletes.push(req)));
  const dialog = page.getByRole("dialog");
  const remove = dialog.getByRole("button", { name: "Usuń", exact: true });
  const cancel = dialog.getByRole("button", { name: "Anuluj" });
  const aliases = [email(`${name}-a`), email(`${name}-b`), email(`${name}-c`)];

  // The aliases' answer is held until a click has landed where "Usuń" is: the old dialog deleted the account on it,
  // before its aliases were listed, and grew by their list when they came, moving both buttons down.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/panel/aliases-reaching*", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/accounts?search=${name}`);
  await page.getByRole("button", { name: `Usuń: ${email(name)}` }).click();
  await expect(dialog).toContainText("Sprawdzanie, co zostanie usunięte razem z kontem…");
  const at = { remove: (await remove.boundingBox())!, cancel: (await cancel.boundingBox())! };
  await page.mouse.click(at.remove.x + at.remove.width / 2, at.remove.y + at.remove.height / 2);
  await expect(remove).toBeDisabled();
  await expect(remove).toHaveAttribute("aria-busy", "true");
  release();
  await expect(dialog.getByRole("listitem")).toHaveText(aliases);
  await expect(remove).toBeEnabled();
  await expect(remove).not.toHaveAttribute("aria-busy");
  expect({ remove: await remove.boundingBox(), cancel: await cancel.boundingBox() }).toEqual(at);
  await cancel.click();
  await expect(dialog).toBeHidden();
  await page.unroute("**/api/panel/aliases-reaching*");
  expect(deletes).toEqual([]);

  // A check that fails says so where the list would be, keeps "Usuń" disabled and "Anuluj" in place, and can be
  // tried again. (A 4xx answer: react-query retries a 5xx twice, seconds apart.)
  let failed = false;
  await page.route("**/api/panel/aliases-reaching*", async (route) => {
    if (failed) return route.continue();
    failed = true;
    await route.fulfill({
      status: 403,
      contentType: "application/json",
      body: JSON.stringify({ code: "403", message: "Forbidden", category: "authorization" }),
    });
  });
  await page.reload();
  await page.getByRole("button", { name: `Usuń: ${email(name)}` }).click();
  await expect(dialog.getByRole("alert")).toContainText("Nie udało się sprawdzić, co zostanie usunięte razem z kontem");
  await expect(remove).toBeDisabled();
  await expect(remove).not.toHaveAttribute("aria-busy");
  expect({ remove: await remove.boundingBox(), cancel: await cancel.boundingBox() }).toEqual(at);
  await dialog.getByRole("button", { name: "Spróbuj ponownie" }).click();
  await expect(dialog.getByRole("listitem")).toHaveText(aliases);
  await expect(remove).toBeEnabled();
  expect({ remove: await remove.boundingBox(), cancel: await cancel.boundingBox() }).toEqual(at);
  await cancel.click();
  await expect(dialog).toBeHidden();
  await page.unroute("**/api/panel/aliases-reaching*");
  expect((await page.request.get(`/api/panel/v1/emails/${DEMO.domain}/${name}`)).status()).toBe(200);
  expect(deletes).toEqual([]);
});

test("a one-row selection's delete dialog asks the one-account question, in Polish and English", async ({
  page,
  baseURL,
}) => {
  await signInAs(page, "postmaster");
  const name = `jeden${Date.now().toString(36)}`;
  const email = `${name}@${DEMO.domain}`;
  const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
    data: { password: "Haslo-123", capacity: 10 },
    headers: { origin: originOf(page) },
  });
  expect(res.status(), await res.text()).toBe(201);
  const dialog = page.getByRole("dialog");

  await page.goto(`/accounts?search=${name}`);
  await page.getByLabel(`Zaznacz ${email}`).check();
  await page.getByRole("button", { name: "Usuń zaznaczone" }).click();
  await expect(dialog.getByRole("heading")).toHaveText("Usunąć konto?");
  await expect(dialog).toContainText(
    `Usunąć konto ${email}? Poczta w skrzynce zostanie utracona. Tej operacji nie można cofnąć.`,
  );
  await expect(dialog).not.toContainText(/1 konto|ich skrzynkach/);
  await expect(dialog).toContainText("Żaden alias nie wskazuje na usuwane konto");
  await dialog.getByRole("button", { name: "Anuluj" }).click();

  await page.context().addCookies([{ name: "locale", value: "en", url: baseURL! }]);
  try {
    await page.goto(`/accounts?search=${name}`);
    await page.getByLabel(`Select ${email}`).check();
    await page.getByRole("button", { name: "Delete selected" }).click();
    await expect(dialog.getByRole("heading")).toHaveText("Delete the account?");
    await expect(dialog).toContainText(`Delete the account ${email}? Its mailbox is lost. This cannot be undone.`);
    await expect(dialog).not.toContainText(/1 account|Their mailboxes/);
    await expect(dialog).toContainText("No alias points at the account being deleted");
    for (const width of [375, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: path.join(SCREENSHOTS, `delete-one-selected-en-${width}.png`) });
    }
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Deleted: 1 account." })).toBeVisible();
  } finally {
    await page.context().addCookies([{ name: "locale", value: "pl", url: baseURL! }]);
  }
});
