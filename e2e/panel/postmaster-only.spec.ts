// The domain administrator's pages are the postmaster's only: an ordinary account that opens one is redirected to
// /me by the server (a 307 before any of the page is sent, not a client-side jump after it rendered).
import { expect, loginAs, test } from "./fixtures";

const POSTMASTER_PAGES = ["/domain", "/accounts", "/accounts/anna.kowalska", "/aliases", "/lists", "/lists/wszyscy"];

test("an ordinary account opening a postmaster page is redirected to /me on the server", async ({ page }) => {
  // Six pages opened in full: about 35 s on a busy shared 2-core host.
  test.setTimeout(90_000);
  await loginAs(page, "user");
  for (const path of POSTMASTER_PAGES) {
    const res = await page.request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(307);
    expect(new URL(res.headers()["location"]!, "http://x").pathname, path).toBe("/me");

    await page.goto(path);
    // With the word why.
    await expect(page).toHaveURL(/\/me\?denied=1$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Moje konto");
  }
});

test("the postmaster opens the same pages without a redirect", async ({ page }) => {
  await loginAs(page, "postmaster");
  for (const path of POSTMASTER_PAGES) {
    const res = await page.request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(200);
  }
});

test("signed out, a postmaster page sends the browser to the login page", async ({ page }) => {
  const res = await page.request.get("/accounts", { maxRedirects: 0 });
  expect(res.status()).toBe(307);
  expect(new URL(res.headers()["location"]!, "http://x").pathname).toBe("/login");
});
