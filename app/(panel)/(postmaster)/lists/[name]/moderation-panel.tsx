"use client";
// The list's held posts with approve and reject, and the bounces recorded per subscriber (docs/lists.md).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Address, Alert, Button, Card, LocalTime, SkeletonLines } from "@/components";
import { panelFetch, retryRule } from "@/lib/client/api";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useT } from "@/lib/i18n";
import { oneLine, type ListModeration } from "@/lib/schemas/list-moderation";
import { cellClass, type Column } from "../../_postmaster/table-columns";
import { moderationMessages } from "./moderation-messages";

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;
/**
 * A moment in the browser's time zone, to the minute, as the audit log shows them. On a phone it may break between
 * the date and the time (never inside either): kept whole, "… 03:04 UTC+5:30" pushed the bounces table 27 px wide.
 */
const when = (iso: string) => <LocalTime at={iso} seconds={false} />;

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
            items={data.data.held}
            itemKey={(post) => post.id}
            empty={t("heldNone")}
            columns={[
              { key: "sender", label: t("sender"), cell: (post) => <Address text={post.sender} /> },
              {
                key: "subject",
                label: t("subject"),
                wide: true,
                className: WORDS,
                cell: (post) => (oneLine(post.subject) ? <OneLine text={post.subject} /> : t("noSubject")),
              },
              { key: "date", label: t("date"), wide: true, cell: (post) => when(post.date) },
              {
                key: "size",
                label: t("size"),
                wide: true,
                className: "whitespace-nowrap",
                cell: (post) => kb(post.size),
              },
              {
                key: "actions",
                label: t("actions"),
                cell: (post) =>
                  post.status === "approved" ? (
                    t("approved")
                  ) : (
                    <div className="flex flex-wrap gap-2">
                      <Button
                        variant="secondary"
                        aria-label={`${t("approve")}: ${oneLine(post.subject)}`}
                        loading={decide.isPending && decide.variables?.approve?.[0] === post.id}
                        disabled={decide.isPending}
                        onClick={() => decide.mutate({ approve: [post.id] })}
                      >
                        {t("approve")}
                      </Button>
                      <Button
                        variant="danger"
                        aria-label={`${t("reject")}: ${oneLine(post.subject)}`}
                        loading={decide.isPending && decide.variables?.reject?.[0] === post.id}
                        disabled={decide.isPending}
                        onClick={() => decide.mutate({ reject: [post.id] })}
                      >
                        {t("reject")}
                      </Button>
                    </div>
                  ),
              },
            ]}
          />
        )}
      </Card>
      <Card title={t("bounces")} description={t("bouncesDesc")}>
        {data.data && (
          <DetailTable
            testId="list-bounces"
            items={data.data.bounces}
            itemKey={(b) => b.address}
            empty={t("bouncesNone")}
            columns={[
              { key: "address", label: t("address"), cell: (b) => <Address text={b.address} /> },
              { key: "count", label: t("count"), cell: (b) => b.count },
              { key: "lastAt", label: t("lastAt"), wide: true, cell: (b) => when(b.last_at) },
              {
                key: "reason",
                label: t("reason"),
                wide: true,
                className: WORDS,
                cell: (b) => <OneLine text={b.last_reason} />,
              },
            ]}
          />
        )}
      </Card>
    </>
  );
}

/** Free text's column keeps a readable width (not one letter a line). */
const WORDS = "min-w-40";

/**
 * A subject or bounce reason, which the sender or a remote server wrote: on one line of text (oneLine: no break of its
 * own can fake another line), isolated in <bdi> so that a right-to-left override in it cannot reorder the row's other
 * text, and whole, wrapped anywhere within at most 24 rem: a moderator reads it before approving, and a touch screen
 * shows no title on hover (it was cut to about 20 characters at 375 px). Below md it is a line of its own under its
 * label in the first cell. Below lg it adds no width to the table (contain: inline-size: the column is as wide as the
 * others leave it, at least 10 rem), so a long subject does not push the table sideways.
 */
function OneLine({ text }: { text: string }) {
  return <bdi className="block max-w-sm wrap-anywhere max-lg:[contain:inline-size]">{oneLine(text)}</bdi>;
}

/**
 * The panel's two tables here: the column labels, one row per item, or the `empty` line when there is none. Columns
 * marked `wide` are hidden below md, as in the resource table, and shown there as labelled lines under the first.
 */
function DetailTable<T>({
  testId,
  columns,
  items,
  itemKey,
  empty,
}: {
  testId: string;
  columns: Column<T>[];
  items: T[];
  itemKey: (item: T) => string | number;
  empty: string;
}) {
  if (items.length === 0) return <p>{empty}</p>;
  const [first, ...rest] = columns;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid={testId}>
        <thead>
          <tr className="border-b border-gray-300">
            {columns.map((c) => (
              <th key={c.key} className={`px-2 py-1 text-left font-medium ${cellClass(c)}`}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={itemKey(item)} className="border-b border-gray-200 align-top">
              <td className="px-2 py-1">
                {first!.cell(item)}
                {rest
                  .filter((c) => c.wide)
                  .map((c) => (
                    <div key={c.key} className="mt-1 text-gray-700 wrap-anywhere md:hidden">
                      <span className="text-gray-500">{c.label}:</span> {c.cell(item)}
                    </div>
                  ))}
              </td>
              {rest.map((c) => (
                <td key={c.key} className={`px-2 py-1 ${cellClass(c)}`}>
                  {c.cell(item)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
