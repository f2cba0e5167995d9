// /lists: the domain's mailing lists (search, sort and paging live in the URL).
import { Suspense } from "react";
import { requirePostmaster } from "@/lib/server/http/page-session";
import { ListsTable } from "./lists-table";

export default async function ListsPage() {
  await requirePostmaster();
  return (
    <Suspense>
      <ListsTable />
    </Suspense>
  );
}
