// The domains each test database is seeded with. Every test file works in domains of its own, so the files can
// run in parallel against one server without seeing each other's changes.
export const PM_PASSWORD = "Postmaster-1";

export interface SeedDomain {
  name: string;
  limits?: string[];
}

export const DOMAINS: Record<"main" | "fuzz" | "isolated", SeedDomain[]> = {
  main: [
    { name: "acl.example.com" },
    { name: "other.example.com" },
    // A capacity limit far above any one account, so capacity's own upper bound (1048576 MB) can be tested.
    { name: "val.example.com", limits: ["--capacity-limit", "100000000"] },
    // Of val's customer: the only domain val's catchall types 2 and 3 may name (docs/customers.md).
    { name: "val-sister.example.com", limits: ["--customer", "val.example.com"] },
    // e2e/api/validation-lists.test.ts.
    { name: "val-lists.example.com" },
    { name: "multi.example.com" },
    {
      name: "limits.example.com",
      limits: ["--account-limit", "3", "--alias-limit", "2", "--mailinglist-limit", "1", "--capacity-limit", "3000"],
    },
    { name: "own.example.com" },
    { name: "sec.example.com" },
    { name: "wrap.example.com" },
    { name: "list.example.com" },
    { name: "digits.example.com" },
    { name: "email-order.example.com" },
    { name: "oas.example.com" },
    { name: "backup.example.com" },
    // e2e/api/contract-hardening.test.ts (contract §9) and panel-fuzz.test.ts.
    { name: "hx.example.com" },
    // Of hx's customer: Y's catchall type 2 may name an account of X (docs/customers.md).
    { name: "hy.example.com", limits: ["--customer", "hx.example.com"] },
    { name: "panel.example.com" },
    // e2e/api/alias-target.test.ts.
    { name: "target.example.com" },
    // e2e/api/nested-lists.test.ts: a domain, another of its customer, and one of another customer.
    { name: "nest.example.com" },
    { name: "nest-sister.example.com", limits: ["--customer", "nest.example.com"] },
    { name: "nest-other.example.com" },
    // e2e/api/client-setup.test.ts and prism-proxy.test.ts.
    { name: "setup.example.com" },
    { name: "prism.example.com" },
    // e2e/api/protocol.test.ts.
    { name: "proto.example.com" },
    // e2e/api/alias-loops.test.ts.
    { name: "loop.example.com" },
  ],
  fuzz: [{ name: "fuzz.example.com" }, { name: "fuzz2.example.com" }],
  isolated: [{ name: "iso.example.com" }],
};

/** The main server's mail hosts (lib/server/env.ts), as the client set-up documents must describe them. */
export const CLIENT_HOSTS = {
  MAIL_HOST: "mx.hosting.test",
  IMAP_HOST: "imap.hosting.test",
  POP3_HOST: "pop.hosting.test",
  SUBMISSION_HOST: "smtp.hosting.test",
  SUBMISSION_PORT: "587",
  WEB_HOST: "panel.hosting.test",
} as const;
