// /accounts: the postmaster's account table (search, sort and paging live in the URL).
import { Suspense } from "react";
import { AccountsTable } from "./accounts-table";

export default function AccountsPage() {
  return (
    <Suspense>
      <AccountsTable />
    </Suspense>
  );
}
