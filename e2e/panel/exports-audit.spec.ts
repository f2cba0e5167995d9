// The CSV export of a 1,500-account domain opened back as CSV, its header row in the panel's language, the search and
// Windows-1250 variants, and the audit log entry of a bulk block (who, from where, the names, "Zablokowane: nie →
// tak"), on the /audit page, searched as you type.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { blockSelected, DEMO, EXTRA_DOMAINS, expect, SEEDED_ACCOUNTS, signIn, signInAs, test } from "./fixtures";
import { SCREENSHOTS, WIDTHS } from "./artifacts";

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOTS, `export-audit-${name}.png`), fullPage: true });

/** A minimal RFC 4180 reader (";" separated, quoted fields with doubled quotes, CRLF): enough to read the file back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ";") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

async function download(page: Page, link: string): Promise<Buffer> {
  const wait = page.waitForEvent("download");
  await page.getByRole("link", { name: link, exact: true }).click();
  return fs.readFileSync(await (await wait).path());
}

test("exports all 1,500 accounts as UTF-8 CSV with a BOM, read back row for row", async ({ page }) => {
  const bulk = EXTRA_DOMAINS.bulk;
  await signIn(page, bulk.email, bulk.password);
  await page.goto("/accounts");
  await expect(page.getByRole("link", { name: /^Edytuj postmaster@/ })).toBeVisible();
  const bytes = await download(page, "Eksport CSV");
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = parseCsv(bytes.subarray(3).toString("utf8"));
  expect(rows[0]).toEqual([
    "Adres",
    "Opis",
    "Pojemność (MB)",
    "Zajęte (bajty)",
    "Zajętość",
    "Zablokowane",
    "Utworzone",
    "Wygasa",
    "Ostatnie logowanie",
  ]);
  const data = rows.slice(1);
  expect(data).toHaveLength(SEEDED_ACCOUNTS.count + 1); // and the postmaster
  const emails = data.map((r) => r[0]);
  expect(new Set(emails).size).toBe(data.length);
  for (const i of [1, 750, 1500]) expect(emails).toContain(`user${String(i).padStart(4, "0")}@${bulk.domain}`);
  // The table's order (name ascending), and every row complete.
  expect(emails).toEqual([...emails].sort());
  expect(data.every((r) => r.length === 9)).toBe(true);
  expect(data.find((r) => r[0] === `user0001@${bulk.domain}`)?.[1]).toBe("Konto z importu");
  await shot(page, "accounts-toolbar");

  // What the search matches, and nothing else: user01xx is 100 accounts.
  await page.goto("/accounts?search=user01");
  await expect(page.getByText(/· 100 pozycji/)).toBeVisible();
  const searched = parseCsv((await download(page, "Eksport CSV")).subarray(3).toString("utf8")).slice(1);
  expect(searched).toHaveLength(100);
  expect(searched.every((r) => r[0]!.startsWith("user01"))).toBe(true);
});

test("Windows-1250 on request: Polish letters as Excel's code page has them, no BOM", async ({ page }) => {
  await signInAs(page, "postmaster");
  await page.goto("/accounts?search=ksi%C4%99gowo%C5%9B%C4%87");
  await expect(page.getByRole("link", { name: /^Edytuj anna\.kowalska@/ })).toBeVisible();
  const bytes = await download(page, "CSV w Windows-1250");
  const text = new TextDecoder("windows-1250").decode(bytes);
  expect(text.startsWith("Adres;Opis;Pojemność (MB);")).toBe(true);
  expect(text).toContain(`anna.kowalska@${DEMO.domain};Anna Kowalska, księgowość;2048;`);
  // "ę" and "ś" are single bytes 0xEA and 0x9C there.
  expect(bytes.includes(0xea) && bytes.includes(0x9c)).toBe(true);
});

test("a bulk block shows in the audit log: who, from where, which names, blocked 0 → 1", async ({ page, loginAs }) => {
  await loginAs(page, "postmaster");
  const stamp = Date.now().toString(36);
  const names = [`aud${stamp}a`, `aud${stamp}b`];
  for (const name of names) {
    const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
      data: { password: "Haslo-123", capacity: 10 },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(res.status()).toBe(201);
  }
  await page.goto(`/accounts?search=aud${stamp}`);
  await page.getByLabel("Zaznacz wszystkie wiersze na tej stronie").check();
  await blockSelected(page);
  await expect(page.getByRole("status").filter({ hasText: "Zmieniono: 2 konta." })).toBeVisible();

  await page.getByRole("link", { name: "Dziennik" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Dziennik zmian" })).toBeVisible();
  // As the tables do: the log follows the typing, with no button, and the URL keeps the search.
  await expect(page.getByRole("button", { name: "Szukaj", exact: true })).toHaveCount(0);
  await page.getByRole("searchbox", { name: "Szukaj w dzienniku" }).fill(`aud${stamp}`);
  await expect(page).toHaveURL(new RegExp(`/audit\\?search=aud${stamp}$`));
  const rows = page.getByRole("row").filter({ hasText: `aud${stamp}a` });
  const block = rows.filter({ hasText: "zmiana: konto" });
  await expect(block).toHaveCount(1);
  await expect(block).toContainText(DEMO.postmaster.email);
  await expect(block).toContainText("panel · 127.0.0.1");
  await expect(block).toContainText(`${names[0]}, ${names[1]}`);
  await expect(block).toContainText("Zablokowane: nie → tak");
  await expect(block).not.toContainText("blocked");
  // The creation is there too, with the password only as "changed".
  const created = rows.filter({ hasText: "utworzenie: konto" });
  await expect(created).toContainText("Hasło: zmienione (wartość nie jest zapisywana)");
  await expect(created).toContainText("Pojemność (MB): 10");
  await expect(created).not.toContainText("Haslo-123");
  await shot(page, "audit-bulk-block");
});

test("the English panel's export has English headers; the audit log speaks English and names list settings", async ({
  page,
  loginAs,
}) => {
  await loginAs(page, "postmaster");
  await page.context().addCookies([{ name: "locale", value: "en", url: new URL(page.url()).origin }]);
  await page.goto("/aliases");
  await expect(page.getByRole("cell", { name: /^kontakt@/ })).toBeVisible();
  const aliases = parseCsv((await download(page, "Export CSV")).subarray(3).toString("utf8"));
  expect(aliases[0]).toEqual(["Address", "Target"]);

  // A list made open, then moderated: "Privacy: open → moderated", not "privacy_mode: 0 → 1".
  const list = `priv${Date.now().toString(36)}`;
  const origin = new URL(page.url()).origin;
  const create = await page.request.post(`/api/panel/v1/mailinglists/${DEMO.domain}/${list}`, {
    data: { description: "", privacy_mode: 0, moderators: [`postmaster@${DEMO.domain}`] },
    headers: { origin },
  });
  expect(create.status(), await create.text()).toBe(201);
  const change = await page.request.put(`/api/panel/v1/mailinglists/${DEMO.domain}/${list}`, {
    data: { privacy_mode: 1 },
    headers: { origin },
  });
  expect(change.status(), await change.text()).toBe(200);
  // The lists' export says the coded settings in words, as the table and the audit log do.
  await page.goto(`/lists?search=${list}`);
  await expect(page.getByText(`${list}@${DEMO.domain}`)).toBeVisible();
  const lists = parseCsv((await download(page, "Export CSV")).subarray(3).toString("utf8"));
  expect(lists).toEqual([
    ["Address", "Description", "Privacy", "Replies go to", "SUBSCRIBE by mail"],
    [`${list}@${DEMO.domain}`, "", "moderated", "the list", "no"],
  ]);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/audit?search=${list}`);
    const row = page.getByRole("row").filter({ hasText: "changed: list" });
    await expect(row).toContainText("Privacy: open → moderated");
    await expect(row).not.toContainText("privacy_mode");
    await shot(page, `audit-en-${width}`);
  }
  await page.context().clearCookies({ name: "locale" });
  await page.goto(`/audit?search=${list}`);
  await expect(page.getByRole("row").filter({ hasText: "zmiana: lista" })).toContainText(
    "Prywatność: otwarta → moderowana",
  );
  // An address breaks before its domain, never inside it (the "who" column is narrow at 1280 px).
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const who = page.getByRole("row").filter({ hasText: "zmiana: lista" }).getByRole("cell").nth(1);
    const domainLines = await who.evaluate((cell, domain) => {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(domain);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + domain.length);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      }
      return -1;
    }, DEMO.domain);
    expect(domainLines, `lines the domain takes at ${width} px`).toBe(1);
    await shot(page, `audit-pl-${width}`);
  }
});

test.describe("times in the browser's time zone", () => {
  // UTC+5:30 all year: no daylight saving to reckon with, and the minutes in the offset show.
  test.use({ timezoneId: "Asia/Kolkata" });

  test("the audit log shows local time with its offset; the server's HTML says UTC, and hydration agrees", async ({
    page,
    loginAs,
  }) => {
    // A hydration mismatch is a recoverable error in production React (#418 and its kin), reported, not thrown.
    const hydration: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" && /hydrat|Minified React error #4(18|19|23|25)/i.test(m.text()))
        hydration.push(m.text());
    });
    page.on("pageerror", (e) => {
      if (/hydrat|Minified React error #4(18|19|23|25)/i.test(e.message)) hydration.push(e.message);
    });
    await loginAs(page, "postmaster");
    const name = `tz${Date.now().toString(36)}`;
    const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
      data: { password: "Haslo-123", capacity: 10 },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(res.status()).toBe(201);
    const pad = (n: number) => String(n).padStart(2, "0");
    /** DD.MM.RRRR HH:MM:SS of the moment `ms` at `offset` minutes east of UTC. */
    const wall = (ms: number, offset: number) => {
      const d = new Date(ms + offset * 60_000);
      return `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
    };

    // What the server sends (and a browser without JavaScript keeps): UTC, labelled.
    const html = await (await page.request.get(`/audit?search=${name}`)).text();
    const served = /<time dateTime="([^"]+)"[^>]*>(.*?)<\/time>/i.exec(html);
    expect(served, "a <time> in the server's HTML").not.toBeNull();
    const at = Date.parse(served![1]!);
    expect(Math.abs(Date.now() - at)).toBeLessThan(10 * 60_000);
    expect(served![2]!.replace(/<[^>]*>/g, "")).toBe(`${wall(at, 0)} UTC`);

    await page.goto(`/audit?search=${name}`);
    const time = page.getByRole("row").filter({ hasText: "utworzenie: konto" }).locator("time");
    await expect(time).toHaveText(`${wall(at, 330)} UTC+5:30`);
    await expect(time).toHaveAttribute("title", `${wall(at, 0)} UTC`);
    expect(hydration).toEqual([]);
    // A narrow column breaks between the date and the time only: never inside the date, nor the time from its offset.
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const lines = await time.evaluate((el) =>
        [...el.children].map((part) => {
          const range = document.createRange();
          range.selectNodeContents(part);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }),
      );
      await shot(page, `audit-local-time-${width}`);
      expect(lines, `lines of the date and of the time at ${width} px`).toEqual([1, 1]);
    }
  });
});

test("the audit log's pager counts entries as the tables' pagers do, and the name hints say from 2 to 32", async ({
  page,
}) => {
  await signInAs(page, "postmaster");
  for (const width of [375, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/audit");
    const pager = page.getByRole("navigation", { name: "Stronicowanie" });
    // "Strona 1 z 2 · 149 pozycji", as under the tables (it was "· wpisów: 149").
    await expect(pager).toContainText(/Strona 1 z \d+ · \d[\d\u00a0 ]* (pozycja|pozycje|pozycji)/);
    await expect(pager).not.toContainText("wpisów");
    await page.screenshot({ path: path.join(SCREENSHOTS, `audit-pager-${width}.png`), fullPage: true });
  }
  for (const url of ["/aliases", "/lists"]) {
    await page.goto(url);
    await expect(page.getByText(/\(od 2 do 32 znaków\)/).first()).toBeVisible();
    await expect(page.getByText(/2-32 znaki/)).toHaveCount(0);
  }
});
