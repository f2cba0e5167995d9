// A real user's median latency while 4 clients send bad sign-ins, against quiet (target: at most 2x).
// A server of its own (production build, one worker, the real scrypt cost, TRUSTED_PROXIES=127.0.0.1 so that the
// attackers can rotate X-Forwarded-For addresses and never meet the per-address slowing), on a small database of
// its own. The real user reads its own account record with Basic credentials, one request after another on one
// kept-alive connection. The attackers are four clients, each sending panel sign-ins for made-up addresses from a
// new address each time, back to back (no credentials needed, every one costs the server one scrypt).
// `npm run bench -- --bad-sign-ins` runs only this; a full run also does it last.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { median } from "./load";

const DOMAIN = "signins.example.com";
const USER_PASSWORD = "Real-user-1";
const sha1 = (s: string) => crypto.createHash("sha1").update(s).digest("hex");

export interface BadSignInsResult {
  quietMedianMs: number;
  attackMedianMs: number;
  ratio: number;
  quietMaxMs: number;
  attackMaxMs: number;
  quietRequests: number;
  attackRequests: number;
  /** Bad sign-ins answered during the attack (all four clients). */
  badSignIns: number;
  badSignInsPerSecond: number;
  seconds: number;
  /** The attacked/quiet ratio of each round. */
  rounds: number[];
}

/** Seconds of one quiet or attacked window. */
const WINDOW_SECONDS = 2;

function request(
  agent: http.Agent,
  port: number,
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: string,
) {
  return new Promise<number>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: target, headers, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Real-user GETs, one after another, for `seconds`; their latencies in ms. */
async function realUser(port: number, seconds: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { authorization: `Basic ${Buffer.from(`user@${DOMAIN}:${sha1(USER_PASSWORD)}`).toString("base64")}` };
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t0 = performance.now();
    const status = await request(agent, port, "GET", `/api/v1/emails/${DOMAIN}/user`, headers);
    if (status !== 200) throw new Error(`real user: ${status}`);
    times.push(performance.now() - t0);
  }
  agent.destroy();
  return times;
}

/** One attacking client: bad sign-ins back to back until `stop` resolves; how many were answered. */
async function attacker(port: number, id: number, round: number, stop: { done: boolean }): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let n = 0;
  while (!stop.done) {
    const address = `198.18.${id * 50 + round}.${(n % 250) + 1}`;
    const body = JSON.stringify({ email: `nobody-${id}-${round}-${n}@${DOMAIN}`, digest: sha1(`guess-${n}`) });
    const status = await request(
      agent,
      port,
      "POST",
      "/api/panel/session",
      {
        "content-type": "application/json",
        origin: `http://127.0.0.1:${port}`,
        "x-forwarded-for": address,
      },
      body,
    );
    if (status !== 403) throw new Error(`attacker: ${status}`);
    n++;
  }
  agent.destroy();
  return n;
}

export async function measureBadSignIns(opts: {
  root: string;
  port: number;
  distDir: string;
  seconds?: number;
  log: (m: string) => void;
}) {
  const seconds = opts.seconds ?? 10;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-signins-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_PATH: path.join(dir, "signins.db"),
    NEXT_DIST_DIR: opts.distDir,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(opts.port),
    WORKERS: "1",
    TRUSTED_PROXIES: "127.0.0.1",
  };
  delete env.SCRYPT_COST;
  const seed = [["domain", "add", DOMAIN, "--postmaster-password", "Postmaster-1"]];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "e2e/api/seed.ts", JSON.stringify(seed)],
      { cwd: opts.root, env, stdio: "inherit" },
    );
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`seed failed: ${code}`))));
  });
  const server = spawn(process.execPath, ["lib/runtime/server.mjs"], {
    cwd: opts.root,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${opts.port}/api/health`)).ok) break;
      } catch {
        // not yet
      }
      if (i > 600) throw new Error("bad-sign-ins server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    const pm = `Basic ${Buffer.from(`postmaster@${DOMAIN}:${sha1("Postmaster-1")}`).toString("base64")}`;
    const created = await fetch(`http://127.0.0.1:${opts.port}/api/v1/emails/${DOMAIN}/user`, {
      method: "POST",
      headers: { authorization: pm, "content-type": "application/json" },
      body: JSON.stringify({ password: USER_PASSWORD, capacity: 1 }),
    });
    if (created.status !== 201) throw new Error(`creating the user: ${created.status}`);
    await realUser(opts.port, 2); // warm-up (and the user's credentials verified once, as a real client's are)
    // Quiet and attacked windows alternate (ROUNDS of each, 2 s apart at most): this host's speed drifts within
    // minutes, and other work on it comes and goes, so each attacked window is compared with the quiet one just
    // before it; the ratio is the median of the rounds' ratios.
    const rounds = Math.max(1, Math.round(seconds / WINDOW_SECONDS));
    const quiet: number[] = [];
    const attacked: number[] = [];
    const ratios: number[] = [];
    let badSignIns = 0;
    let attackSeconds = 0;
    for (let round = 0; round < rounds; round++) {
      const q = await realUser(opts.port, WINDOW_SECONDS);
      const stop = { done: false };
      const attackers = [0, 1, 2, 3].map((id) => attacker(opts.port, id, round, stop));
      await new Promise((r) => setTimeout(r, 300));
      const t0 = performance.now();
      const a = await realUser(opts.port, WINDOW_SECONDS);
      stop.done = true;
      badSignIns += (await Promise.all(attackers)).reduce((x, y) => x + y, 0);
      attackSeconds += (performance.now() - t0) / 1000 + 0.3;
      quiet.push(...q);
      attacked.push(...a);
      ratios.push(median(a) / median(q));
    }
    const result: BadSignInsResult = {
      quietMedianMs: median(quiet),
      attackMedianMs: median(attacked),
      ratio: median(ratios),
      quietMaxMs: Math.max(...quiet),
      attackMaxMs: Math.max(...attacked),
      quietRequests: quiet.length,
      attackRequests: attacked.length,
      badSignIns,
      badSignInsPerSecond: badSignIns / attackSeconds,
      seconds: rounds * WINDOW_SECONDS,
      rounds: ratios.map((r) => Number(r.toFixed(2))),
    };
    opts.log(
      `Bad sign-ins: real user's median ${result.quietMedianMs.toFixed(2)} ms quiet, ${result.attackMedianMs.toFixed(2)} ms while 4 clients sent ${badSignIns} bad sign-ins (${result.badSignInsPerSecond.toFixed(1)}/s): ${result.ratio.toFixed(2)}x, median of rounds ${result.rounds.join(", ")} (max ${result.quietMaxMs.toFixed(1)} / ${result.attackMaxMs.toFixed(1)} ms)`,
    );
    return result;
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
