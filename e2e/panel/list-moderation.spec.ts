// The list editor's held posts (approve, reject) and bounces, and the account delete dialog naming the lists the
// account leaves. Held posts and bounces are written into the database the way the list service writes them
// (lib/lists/store.ts); that an approved post is then sent is lib/lists/lists.test.ts's (real Postfix/Dovecot).
import path from "node:path";
import { SCREENSHOTS, WIDTHS } from "./artifacts";
import { DEMO, expect, originOf, test } from "./fixtures";
import { sql } from "./test-db";

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

// Times are the browser's local ones (docs/panel.md, "Times"): UTC+5:30 all year, the longest offset label.
test.use({ timezoneId: "Asia/Kolkata" });

/** DD.MM.RRRR HH:MM of the moment `ms` at UTC+5:30. */
const kolkata = (ms: number) => {
  const d = new Date(ms + 330 * 60_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
};

test.beforeEach(async ({ page, loginAs }) => {
  await loginAs(page, "postmaster");
});

test("the list editor approves and rejects held posts and shows bounces", async ({ page }) => {
  const name = unique("mod");
  const created = await page.request.post(`/api/panel/v1/mailinglists/${DEMO.domain}/${name}`, {
    data: { privacy_mode: 1, accounts: [`jan.nowak@${DEMO.domain}`], moderators: [`biuro@${DEMO.domain}`] },
    headers: { origin: originOf(page) },
  });
  expect(created.status(), await created.text()).toBe(201);
  const [keep, drop] = [unique("Prosba o zatwierdzenie "), unique("Spam do odrzucenia ")];
  const list = (
    await sql<{ id: number }>("SELECT id FROM mailing_lists WHERE email = ?", [`${name}@${DEMO.domain}`])
  )[0]!;
  const message = (subject: string) => Buffer.from(`From: <obcy@example.net>\r\nSubject: ${subject}\r\n\r\nTreść\r\n`);
  const at = Date.now();
  const hold = async (sender: string, subject: string, size: number) => {
    const rows = await sql<{ id: number }>(
      "INSERT INTO list_held_posts (list_id, sender, subject, size, message, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
      [list.id, sender, subject, size, message(subject), `t-${subject}`, at],
    );
    return rows[0]!.id;
  };
  const ids = { a: await hold("obcy@example.net", keep, 3000), b: await hold("spamer@example.net", drop, 50_000) };
  // A subject with a line break and a right-to-left override (U+202E), as a sender may write it ("exe.pdf" shown
  // for "fdp.exe"), and a long one.
  const tricky = unique("Faktura ");
  await hold("oszust@example.net", `${tricky}\r\n\tnr 7 \u202efdp.exe`, 1000);
  const long =
    unique("Bardzo długi temat ") + " wiadomości, który nie zmieści się w szerokości kolumny tematu".repeat(3);
  await hold("gadula@example.net", long, 1000);
  await sql("INSERT INTO list_bounces (list_id, address, count, last_at, last_reason) VALUES (?, ?, 2, ?, ?)", [
    list.id,
    `jan.nowak@${DEMO.domain}`,
    at,
    "smtp; 550 5.1.1 User unknown\r\n\t(in reply to RCPT TO command)",
  ]);

  await page.goto(`/lists/${name}`);
  const held = page.getByTestId("held-posts");
  await expect(held).toContainText(keep);
  await expect(held).toContainText("obcy@example.net");
  await expect(held).toContainText("49 KB");
  await expect(page.getByTestId("list-bounces")).toContainText("550 5.1.1 User unknown");
  // When it came and when it last bounced, in the browser's time zone with the offset said.
  await expect(held.getByRole("row").filter({ hasText: keep }).locator("time").filter({ visible: true })).toHaveText(
    `${kolkata(at)} UTC+5:30`,
  );
  await expect(page.getByTestId("list-bounces").locator("time").filter({ visible: true })).toHaveText(
    `${kolkata(at)} UTC+5:30`,
  );
  // A subject or reason is one line of text (oneLine: its own breaks are spaces), isolated in <bdi>, and whole.
  const subject = held.locator("bdi").filter({ hasText: tricky }).filter({ visible: true });
  await expect(subject).toHaveText(`${tricky} nr 7 \u202efdp.exe`);
  expect(await subject.evaluate((el) => getComputedStyle(el).unicodeBidi)).toBe("isolate");
  await expect(page.getByTestId("list-bounces").locator("bdi").filter({ visible: true })).toHaveText(
    "smtp; 550 5.1.1 User unknown (in reply to RCPT TO command)",
  );
  // The override reorders only the subject: the row's sender, date and buttons read as before.
  const trickyRow = held.getByRole("row").filter({ hasText: tricky });
  await expect(trickyRow.getByRole("cell").first()).toHaveText(/^oszust@example\.net/);
  await expect(trickyRow.getByRole("button", { name: `Zatwierdź: ${tricky} nr 7 \u202efdp.exe` })).toBeVisible();
  const longSubject = held
    .locator("bdi")
    .filter({ hasText: long.slice(0, 30) })
    .filter({ visible: true });
  await expect(longSubject).toHaveText(long);
  // On a phone the subject, date and size go under the sender: nothing scrolls sideways, the buttons stay in view.
  // The long subject is whole at every width, on several lines of at most 24 rem (a touch screen shows no title: it
  // was cut to about 20 characters at 375 px, the rest only in its title).
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const shown = await longSubject.evaluate((el) => ({
      width: el.clientWidth,
      text: el.scrollWidth,
      lines: Math.round(el.clientHeight / parseFloat(getComputedStyle(el).lineHeight)),
    }));
    expect(shown.text, `${width} px`).toBeLessThanOrEqual(shown.width);
    expect(shown.width, `${width} px`).toBeLessThanOrEqual(384);
    expect(shown.lines, `${width} px`).toBeGreaterThan(1);
    for (const table of [held, page.getByTestId("list-bounces")]) {
      const overflow = await table.evaluate((t) => t.scrollWidth - t.parentElement!.clientWidth);
      expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
    }
    const approve = (await page.getByRole("button", { name: `Zatwierdź: ${keep}` }).boundingBox())!;
    expect(approve.x + approve.width, `${width} px`).toBeLessThanOrEqual(width);
    // The two cards, from the held posts' top to the bounces' bottom.
    const [top, bottom] = await Promise.all(
      [held, page.getByTestId("list-bounces")].map(
        async (t) => (await t.locator("xpath=ancestor::section[1]").boundingBox())!,
      ),
    );
    const clip = { x: 0, y: top!.y, width, height: bottom!.y + bottom!.height - top!.y };
    await page.screenshot({ path: path.join(SCREENSHOTS, `list-moderation-${width}.png`), fullPage: true, clip });
  }

  await page.getByRole("button", { name: `Zatwierdź: ${keep}` }).click();
  await expect(held.getByRole("row").filter({ hasText: keep })).toContainText("zatwierdzona, rozsyłanie");
  expect(await sql("SELECT status FROM list_held_posts WHERE id = ?", [ids.a])).toEqual([{ status: "approved" }]);

  await page.getByRole("button", { name: `Odrzuć: ${drop}` }).click();
  await expect(held).not.toContainText(drop);
  expect(await sql("SELECT id FROM list_held_posts WHERE id = ?", [ids.b])).toEqual([]);
});

