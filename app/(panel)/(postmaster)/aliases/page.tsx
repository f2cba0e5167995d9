// /aliases: the domain's aliases (search, sort and paging live in the URL).
import { Suspense } from "react";
import { AliasesTable } from "./aliases-table";

export default function AliasesPage() {
  return (
    <Suspense>
      <AliasesTable />
    </Suspense>
  );
}
