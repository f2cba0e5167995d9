// The domain's DNS page against a real resolver: the global setup runs the sandbox's DNS server with the records
// the seeded domains need published (`mailserver sandbox --only dns --publish-dns`), and the server asks it
// (DNS_RESOLVER). The demo domain's records show as present; a record removed from the sandbox's DNS shows as
// missing, a changed one as different with what DNS holds; each value copies. Screenshots at each of WIDTHS (artifacts.ts).
import fs from "node:fs";
import path from "node:path";
import { atEachWidth, DEMO, expect, signInAs, test } from "./fixtures";
import { PANEL_MAIL_HOSTS } from "./server-env";
import { SCREENSHOTS, WIDTHS } from "./artifacts";

const D = DEMO.domain;
const recordsFile = () => {
  const file = process.env.PANEL_E2E_DNS_RECORDS;
  if (!file) throw new Error("PANEL_E2E_DNS_RECORDS is not set (e2e/panel/global-setup.ts starts the sandbox's DNS)");
  return file;
};

type Records = Record<string, Record<string, string[]>>;
let published: string;

test.beforeAll(() => {
  published = fs.readFileSync(recordsFile(), "utf8");
});
test.afterEach(() => {
  // The DNS server reads the file at every query: the published records are back for the next test.
  fs.writeFileSync(recordsFile(), published);
});

function editDns(change: (records: Records) => void) {
  const records = JSON.parse(fs.readFileSync(recordsFile(), "utf8")) as Records;
  change(records);
  fs.writeFileSync(`${recordsFile()}.tmp`, JSON.stringify(records));
  fs.renameSync(`${recordsFile()}.tmp`, recordsFile());
}

const KINDS = [
  "mx",
  "spf",
  "dkim",
  "dmarc",
  "autoconfig",
  "autodiscover",
  "autodiscover_srv",
  "imap_srv",
  "pop3_srv",
  "submission_srv",
];

test("the domain page leads to the DNS page, where every record the demo domain needs is present in the sandbox's DNS", async ({
  page,
}) => {
  await signInAs(page, "postmaster");
  await page.goto("/domain");
  await page.getByRole("link", { name: /Wszystkie rekordy DNS domeny/ }).click();
  await expect(page).toHaveURL(/\/domain\/dns$/);
  await expect(page.getByRole("heading", { level: 1, name: "Rekordy DNS domeny" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Wszystkie rekordy są w DNS (10)." })).toBeVisible();
  const items = page.locator("li[data-testid^=dns-]");
  await expect(items).toHaveCount(KINDS.length);
  expect(await items.evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")!.slice(4)))).toEqual(KINDS);
  for (const kind of KINDS) await expect(page.getByTestId(`dns-${kind}`)).toHaveAttribute("data-state", "present");
  const mx = page.getByTestId("dns-mx");
  await expect(mx.getByRole("heading")).toHaveText("Serwer poczty przychodzącej (MX) MX");
  await expect(mx.locator("code")).toHaveText([D, `10 ${PANEL_MAIL_HOSTS.MAIL_HOST}`]);
  await expect(page.getByTestId("dns-autoconfig").locator("code")).toHaveText([
    `autoconfig.${D}`,
    PANEL_MAIL_HOSTS.WEB_HOST,
  ]);
  await expect(page.getByTestId("dns-dmarc").getByText("Jest", { exact: true })).toBeVisible();

  await atEachWidth(page, (width) =>
    page.screenshot({ path: path.join(SCREENSHOTS, `domain-dns-present-${width}.png`), fullPage: true }),
  );
});

test("a record removed from DNS shows as missing, a changed one as different with what DNS holds", async ({ page }) => {
  await signInAs(page, "postmaster");
  await page.goto("/domain/dns");
  await expect(page.getByTestId("dns-dmarc")).toHaveAttribute("data-state", "present");
  editDns((r) => {
    delete r[`_dmarc.${D}`];
    r[D] = { ...r[D], MX: ["10 mx.elsewhere.test"] };
  });
  await page.getByRole("button", { name: "Sprawdź ponownie" }).click();
  const dmarc = page.getByTestId("dns-dmarc");
  await expect(dmarc).toHaveAttribute("data-state", "missing");
  await expect(dmarc.getByText("Brak", { exact: true })).toBeVisible();
  await expect(dmarc.locator("code").nth(1)).toHaveText(`v=DMARC1; p=quarantine; rua=mailto:postmaster@${D}`);
  const mx = page.getByTestId("dns-mx");
  await expect(mx).toHaveAttribute("data-state", "different");
  await expect(mx.getByText("Inny", { exact: true })).toBeVisible();
  await expect(mx.getByText("W DNS jest")).toBeVisible();
  await expect(mx.getByText("10 mx.elsewhere.test")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Brakuje lub różni się: 2 z 10." })).toBeVisible();
  for (const kind of KINDS.filter((k) => k !== "dmarc" && k !== "mx"))
    await expect(page.getByTestId(`dns-${kind}`)).toHaveAttribute("data-state", "present");

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `domain-dns-missing-${width}.png`), fullPage: true });
  }

  // Published again, checked again: present.
  fs.writeFileSync(recordsFile(), published);
  await page.getByRole("button", { name: "Sprawdź ponownie" }).click();
  await expect(dmarc).toHaveAttribute("data-state", "present");
  await expect(mx).toHaveAttribute("data-state", "present");
});

test("each name and value copies to the clipboard, and the copy is announced", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInAs(page, "postmaster");
  await page.goto("/domain/dns");
  const spf = page.getByTestId("dns-spf");
  await spf.getByRole("button", { name: /^Kopiuj wartość: SPF/ }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("v=spf1 mx -all");
  await expect(page.getByRole("status").filter({ hasText: /^Skopiowano: SPF/ })).toHaveCount(1);
  await page
    .getByTestId("dns-dkim")
    .getByRole("button", { name: /^Kopiuj nazwę: DKIM/ })
    .click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
    new RegExp(`^mail\\d{8}[a-z]?\\._domainkey\\.${D.replace(/\./g, "\\.")}$`),
  );
});

test("an ordinary account is kept off the DNS page and its data", async ({ page }) => {
  await signInAs(page, "user");
  await page.goto("/domain/dns");
  await expect(page).toHaveURL(/\/me/);
  const res = await page.request.get(`/api/panel/mail/dns/${D}`);
  expect(res.status()).toBe(403);
});
