// The sandbox's advice names a shell pipe with the database's name: a name the shell would split or expand is quoted.
import { expect, it, vi } from "vitest";

vi.mock("server-only", () => ({}));

import { mailReaderHint } from "./database";

it("quotes a database name that the shell would split or expand, and only then", () => {
  const hint = (database: string) => mailReaderHint("mail_reader", database, false, { message: "x" });
  expect(hint("mailadmin")).toContain("| runuser -u postgres -- psql -d mailadmin`");
  expect(hint("poczta klienta's $HOME")).toContain(`| runuser -u postgres -- psql -d 'poczta klienta'\\''s $HOME'\``);
});
