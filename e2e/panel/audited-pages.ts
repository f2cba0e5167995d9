// Every panel page that a11y.spec.ts scans with axe and screenshots at 1280 px and 375 px: signed out, as an account
// owner (their own page, and where a postmaster's page sends them) and as the postmaster.
// To add a page, append one entry: its name (file names of the screenshots), path, who signs in, and optionally
// what shows that it finished loading (by default: no element is aria-busy any more).
import type { Page } from "@playwright/test";
import type { DemoRole } from "./fixtures";

export interface AuditedPage {
  name: string;
  path: string;
  /** null: viewed signed out. */
  role: DemoRole | null;
  /** Where the browser ends up when the page sends it elsewhere (an owner asking for /accounts lands on /me). */
  landsOn?: string;
  ready?: (page: Page) => Promise<void>;
}

export const AUDITED_PAGES: AuditedPage[] = [
  { name: "login", path: "/login", role: null },
  { name: "login-expired", path: "/login?reason=expired", role: null },
  {
    name: "me",
    path: "/me",
    role: "user",
    ready: (page) => page.getByRole("heading", { name: "Autoresponder" }).waitFor(),
  },
  // An account owner who opened a postmaster's page is sent back here with a word why.
  {
    name: "me-denied",
    path: "/accounts",
    role: "user",
    landsOn: "/me",
    ready: (page) => page.getByRole("heading", { name: "Autoresponder" }).waitFor(),
  },
  {
    name: "me-postmaster",
    path: "/me",
    role: "postmaster",
    ready: (page) => page.getByRole("heading", { name: "Autoresponder" }).waitFor(),
  },
  // The postmaster's pages (app/(panel)/(postmaster)/domain, accounts, aliases, lists).
  {
    name: "postmaster-domain",
    path: "/domain",
    role: "postmaster",
    ready: (page) => page.getByRole("heading", { name: "Limity" }).waitFor(),
  },
  {
    name: "postmaster-domain-dns",
    path: "/domain/dns",
    role: "postmaster",
    ready: (page) => page.getByRole("status").filter({ hasText: "Wszystkie rekordy są w DNS" }).waitFor(),
  },
  {
    name: "postmaster-accounts",
    path: "/accounts",
    role: "postmaster",
    // With the "New account" form open, so that axe checks the form too.
    ready: async (page) => {
      await page.getByRole("link", { name: /^Edytuj anna\.kowalska@/ }).waitFor();
      await page.getByRole("button", { name: "Nowe konto" }).click();
      await page.getByRole("button", { name: "Utwórz konto" }).waitFor();
    },
  },
  {
    name: "postmaster-account-editor",
    path: "/accounts/anna.kowalska",
    role: "postmaster",
    ready: (page) => page.getByRole("button", { name: "Zapisz zmiany" }).waitFor(),
  },
  {
    name: "postmaster-aliases",
    path: "/aliases",
    role: "postmaster",
    ready: (page) => page.getByRole("cell", { name: /^kontakt@/ }).waitFor(),
  },
  {
    name: "postmaster-lists",
    path: "/lists",
    role: "postmaster",
    ready: (page) => page.getByRole("link", { name: /wszyscy@/ }).waitFor(),
  },
  {
    name: "postmaster-list-editor",
    path: "/lists/wszyscy",
    role: "postmaster",
    ready: (page) => page.getByRole("button", { name: "Zapisz listę" }).waitFor(),
  },
  {
    name: "postmaster-audit",
    path: "/audit",
    role: "postmaster",
    ready: (page) => page.getByRole("heading", { name: "Dziennik zmian" }).waitFor(),
  },
];
