// The scenarios of `npm run bench`: each a load on one of the servers, named as RESULTS.md names it, in the order
// they are measured (a scenario whose ratio with the next one is a target is measured together with it).
import { ACCOUNT_LIST_COLUMNS, ACCOUNT_SORT_FIELDS, sortColumnOf } from "@/lib/schemas/list-columns";
import type { Load } from "./load";
import { auth, CONNECTIONS, quick, settings, WORKER_CONNECTIONS, type Ports } from "./run-config";
import { BIG_DOMAIN, FULL_LIST, MID_DOMAIN } from "./seed-plan";
import { QUOTA_WRITES_PER_SECOND } from "./writer-messages";

export interface Scenario {
  name: string;
  group: "server" | "list100k" | "list10k" | "baseline" | "write" | "underWrites" | "import" | "workers" | "processes";
  /** Names the pair this scenario belongs to: 100k/10k list queries, or 1/2 workers. */
  pair?: string;
  load: Load;
  /** The server that answers: the main one (one worker, the default), the baseline, or the one with two workers. */
  on?: "baseline" | "twoWorkers" | "twoProcesses";
  /** Measured while another process upserts mail_quota like a mail server (bench/writer.ts). */
  underWrites?: boolean;
}

export const EMPTY_HANDLER = "empty route handler (GET /api/health)";
export const ONE_ACCOUNT = "GET one account (auth)";
export const BASELINE_ACCOUNT = "baseline node:http: GET one account (auth)";
export const ONE_PROCESS = "1 process (1 worker)";
export const TWO_PROCESSES = "2 processes on two ports (1 worker each)";

/** "100k" for 100,000. */
export const short = (n: number) => (n % 1000 === 0 ? `${n / 1000}k` : String(n));

/** The big domain's first list page, measured on one worker and on two. */
export const FIRST_PAGE = `list ${short(settings.sizes.bigAccounts)}: first page`;

/** The name of one side of a workers or processes pair. */
export const sideName = (label: string, side: string) => `${label}, ${WORKER_CONNECTIONS} connections: ${side}`;

/** Whether two list scenarios are the 100k and 10k sides of one query. */
export const samePair = (a: Scenario, b: Scenario) => a.pair !== undefined && a.pair === b.pair;

/** Whether the ratio of two scenarios is a target: then they are measured together (measurePair). */
export const comparedWith = (s: Scenario, next: Scenario) =>
  (s.name === EMPTY_HANDLER && next.name === ONE_ACCOUNT) ||
  (s.group === "list100k" && next.group === "list10k" && samePair(s, next)) ||
  (s.group === "workers" && next.group === "workers" && samePair(s, next)) ||
  (s.group === "processes" && next.group === "processes" && samePair(s, next));

const UNDER_WRITES = ` (under writes: ${QUOTA_WRITES_PER_SECOND} mail_quota upserts/s by another process)`;

/** The same list scenario, measured while another process writes usage like a mail server. */
const underWrites = (s: Scenario): Scenario => ({
  ...s,
  name: `${s.name}${UNDER_WRITES}`,
  group: "underWrites",
  pair: undefined,
  underWrites: true,
});

/** Processes whose CPU a scenario measures, by label. */
export type CpuOf = Record<string, () => number | undefined>;

/** What the scenarios need to know of the servers and the data. */
export interface ScenarioContext {
  ports: Ports;
  /** An account of the big domain (not the postmaster). */
  someone: string;
  /** Search terms for the scenario with a new term each request. */
  cold: string[];
  pids: { app: () => number | undefined; app2: () => number | undefined; app3: () => number | undefined };
  /** PostgreSQL: the cluster's postmaster (its tree is the whole database server). */
  postgres?: () => number | undefined;
}

