// /lists: the domain's mailing lists (search, sort and paging live in the URL).
import { Suspense } from "react";
import { ListsTable } from "./lists-table";

export default function ListsPage() {
  return (
    <Suspense>
      <ListsTable />
    </Suspense>
  );
}
