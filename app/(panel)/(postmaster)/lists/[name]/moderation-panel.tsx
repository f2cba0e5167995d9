"use client";
// The list's held posts with approve and reject, and the bounces recorded per subscriber (docs/lists.md).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Alert, Button, Card, SkeletonLines } from "@/components";
import { panelFetch, retryRule } from "@/lib/client/api";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useT } from "@/lib/i18n";
import type { ListModeration } from "@/lib/schemas/list-moderation";
import { Address } from "../../_postmaster/address";
import { moderationMessages } from "./moderation-messages";

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;
const when = (iso: string) => iso.slice(0, 16).replace("T", " ");

export function ModerationPanel({ domain, name }: { domain: string; name: string }) {
  const t = useT(moderationMessages);
  const errorText = useErrorText();
  const client = useQueryClient();
  const key = ["mailing-lists", "moderation", domain, name];
  const path = `mailinglists/${domain}/${encodeURIComponent(name)}/moderation`;
  const data = useQuery({
    queryKey: key,
    queryFn: () => panelFetch<ListModeration>(path),
    retry: retryRule,
    refetchInterval: 10_000,
  });
  const decide = useMutation({
    mutationFn: (body: { approve?: number[]; reject?: number[] }) =>
      panelFetch<ListModeration>(path, { method: "POST", body }),
    onSuccess: (next) => client.setQueryData(key, next),
  });

  return (
    <>
      <Card
        title={t("held")}
        description={data.data ? t("heldDesc", { days: String(data.data.held_days) }) : undefined}
      >
        {data.isError && <Alert tone="error">{t("failed", { error: errorText.failure(data.error) })}</Alert>}
        {decide.isError && <Alert tone="error">{t("failed", { error: errorText.failure(decide.error) })}</Alert>}
        {!data.data ? (
          !data.isError && <SkeletonLines lines={2} label={t("loading")} />
        ) : (
          <DetailTable
            testId="held-posts"
            headers={[t("sender"), t("subject"), t("date"), t("size"), t("actions")]}
            items={data.data.held}
            empty={t("heldNone")}
            row={(post) => (
              <tr key={post.id} className={ROW}>
                <td className="px-2 py-1">
                  <Address text={post.sender} />
                </td>
                <td className="px-2 py-1 wrap-anywhere">{post.subject || t("noSubject")}</td>
                <td className="px-2 py-1 whitespace-nowrap">{when(post.date)}</td>
                <td className="px-2 py-1 whitespace-nowrap">{kb(post.size)}</td>
                <td className="px-2 py-1">
                  {post.status === "approved" ? (
                    t("approved")
                  ) : (
                    <div className="flex flex-wrap gap-2">
                      <Button
                        variant="secondary"
                        aria-label={`${t("approve")}: ${post.subject}`}
                        loading={decide.isPending && decide.variables?.approve?.[0] === post.id}
                        disabled={decide.isPending}
                        onClick={() => decide.mutate({ approve: [post.id] })}
                      >
                        {t("approve")}
                      </Button>
                      <Button
                        variant="danger"
                        aria-label={`${t("reject")}: ${post.subject}`}
                        loading={decide.isPending && decide.variables?.reject?.[0] === post.id}
                        disabled={decide.isPending}
                        onClick={() => decide.mutate({ reject: [post.id] })}
                      >
                        {t("reject")}
                      </Button>
                    </div>
                  )}
                </td>
              </tr>
            )}
          />
        )}
      </Card>
      <Card title={t("bounces")} description={t("bouncesDesc")}>
        {data.data && (
          <DetailTable
            testId="list-bounces"
            headers={[t("address"), t("count"), t("lastAt"), t("reason")]}
            items={data.data.bounces}
            empty={t("bouncesNone")}
            row={(b) => (
              <tr key={b.address} className={ROW}>
                <td className="px-2 py-1">
                  <Address text={b.address} />
                </td>
                <td className="px-2 py-1">{b.count}</td>
                <td className="px-2 py-1 whitespace-nowrap">{when(b.last_at)}</td>
                <td className="px-2 py-1 wrap-anywhere">{b.last_reason}</td>
              </tr>
            )}
          />
        )}
      </Card>
    </>
  );
}

const ROW = "border-b border-gray-200 align-top";

/** The panel's two tables here: the column labels, one row per item, or the `empty` line when there is none. */
function DetailTable<T>({
  testId,
  headers,
  items,
  empty,
  row,
}: {
  testId: string;
  headers: string[];
  items: T[];
  empty: string;
  row: (item: T) => ReactNode;
}) {
  if (items.length === 0) return <p>{empty}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid={testId}>
        <thead>
          <tr className="border-b border-gray-300">
            {headers.map((h) => (
              <th key={h} className="px-2 py-1 text-left font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{items.map(row)}</tbody>
      </table>
    </div>
  );
}
