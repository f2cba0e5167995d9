// /aliases: the domain's aliases (search, sort and paging live in the URL).
import { Suspense } from "react";
import { requirePostmaster } from "@/lib/server/http/page-session";
import { AliasesTable } from "./aliases-table";

export default async function AliasesPage() {
  await requirePostmaster();
  return (
    <Suspense>
      <AliasesTable />
    </Suspense>
  );
}
