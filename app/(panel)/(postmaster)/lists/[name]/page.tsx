// /lists/<name>: one mailing list's settings, subscribers, moderators and mail templates.
import { Suspense } from "react";
import { requirePostmaster } from "@/lib/server/http/page-session";
import { ListEditor } from "./list-editor";

export default async function ListPage({ params }: { params: Promise<{ name: string }> }) {
  await requirePostmaster();
  const { name } = await params;
  return (
    <Suspense>
      <ListEditor name={decodeURIComponent(name)} />
    </Suspense>
  );
}
