// /lists/<name>: one mailing list's settings, subscribers, moderators and mail templates.
import { Suspense } from "react";
import { pageMetadata } from "@/lib/i18n/server";
import { currentSession, requirePostmaster } from "@/lib/server/http/page-session";
import { ListEditor } from "./list-editor";

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }) {
  const name = decodeURIComponent((await params).name);
  const domain = (await currentSession())?.domain;
  return pageMetadata("list", { email: domain ? `${name}@${domain}` : name });
}

export default async function ListPage({ params }: { params: Promise<{ name: string }> }) {
  await requirePostmaster();
  const { name } = await params;
  return (
    <Suspense>
      <ListEditor name={decodeURIComponent(name)} />
    </Suspense>
  );
}
