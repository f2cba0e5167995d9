// /lists/<name>: one mailing list's settings, subscribers, moderators and mail templates.
import { Suspense } from "react";
import { ListEditor } from "./list-editor";

export default async function ListPage({ params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  return (
    <Suspense>
      <ListEditor name={decodeURIComponent(name)} />
    </Suspense>
  );
}
