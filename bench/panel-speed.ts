// The panel's speed at 100,000 accounts, on its own: `npm run bench:panel` (BENCH_PORT, default 3500).
// - The host's CPU probe (bench/host.ts), before and after, so figures from different hosts can be compared.
// - The server-rendered /accounts page against the API's list page that it is built on (GET
//   /api/v1/emails/<domain>?size=25), measured side by side (A B B A slices, one connection each), p50 and p99;
//   then /me (a signed-in page that reads no list) against the same call, and the HTML size of both pages.
// - Lighthouse 12 mobile performance of /accounts: five runs in fresh Chromes and their median, with each run's
//   metrics, and the first-load JavaScript of the panel's pages (bench/panel.ts, the full bench's own code).
// Writes bench/data/panel-speed.json. Seeds bench/data/panel-speed.db once (100,000 accounts in one domain).
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { cpuProbeMs } from "./host";
import { measurePair, type Load } from "./load";
import { CHROMIUM, LIGHTHOUSE_RUNS, measurePanel } from "./panel";
import { checkPrerequisites } from "./prerequisites";
import { seed } from "./seed";
import { ADMIN_PASSWORD, BIG_DOMAIN } from "./seed-plan";

checkPrerequisites(CHROMIUM);
const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.BENCH_PORT ?? 3500);
const base = `http://127.0.0.1:${port}`;
const file = path.join(root, "bench/data/panel-speed.db");
const log = (s: string) => process.stdout.write(`${s}\n`);

if (!fs.existsSync(file)) {
  log(`Seeding ${file} ...`);
  const r = seed(file, {
    bigAccounts: 100_000,
    midAccounts: 100,
    aliases: 100,
    lists: 5,
    maxSubscribers: 10,
    smallDomains: 5,
  });
  log(`Seeded ${r.accounts} accounts in ${r.seconds.toFixed(1)} s`);
}
if (!fs.existsSync(path.join(root, process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID")))
  throw new Error("no production build: run npm run build first");

const loadBefore = os.loadavg();
const probeBefore = cpuProbeMs();
const start = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } };
const tokens = start.scripts.start.split(/\s+/);
const startEnv = Object.fromEntries(
  tokens.slice(0, tokens.indexOf("node")).map((t) => t.split("=", 2) as [string, string]),
);
const server = spawn(process.execPath, tokens.slice(tokens.indexOf("node") + 1), {
  cwd: root,
  env: {
    ...process.env,
    ...startEnv,
    DATABASE_PATH: file,
    PORT: String(port),
    HOST: "127.0.0.1",
    WORKERS: "1",
    NODE_ENV: "production",
  },
  stdio: ["ignore", "ignore", "inherit"],
});
process.on("exit", () => server.exitCode === null && server.kill("SIGTERM"));

async function main() {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/login`)).status < 500) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  const email = `postmaster@${BIG_DOMAIN}`;
  const digest = crypto.createHash("sha1").update(ADMIN_PASSWORD).digest("hex");
  const signIn = await fetch(`${base}/api/panel/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, digest }),
  });
  const cookie = /^[^;]+/.exec(signIn.headers.get("set-cookie") ?? "")?.[0];
  if (!cookie) throw new Error(`sign-in failed: ${signIn.status}`);

  const api: Load = {
    url: `${base}/api/v1/emails/${BIG_DOMAIN}?size=25`,
    headers: { authorization: `Basic ${Buffer.from(`${email}:${digest}`).toString("base64")}` },
    connections: 1,
  };
  const page: Load = { url: `${base}/accounts`, headers: { cookie }, connections: 1 };
  const [apiSample, pageSample] = await measurePair(api, page, 2, 20, server.pid!);
  log(
    `API list page:   p50 ${apiSample.p50.toFixed(1)} ms, p99 ${apiSample.p99.toFixed(1)} ms (${apiSample.requests} requests)`,
  );
  log(
    `/accounts page:  p50 ${pageSample.p50.toFixed(1)} ms, p99 ${pageSample.p99.toFixed(1)} ms (${pageSample.requests} requests)`,
  );
  log(`ratio p50: ${(pageSample.p50 / apiSample.p50).toFixed(2)}x`);
  // What any signed-in page costs before it reads data: /me reads only the session's own account. Its ratio to the
  // same API call says how much of /accounts' ratio is the page machinery rather than the table.
  const me: Load = { url: `${base}/me`, headers: { cookie }, connections: 1 };
  const [apiSample2, meSample] = await measurePair(api, me, 1, 10, server.pid!);
  log(
    `/me page:        p50 ${meSample.p50.toFixed(1)} ms (API in the same run ${apiSample2.p50.toFixed(1)} ms: ${(meSample.p50 / apiSample2.p50).toFixed(2)}x)`,
  );
  // The floor of any page: /login signed out reads no session and no data, and renders the root layout and a form.
  // Its ratio to the API is what the App Router costs before a page does anything (docs/panel.md).
  const floor: Load = { url: `${base}/login`, connections: 1 };
  const [apiSample3, floorSample] = await measurePair(api, floor, 1, 10, server.pid!);
  log(
    `/login signed out: p50 ${floorSample.p50.toFixed(1)} ms (API in the same run ${apiSample3.p50.toFixed(1)} ms: ${(floorSample.p50 / apiSample3.p50).toFixed(2)}x)`,
  );
  const html: Record<string, { bytes: number; gzipBytes: number }> = {};
  for (const path of ["/accounts", "/me"]) {
    const body = Buffer.from(await (await fetch(`${base}${path}`, { headers: { cookie } })).arrayBuffer());
    const sizes = { bytes: body.length, gzipBytes: zlib.gzipSync(body).length };
    html[path] = sizes;
    log(`HTML of ${path}: ${(sizes.bytes / 1024).toFixed(1)} kB, ${(sizes.gzipBytes / 1024).toFixed(1)} kB gzip`);
  }

  const panel = await measurePanel(base, email, ADMIN_PASSWORD, LIGHTHOUSE_RUNS);
  const probeAfter = cpuProbeMs();
  const loadAfter = os.loadavg();
  log(
    `Lighthouse mobile performance of /accounts: median ${panel.lighthouse} (runs ${panel.lighthouseRuns.map((r) => r.score).join(", ")})`,
  );
  for (const r of panel.lighthouseRuns) log(`  ${JSON.stringify(r)}`);
  for (const j of panel.js) log(`first-load JS ${j.page}: ${j.gzipKb.toFixed(1)} kB gzip (${j.files} files)`);
  log(
    `CPU probe: ${probeBefore.toFixed(0)} ms before, ${probeAfter.toFixed(0)} ms after (bench/host.ts; 340-630 on hosts seen so far)`,
  );
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
  log(
    `load average (1, 5, 15 min): ${load(loadBefore)} before, ${load(loadAfter)} after, on ${os.cpus().length} cores`,
  );
  const out = {
    at: new Date().toISOString(),
    cpuProbeMs: [probeBefore, probeAfter],
    loadAverage: [loadBefore, loadAfter],
    api: apiSample,
    page: pageSample,
    me: { api: apiSample2, page: meSample },
    floor: { api: apiSample3, page: floorSample },
    html,
    panel,
  };
  fs.writeFileSync(path.join(root, "bench/data/panel-speed.json"), JSON.stringify(out, null, 2));
}

main()
  .then(() => process.exit(0))
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
