"use client";
// Bulk create of accounts (loaded with next/dynamic when the dialog opens, so the CSV code and zod stay out of the
// table's first load): paste lines or pick a CSV file, check every row in a preview, create the valid rows one
// after another with a progress bar, then a per-row result with a retry of the failed rows. Generated passwords
// can be downloaded once, as CSV; after that they are dropped from memory.
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Address, Button, TextArea } from "@/components";
import { PanelApiError } from "@/lib/client/api";
import { accounts } from "@/lib/client/hooks/accounts";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useLocale, useT } from "@/lib/i18n";
import { countOf } from "@/lib/i18n/plural";
import { Progress } from "../_postmaster/progress";
import { bulkCreateMessages } from "./bulk-create-messages";
import { decodeCsvFile, markTaken, parseRows, passwordsCsv, type BulkRow } from "@/lib/client/account-rows";
import { ACCOUNT_NOUN } from "./messages";

type Result = { row: BulkRow; ok: true } | { row: BulkRow; ok: false; reason: string };

/** Names per "which are taken?" request of the preview. */
const TAKEN_BATCH = 200;
/** Requests in flight at once: the server hashes each password (scrypt), so more would only queue. */
const PARALLEL = 2;

export function BulkCreateDialog({ domain, onClose }: { domain: string; onClose: () => void }) {
  const t = useT(bulkCreateMessages);
  const locale = useLocale();
  const errorText = useErrorText();
  const invalidate = accounts.useInvalidate();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [text, setText] = useState("");
  /** The chosen CSV file's name, shown beside the panel's own "choose a file" button. */
  const [fileName, setFileName] = useState("");
  const [rows, setRows] = useState<BulkRow[] | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [results, setResults] = useState<Result[] | null>(null);
  const [passwords, setPasswords] = useState<{ name: string; password: string }[]>([]);
  const [downloaded, setDownloaded] = useState(false);
  /** The file's text was not UTF-8 and was read as Windows-1250 (what Polish Excel saves): said above the preview. */
  const [encodingNote, setEncodingNote] = useState(false);
  const [checking, setChecking] = useState(false);
  /** Closing asked while generated passwords were not downloaded: the dialog asks first. */
  const [confirmClose, setConfirmClose] = useState(false);
  const count = (n: number) => countOf(locale, n, ACCOUNT_NOUN);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const problemText = (p: NonNullable<BulkRow["problem"]>) =>
    p === "duplicateInInput" || p === "columnsSwapped" ? t(p) : errorText.catalog(p);

  /** The rows with their checks, then the names the domain already holds marked as taken (one request). */
  const preview = async () => {
    const parsed = parseRows(text, domain);
    setChecking(true);
    try {
      const names = parsed.filter((r) => !r.problem).map((r) => r.name);
      const taken: string[] = [];
      // In batches: a URL of 1,000 names would pass the server's 16 kB header limit.
      for (let i = 0; i < names.length; i += TAKEN_BATCH) {
        const batch = names
          .slice(i, i + TAKEN_BATCH)
          .map(encodeURIComponent)
          .join(",");
        const res = await fetch(`/api/panel/taken-names?names=${batch}`);
        if (res.ok) taken.push(...((await res.json()) as { taken: { name: string }[] }).taken.map((t) => t.name));
      }
      setRows(markTaken(parsed, taken));
    } catch {
      // The check is a courtesy: the server refuses a taken name anyway, per row, after sending.
      setRows(parsed);
    } finally {
      setChecking(false);
    }
  };

  const create = async (toCreate: BulkRow[], refused: Result[]) => {
    setProgress({ done: 0, total: toCreate.length });
    const out: Result[] = [];
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < toCreate.length) {
        const row = toCreate[next++]!;
        try {
          await accounts.saveOne(domain, {
            name: row.name,
            body: { password: row.password, capacity: row.capacity, description: row.description },
            create: true,
          });
          out.push({ row, ok: true });
        } catch (err) {
          const reason = err instanceof PanelApiError ? errorText.body(err.body) : errorText.failure(err);
          out.push({ row, ok: false, reason });
        }
        setProgress({ done: ++done, total: toCreate.length });
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    await invalidate();
    const created = out.filter((r) => r.ok).map((r) => r.row);
    setPasswords((p) => [
      ...p,
      ...created.filter((r) => r.generated).map((r) => ({ name: r.name, password: r.password })),
    ]);
    setDownloaded((d) => d && !created.some((r) => r.generated));
    setResults([...refused, ...out].sort((a, b) => a.row.line - b.row.line));
    setProgress(null);
  };

  const start = () => {
    if (!rows) return;
    const refused: Result[] = rows
      .filter((r) => r.problem)
      .map((row) => ({ row, ok: false, reason: problemText(row.problem!) }));
    void create(
      rows.filter((r) => !r.problem),
      refused,
    );
  };

  /** Retries the rows the server refused (rows that broke a rule would only be refused again). */
  const retry = () => {
    if (!results) return;
    const failed = results.filter((r) => !r.ok && !r.row.problem).map((r) => r.row);
    const keep = results.filter((r) => r.ok || r.row.problem);
    void create(failed, keep);
  };

  const download = () => {
    const blob = new Blob([passwordsCsv(passwords, domain)], { type: "text/csv;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = `${domain}-passwords.csv`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    // Once: the passwords are not kept after the download.
    setPasswords([]);
    setDownloaded(true);
  };

  const close = (force = false) => {
    if (progress) return;
    // The passwords exist nowhere else: closing would lose them while the accounts exist.
    if (!force && passwords.length > 0) {
      setConfirmClose(true);
      return;
    }
    ref.current?.close();
    onClose();
  };

  const valid = rows?.filter((r) => !r.problem).length ?? 0;
  const created = results?.filter((r) => r.ok).length ?? 0;
  const failed = results ? results.length - created : 0;
  const retryable = results?.some((r) => !r.ok && !r.row.problem) ?? false;

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      className="m-auto max-h-[calc(100%-2rem)] w-[calc(100%-1rem)] max-w-4xl rounded-lg bg-white p-0 shadow-xl backdrop:bg-black/50"
    >
      <div className="space-y-4 p-4 sm:p-5">
        <h2 id={titleId} className="text-lg font-semibold text-gray-900">
          {t("title")}
        </h2>

        {!rows && (
          <>
            <p className="text-sm text-gray-800">{t("format")}</p>
            <TextArea
              label={t("lines")}
              rows={8}
              value={text}
              spellCheck={false}
              className="[&_textarea]:font-mono"
              onChange={(e) => setText(e.target.value)}
            />
            <div>
              <label className="mb-1 block text-sm font-medium text-gray-900" htmlFor={`${titleId}-file`}>
                {t("file")}
              </label>
              {/* The browser's own control says "Choose File / No file chosen" in its language, not the panel's: the
                  input is visually hidden (still focusable and named by both labels), and a label styled as a
                  button opens it, with the chosen file's name beside it. */}
              <div className="flex flex-wrap items-center gap-3">
                <input
                  id={`${titleId}-file`}
                  type="file"
                  accept=".csv,.txt,text/csv,text/plain"
                  className="peer sr-only"
                  aria-describedby={`${titleId}-file-name`}
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    setFileName(file?.name ?? "");
                    if (file)
                      void file.arrayBuffer().then((buf) => {
                        const decoded = decodeCsvFile(new Uint8Array(buf));
                        setEncodingNote(decoded.encoding === "windows-1250");
                        setText(decoded.text);
                      });
                  }}
                />
                <label
                  htmlFor={`${titleId}-file`}
                  className="inline-flex min-h-10 cursor-pointer items-center rounded-md border border-gray-400 bg-white px-4 py-2 text-sm font-medium text-gray-900 hover:bg-gray-100 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-blue-700"
                >
                  {t("chooseFile")}
                </label>
                <span id={`${titleId}-file-name`} className="min-w-0 text-sm text-gray-800 wrap-anywhere">
                  {fileName || t("noFile")}
                </span>
              </div>
            </div>
          </>
        )}

        {rows && !results && !progress && (
          <>
            {encodingNote && (
              <p className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-gray-900">
                {t("encoding1250")}
              </p>
            )}
            <p className="text-sm" role="status">
              {t("previewSummary", { count: count(valid), invalid: rows.length - valid })}
            </p>
            <LinesTable
              caption={t("previewCaption")}
              headers={[t("line"), t("name"), t("password"), t("capacity"), t("description"), t("check")]}
              narrowHidden={[2, 3, 4]}
              rows={rows.map((r) => ({
                line: r.line,
                bad: r.problem !== null,
                cells: [
                  <Address key="n" text={r.name} />,
                  r.generated ? t("generated") : t("given"),
                  r.capacity || "—",
                  r.description || "—",
                  r.problem ? <span className="text-red-900">{problemText(r.problem)}</span> : t("ok"),
                ],
              }))}
            />
          </>
        )}

        {confirmClose && passwords.length > 0 && (
          <div
            role="alertdialog"
            aria-labelledby={`${titleId}-lose`}
            className="space-y-2 rounded border border-red-300 bg-red-50 p-3"
          >
            <p id={`${titleId}-lose`} className="text-sm font-semibold text-red-900">
              {t("closeWarning", { n: passwords.length })}
            </p>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="primary"
                onClick={() => {
                  download();
                  setConfirmClose(false);
                }}
              >
                {t("download", { n: passwords.length })}
              </Button>
              <Button variant="danger" onClick={() => close(true)}>
                {t("closeAnyway")}
              </Button>
            </div>
          </div>
        )}

        {progress && <Progress label={t("creating")} done={progress.done} total={progress.total} of={t("of")} />}

        {results && !progress && (
          <>
            <p className="text-sm font-semibold" role="status">
              {t("resultSummary", { created: count(created), failed: count(failed) })}
            </p>
            <LinesTable
              caption={t("resultCaption")}
              headers={[t("line"), t("name"), t("result")]}
              rows={results.map((r) => ({
                line: r.row.line,
                bad: !r.ok,
                cells: [
                  <Address key="n" text={r.row.name} />,
                  r.ok ? t("created") : <span className="text-red-900">{r.reason}</span>,
                ],
              }))}
            />
            {downloaded && <p className="text-sm text-gray-800">{t("downloadedOnce")}</p>}
          </>
        )}

        <div className="flex flex-wrap justify-end gap-2">
          {!rows && (
            <Button disabled={text.trim() === ""} loading={checking} onClick={() => void preview()}>
              {t("preview")}
            </Button>
          )}
          {rows && !results && !progress && (
            <>
              <Button variant="secondary" onClick={() => setRows(null)}>
                {t("back")}
              </Button>
              <Button disabled={valid === 0} onClick={start}>
                {t("create", { count: count(valid) })}
              </Button>
            </>
          )}
          {results && !progress && retryable && (
            <Button variant="secondary" onClick={retry}>
              {t("retry")}
            </Button>
          )}
          {/* While generated passwords wait for their one download, that is the main action and closing is not. */}
          <Button
            variant={results && passwords.length === 0 ? "primary" : results ? "secondary" : "ghost"}
            disabled={progress !== null}
            onClick={() => close()}
          >
            {t("close")}
          </Button>
          {results && !progress && passwords.length > 0 && (
            <Button variant="primary" onClick={download}>
              {t("download", { n: passwords.length })}
            </Button>
          )}
        </div>
      </div>
    </dialog>
  );
}

/** The preview and the result: one row per input line (its number first), wrong ones tinted. */
function LinesTable(props: {
  caption: string;
  headers: string[];
  /** Columns (by index) hidden on narrow screens. */
  narrowHidden?: number[];
  rows: { line: number; bad: boolean; cells: ReactNode[] }[];
}) {
  const hide = (i: number) => (props.narrowHidden?.includes(i) ? "hidden sm:table-cell " : "");
  return (
    // A scrolling box: focusable and named, so a keyboard user can reach and scroll every row.
    <div
      role="region"
      aria-label={props.caption}
      tabIndex={0}
      className="max-h-80 overflow-auto rounded border border-gray-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
    >
      <table className="w-full text-sm">
        <caption className="sr-only">{props.caption}</caption>
        <thead className="sticky top-0 bg-gray-50 text-left">
          <tr>
            {props.headers.map((h, i) => (
              <th key={h} scope="col" className={`${hide(i)}px-2 py-1`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.line} className={`border-t border-gray-200 ${r.bad ? "bg-red-50" : ""}`}>
              <td className="px-2 py-1 tabular-nums">{r.line}</td>
              {r.cells.map((c, i) => (
                <td key={i} className={`${hide(i + 1)}px-2 py-1`}>
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
