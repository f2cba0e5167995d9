// /lists: the domain's mailing lists (search, sort and paging live in the URL).
import { Suspense } from "react";
import { pageMetadata } from "@/lib/i18n/server";
import { requirePostmaster } from "@/lib/server/http/page-session";
import { ListsTable } from "./lists-table";

export const generateMetadata = () => pageMetadata("lists");

export default async function ListsPage() {
  await requirePostmaster();
  return (
    <Suspense>
      <ListsTable />
    </Suspense>
  );
}
