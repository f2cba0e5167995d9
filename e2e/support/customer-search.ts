// `customer list --search` against whichever engine the process was configured for (DATABASE_URL or DATABASE_PATH,
// set before the services are imported): a customer found by part of its name in any case, or by part of one of its
// domains, listed with all its domains; LIKE's wildcards taken as text. Used by lib/cli/customer-search*.test.ts.
import { expect, vi } from "vitest";

export async function runCustomerSearch(): Promise<void> {
  const { getReadyDb } = await import("@/db/client");
  const { addDomain } = await import("@/lib/server/resources/new-domain");
  const { renameCustomer, getCustomerOrThrow, listCustomers } = await import("@/lib/server/resources/customers");
  const { getDomainOrThrow } = await import("@/lib/server/resources/domains");
  const { runCommand } = await import("@/lib/cli/commands");
  const db = await getReadyDb();
  for (const name of ["kowalski.example", "nowak.example", "shop-nowak.example", "other.example"])
    await addDomain(db, name, "Admin-pass1", {});
  const customerOf = async (domain: string) => getCustomerOrThrow(db, (await getDomainOrThrow(db, domain)).customerId!);
  const kowalski = await renameCustomer(db, await customerOf("kowalski.example"), "Jan KOWALSKI Sp. z o.o.");
  await runCommand(db, [
    "domain",
    "add",
    "jk-mail.example",
    "--postmaster-password",
    "Admin-pass1",
    "--customer",
    "kowalski.example",
  ]);
  const nowak = await renameCustomer(db, await customerOf("nowak.example"), "Łódź 100% Nowak");
  const shop = await renameCustomer(db, await customerOf("shop-nowak.example"), "Sklep");
  const other = await customerOf("other.example");

  const found = async (text: string) => (await listCustomers(db, { search: text })).map((c) => c.id);
  // The name, in any case; found by its name, the customer comes with all its domains.
  expect(await found("kowalski sp")).toEqual([kowalski.id]);
  const [row] = await listCustomers(db, { search: "Jan kowalski" });
  expect(row?.domains).toEqual(["jk-mail.example", "kowalski.example"]);
  // A domain, or part of one, in any case: the customer that owns it, listed with all its domains.
  const byDomain = await listCustomers(db, { search: "JK-MAIL" });
  expect(byDomain.map((c) => [c.id, c.domains])).toEqual([[kowalski.id, ["jk-mail.example", "kowalski.example"]]]);
  // Name or domain: nowak's name and the shop's domain both contain "nowak".
  expect(await found("nowak")).toEqual([nowak.id, shop.id]);
  // A name with letters outside ASCII is found as it is written.
  expect(await found("Łódź")).toEqual([nowak.id]);
  // LIKE's wildcards are text: "100%" is that, "_" is an underscore (no name has one).
  expect(await found("100%")).toEqual([nowak.id]);
  expect(await found("0%n")).toEqual([]);
  expect(await found("_")).toEqual([]);
  expect(await found("nothing such")).toEqual([]);
  // No search (or only spaces): every customer.
  expect(await found("  ")).toEqual([kowalski.id, nowak.id, shop.id, other.id]);

  // The CLI's option: the same rows as the plain list prints them; nothing on stdout when none matches.
  const all = (await runCommand(db, ["customer", "list"])).split("\n");
  expect(await runCommand(db, ["customer", "list", "--search", "NOWAK"])).toBe(
    all.filter((l) => l.startsWith(`${nowak.id}\t`) || l.startsWith(`${shop.id}\t`)).join("\n"),
  );
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    expect(await runCommand(db, ["customer", "list", "--search", "nothing such"])).toBe("");
    expect(stderr).toHaveBeenCalledWith("no customer matches\n");
  } finally {
    stderr.mockRestore();
  }
}
