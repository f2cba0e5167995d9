// /aliases: the domain's aliases (search, sort and paging live in the URL).
import { Suspense } from "react";
import { pageMetadata } from "@/lib/i18n/server";
import { requirePostmaster } from "@/lib/server/http/page-session";
import { AliasesTable } from "./aliases-table";

export const generateMetadata = () => pageMetadata("aliases");

export default async function AliasesPage() {
  await requirePostmaster();
  return (
    <Suspense>
      <AliasesTable />
    </Suspense>
  );
}
