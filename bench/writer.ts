// The second process of the bench (issue 19): it writes to the bench database while the server is measured, so the
// figures describe a service whose data other processes change, as they do in production.
//   writer.ts quota <file>           between "start" and "stop" messages, upserts mail_quota for random accounts of
//                                    the big domain at QUOTA_WRITES_PER_SECOND, one statement per transaction, as
//                                    Dovecot's quota_clone does on deliveries; answers "stop" with what it wrote.
//   writer.ts import <file> <count>  adds <count> accounts to the big domain, IMPORT_BATCH per transaction, as an
//                                    import by another process would, reports and exits.
import { openDatabase } from "@/db/client";
import { searchKey } from "@/lib/server/resources/list-page";
import { BIG_DOMAIN, CITY, FIRST, LAST, ROLE } from "./seed";
import { QUOTA_WRITES_PER_SECOND, type ImportReport, type QuotaReport } from "./writer-messages";

const IMPORT_BATCH = 100;

const [mode, file, countArg] = process.argv.slice(2);
if (!file || (mode !== "quota" && mode !== "import")) throw new Error("usage: writer.ts quota|import <file> [count]");
const sqlite = openDatabase(file).$client;
const domainId = sqlite.prepare("SELECT id FROM domains WHERE name = ?").pluck().get(BIG_DOMAIN) as number;
const send = (message: unknown) => process.send?.(message);
// The bench going away ends this process too.
process.on("disconnect", () => process.exit(0));

if (mode === "quota") {
  const emails = sqlite.prepare("SELECT email FROM accounts WHERE domain_id = ?").pluck().all(domainId) as string[];
  const upsert = sqlite.prepare(
    `INSERT INTO mail_quota (username, bytes, messages) VALUES (?, ?, ?)
     ON CONFLICT (username) DO UPDATE SET bytes = excluded.bytes, messages = excluded.messages`,
  );
  let timer: NodeJS.Timeout | undefined;
  let started = 0;
  let writes = 0;
  // Catches up with the schedule on each tick, so the rate holds even when a tick comes late.
  const tick = () => {
    const due = Math.floor((QUOTA_WRITES_PER_SECOND * (performance.now() - started)) / 1000);
    for (; writes < due; writes++) {
      const bytes = Math.floor(Math.random() * 2 ** 30);
      upsert.run(emails[Math.floor(Math.random() * emails.length)]!, bytes, Math.floor(bytes / 50_000));
    }
  };
  process.on("message", (message) => {
    if (message === "start" && !timer) {
      started = performance.now();
      writes = 0;
      timer = setInterval(tick, 10);
    } else if (message === "stop" && timer) {
      clearInterval(timer);
      timer = undefined;
      send({ writes, seconds: (performance.now() - started) / 1000 } satisfies QuotaReport);
    }
  });
  send("ready");
} else {
  const count = Number(countArg);
  const hash = sqlite.prepare("SELECT password_hash FROM accounts WHERE domain_id = ? LIMIT 1").pluck().get(domainId) as string;
  const insert = sqlite.prepare(
    `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, password_hash)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const batch = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const name = `${pick(FIRST)}.${pick(LAST)}.import${i}`;
      const description = `${pick(LAST)} – ${pick(ROLE)}, ${pick(CITY)}`;
      insert.run(domainId, name, `${name}@${BIG_DOMAIN}`, description, searchKey(name, description), 1024, hash);
    }
  });
  const started = performance.now();
  for (let i = 0; i < count; i += IMPORT_BATCH) batch(i, Math.min(count, i + IMPORT_BATCH));
  send({ accounts: count, seconds: (performance.now() - started) / 1000 } satisfies ImportReport);
  process.disconnect?.();
}
