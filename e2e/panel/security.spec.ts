// The panel's browser defences (lib/security-headers.ts applied by proxy.ts): every page sends them, every
// script Next renders carries the response's nonce, and Chromium enforces the policy: a script injected into the
// page does not run (and the suite's automatic CSP watch sees the refusal), the sign-in page cannot be framed.
import { AUDITED_PAGES } from "./audited-pages";
import { expect, originOf, signInAs, test } from "./fixtures";

for (const audited of AUDITED_PAGES) {
  test(`${audited.path} (${audited.role ?? "signed out"}) sends the browser defences and runs within them`, async ({
    page,
  }) => {
    if (audited.role) await signInAs(page, audited.role);
    const res = await page.goto(audited.path);
    expect(new URL(page.url()).pathname).toBe(new URL(audited.landsOn ?? audited.path, "http://x").pathname);
    const h = res!.headers();
    const csp = h["content-security-policy"] ?? "";
    const scriptSrc = /(?:^|;\s*)script-src ([^;]*)/.exec(csp)?.[1] ?? "";
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(scriptSrc)?.[1];
    expect(nonce, csp).toBeTruthy();
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(scriptSrc).not.toContain("unsafe-eval");
    expect(csp).toMatch(/(?:^|;\s*)frame-ancestors 'none'(?:;|$)/);
    expect(csp).toMatch(/(?:^|;\s*)object-src 'none'(?:;|$)/);
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["referrer-policy"]).toBe("same-origin");
    expect(h["permissions-policy"]).toContain("camera=()");
    // Plain HTTP here: HSTS only when the request came over HTTPS (e2e/api/contract-hardening.test.ts checks that side).
    expect(h["strict-transport-security"]).toBeUndefined();

    // Every script element of the document as sent carries this response's nonce (scripts that Next's own code
    // adds later are trusted through 'strict-dynamic').
    const scriptTags = (await res!.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(scriptTags.length).toBeGreaterThan(0);
    for (const tag of scriptTags) expect(tag).toContain(`nonce="${nonce}"`);

    if (audited.ready) await audited.ready(page);
    await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
  });
}

test("an address the panel does not have: 404 with the panel's page, in its language, within the policy", async ({
  page,
}) => {
  // Next's own 404 page said "This page could not be found." in the Polish panel, and its inline styles were refused.
  const res = await page.goto("/no-such-page");
  expect(res!.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Nie ma takiej strony" })).toBeVisible();
  await page.context().addCookies([{ name: "locale", value: "en", url: originOf(page) }]);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Go to the panel" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("markup injected into a page runs no script, and the refusal is reported", async ({ page, cspViolations }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "Zaloguj", exact: true }).waitFor();
  // What an HTML injection could slip in: an event handler, and a parser-inserted inline script (in a srcdoc frame,
  // which inherits the page's policy).
  await page.evaluate(() => {
    document.body.insertAdjacentHTML(
      "beforeend",
      '<img alt="" src="/icon.svg" onload="window.__injected = \'handler\'">' +
        '<iframe title="x" srcdoc="<script>parent.__injected = \'inline script\'</script>"></iframe>',
    );
  });
  await expect.poll(() => cspViolations.join("\n")).toMatch(/inline event handler/);
  await expect.poll(() => cspViolations.join("\n")).toMatch(/inline script/);
  expect(await page.evaluate(() => (window as { __injected?: string }).__injected)).toBeUndefined();
  // Seen and expected: the automatic check at the end of the test must not count them.
  cspViolations.length = 0;
});

test("the sign-in page cannot be framed (frame-ancestors 'none')", async ({ page, baseURL, cspViolations }) => {
  await page.setContent(`<iframe title="framed" src="${baseURL}/login"></iframe>`);
  await expect.poll(() => cspViolations.join("\n")).toMatch(/frame-ancestors 'none'/);
  await expect(page.frameLocator("iframe").getByRole("button", { name: "Zaloguj", exact: true })).toHaveCount(0);
  cspViolations.length = 0;
});

test("an RSC request whose router state claims the panel's layouts still meets each page's own session check", async ({
  page,
}) => {
  // Next renders no layout the request says the browser already has, so the layouts' checks alone were skipped: a
  // signed-out request for /domain answered 200 with the page (its data stayed behind the BFF's 401).
  const tree = [
    "",
    {
      children: [
        "(panel)",
        {
          children: [
            "(postmaster)",
            { children: ["accounts", { children: ["__PAGE__", {}, null, null, 0] }, null, null, 0] },
            null,
            null,
            0,
          ],
        },
        null,
        null,
        0,
      ],
    },
    null,
    null,
    16,
  ];
  const headers = {
    RSC: "1",
    "Next-Router-State-Tree": encodeURIComponent(JSON.stringify(tree)),
    "Next-Url": "/accounts",
  };
  const answer = async (path: string) => {
    // Next answers a wrong cache-busting _rsc with a redirect to the right one for these headers.
    const first = await page.request.get(`${path}?_rsc=x`, { headers, maxRedirects: 0 });
    const target = first.status() === 307 ? first.headers().location! : `${path}?_rsc=x`;
    const res = await page.request.get(target, { headers, maxRedirects: 0 });
    return { status: res.status(), body: await res.text() };
  };
  const pages: [string, string][] = [
    ["/domain", "DomainSettings"],
    ["/domain/dns", "DnsRecords"],
    ["/aliases", "AliasesTable"],
    ["/lists", "ListsTable"],
    ["/lists/wszyscy", "ListEditor"],
    ["/accounts/jan.nowak", "AccountEditor"],
  ];
  for (const [path, component] of pages) {
    const signedOut = await answer(path);
    expect(signedOut.body, `${path} signed out`).not.toContain(`"${component}"`);
    expect(signedOut.body, `${path} signed out`).toContain("/login");
  }
  await signInAs(page, "user");
  const ordinary = await answer("/domain");
  expect(ordinary.body).not.toContain('"DomainSettings"');
  expect(ordinary.body).toContain("/me?denied=1");
});