/** A GET with one worker and the same with two (each its own server, both on the bench's database). */
function workerPair(c: ScenarioContext, label: string, path: string): Scenario[] {
  // wrk, not autocannon in this process: two workers and autocannon on two cores left the workers short of CPU.
  const side = (port: number, server: () => number | undefined): Load => ({
    url: `http://127.0.0.1:${port}${path}`,
    headers: auth(BIG_DOMAIN),
    connections: WORKER_CONNECTIONS,
    generator: "wrk",
    // The CPU of the server and of the database too.
    cpuOf: { server, ...(c.postgres ? { postgres: c.postgres } : {}) },
  });
  return [
    { name: sideName(label, "1 worker"), group: "workers", pair: label, load: side(c.ports.app, c.pids.app) },
    {
      name: sideName(label, "2 workers"),
      group: "workers",
      pair: label,
      load: side(c.ports.twoWorkers, c.pids.app2),
      on: "twoWorkers",
    },
  ];
}

/**
 * PostgreSQL: GET one account from one single-worker server, and from two such servers on two ports against the
 * same database, as two hosts would run them (wrk on each, the connections split). The CPU of each process, of the
 * database and of the whole host is measured while loaded.
 */
function processPair(c: ScenarioContext, path: string, postgres: () => number | undefined): Scenario[] {
  const url = (port: number) => `http://127.0.0.1:${port}${path}`;
  const common = { headers: auth(BIG_DOMAIN), connections: WORKER_CONNECTIONS, generator: "wrk" as const };
  return [
    {
      name: sideName(ONE_ACCOUNT, ONE_PROCESS),
      group: "processes",
      pair: ONE_ACCOUNT,
      load: { url: url(c.ports.app), ...common, cpuOf: { "process A": c.pids.app, postgres } },
    },
    {
      name: sideName(ONE_ACCOUNT, TWO_PROCESSES),
      group: "processes",
      pair: ONE_ACCOUNT,
      on: "twoProcesses",
      load: {
        url: url(c.ports.app),
        alsoUrls: [url(c.ports.secondProcess)],
        ...common,
        cpuOf: { "process A": c.pids.app, "process B": c.pids.app3, postgres },
      },
    },
  ];
}

/**
 * The account list's sorts, one per index: the domain sorts by the name, and usage_bytes has an index of the same
 * shape as usage's.
 */
const SORTS = ACCOUNT_SORT_FIELDS.filter(
  (f) => (f === "name" || sortColumnOf(ACCOUNT_LIST_COLUMNS[f]) !== "name") && f !== "usage_bytes",
);

const COLD = "search, a new term each request (total not cached)";
/** The list queries of a quick run. */
const QUICK_LISTS = [`search "kowal", sort=${SORTS[0]}`, `search "zi" (2 chars, no trigram), sort=name`, COLD];

function listScenarios(c: ScenarioContext, domain: string, size: "100k" | "10k"): Scenario[] {
  const base = `http://127.0.0.1:${c.ports.app}/api/v1/emails/${domain}`;
  const group = size === "100k" ? "list100k" : "list10k";
  const accounts = size === "100k" ? settings.sizes.bigAccounts : settings.sizes.midAccounts;
  const make = (label: string, query: string, nextPath?: () => string): Scenario => ({
    name: `list ${short(accounts)}: ${label}`,
    group,
    pair: label,
    load: { url: `${base}?${query}`, headers: auth(domain), connections: CONNECTIONS, nextPath },
  });
  let next = 0;
  const cold = () =>
    `/api/v1/emails/${domain}?search=${encodeURIComponent(c.cold[next++ % c.cold.length]!)}&sort=capacity`;
  const all = [
    make("no search", ""),
    ...SORTS.map((s) => make(`search "kowal", sort=${s}`, `search=kowal&sort=${s}`)),
    make(`search "kowal", sort=description desc`, "search=kowal&sort=description&sort_dir=desc"),
    make(`search "nowak12" (few hits), sort=usage desc`, "search=nowak12&sort=usage&sort_dir=desc"),
    make(`search "ann" (3 chars), sort=name desc`, "search=ann&sort_dir=desc"),
    make(`search "zi" (2 chars, no trigram), sort=name`, "search=zi"),
    make(COLD, "", cold),
    make("page 150 (offset 7,500), sort=last_auth_date", "page=150&sort=last_auth_date"),
  ];
  if (quick) return all.filter((s) => QUICK_LISTS.includes(s.pair!));
  // The middle of the big domain (no 10k counterpart): a seek past a remembered position of the order
  // (db/page-anchors.ts), found by the run's first request; page 150 sorted by last sign-in still walks OFFSET.
  if (size === "100k")
    all.push({ ...make("page 1000 (offset 50,000), sort=capacity", "page=1000&sort=capacity"), pair: undefined });
  return all;
}