test("the account delete dialog names the lists the account leaves, and the delete takes it off them", async ({
  page,
}) => {
  const account = unique("odchodzi");
  const email = `${account}@${DEMO.domain}`;
  const origin = { origin: originOf(page) };
  const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${account}`, {
    data: { password: "Haslo-123", description: "Na listach" },
    headers: origin,
  });
  expect(res.status(), await res.text()).toBe(201);
  const [subscribed, moderated] = [unique("sub"), unique("mods")];
  for (const [list, body] of [
    [subscribed, { accounts: [email] }],
    [moderated, { moderators: [email] }],
  ] as const) {
    const r = await page.request.post(`/api/panel/v1/mailinglists/${DEMO.domain}/${list}`, {
      data: body,
      headers: origin,
    });
    expect(r.status(), await r.text()).toBe(201);
  }

  await page.goto("/accounts");
  await page.getByLabel("Szukaj").fill(account);
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await page.getByLabel("Zaznacz wszystkie wiersze na tej stronie").check();
  await page.getByRole("button", { name: "Usuń zaznaczone" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("delete-lists")).toContainText(`${subscribed}@${DEMO.domain}`);
  await expect(dialog.getByTestId("delete-lists")).toContainText(`${moderated}@${DEMO.domain}`);
  await dialog.getByRole("button", { name: "Usuń" }).click();
  // The dialog closes before the delete is sent; the outcome banner says it is done.
  await expect(page.getByRole("status").filter({ hasText: "Usunięto: 1 konto." })).toBeVisible();

  for (const list of [subscribed, moderated]) {
    const record = (await (await page.request.get(`/api/panel/v1/mailinglists/${DEMO.domain}/${list}`)).json()) as {
      accounts: string[];
      moderators: string[];
    };
    expect(record.accounts).not.toContain(email);
    expect(record.moderators).not.toContain(email);
  }
});