/** The 100k scenarios, each followed by the 10k scenario of the same pair (if any). */
function pairedLists(big: Scenario[], mid: Scenario[]): Scenario[] {
  return big
    .flatMap((b) => {
      const m = mid.find((x) => samePair(x, b));
      return m ? [b, m] : [b];
    })
    .concat(mid.filter((m) => !big.some((b) => samePair(b, m))));
}

/** Single requests on the main server and the baseline: the empty handler, one account, a domain, a list. */
function singleScenarios(c: ScenarioContext, accountPath: string): Scenario[] {
  const on = (port: number, path: string, extra: Partial<Load> = {}): Load => ({
    url: `http://127.0.0.1:${port}${path}`,
    headers: auth(BIG_DOMAIN),
    connections: CONNECTIONS,
    ...extra,
  });
  const app = c.ports.app;
  return [
    {
      name: EMPTY_HANDLER,
      group: "server",
      load: { url: `http://127.0.0.1:${app}/api/health`, connections: CONNECTIONS },
    },
    { name: ONE_ACCOUNT, group: "server", load: on(app, accountPath) },
    { name: BASELINE_ACCOUNT, group: "baseline", on: "baseline", load: on(c.ports.baseline, accountPath) },
    {
      name: `GET domain (${short(settings.sizes.bigAccounts)} accounts)`,
      group: "server",
      load: on(app, `/api/v1/domains/${BIG_DOMAIN}`),
    },
    {
      name: `GET mailing list (${settings.sizes.maxSubscribers} subscribers)`,
      group: "server",
      load: on(app, `/api/v1/mailinglists/${BIG_DOMAIN}/${FULL_LIST}`),
    },
    {
      name: "PUT one account",
      group: "write",
      load: on(app, accountPath, {
        method: "PUT",
        headers: { ...auth(BIG_DOMAIN), "content-type": "application/json" },
        body: JSON.stringify({ description: "Zmieniony opis" }),
      }),
    },
  ];
}

/** Every scenario, in the order measured; `big` is the 100k domain's list scenarios (the import reuses one). */
export function buildScenarios(c: ScenarioContext): { scenarios: Scenario[]; big: Scenario[] } {
  const accountPath = `/api/v1/emails/${BIG_DOMAIN}/${c.someone}`;
  const big = listScenarios(c, BIG_DOMAIN, "100k");
  const scenarios = [
    ...singleScenarios(c, accountPath),
    // Each 100k list query is measured together with its 10k counterpart (measurePair), so the two figures of a
    // pair share the host's load of that moment (this virtual machine's speed drifts by a third within minutes).
    ...pairedLists(big, listScenarios(c, MID_DOMAIN, "10k")),
    // Every list scenario of the 100k domain again, while another process writes as a mail server does.
    ...big.map(underWrites),
    ...workerPair(c, ONE_ACCOUNT, accountPath),
    ...workerPair(c, FIRST_PAGE, `/api/v1/emails/${BIG_DOMAIN}`),
    ...(c.postgres ? processPair(c, accountPath, c.postgres) : []),
  ];
  return { scenarios, big };
}

/**
 * Terms of 4-6 characters taken from real names, so each matches a different set. More of them than the server
 * remembers totals for (MAX_TOTALS), cycled in order, so every request of the scenario counts afresh.
 */
export function coldTerms(names: string[]): string[] {
  const terms = new Set<string>();
  for (const n of names) {
    const stem = n.replace(/[0-9]+$/, "");
    const at = Math.floor(stem.length / 3);
    terms.add(stem.slice(at, at + 4 + (n.length % 3)));
    if (terms.size >= 2_000) break;
  }
  return [...terms];
}
