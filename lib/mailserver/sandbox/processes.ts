// Child processes, readiness probes and free ports for the sandbox (lib/mailserver/sandbox/sandbox.ts).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import { mailTestPorts } from "@/lib/config.mjs";

/** Where ports are looked for: below the kernel's ephemeral range, which outgoing connections take theirs from. */
function portRange(): [number, number] {
  // MAIL_TEST_PORTS=<low>-<high> keeps one run's daemons inside its own range, beside other runs on the same host.
  const own = /^(\d+)-(\d+)$/.exec(mailTestPorts());
  if (own) return [Number(own[1]), Number(own[2]) + 1];
  let low = 32768;
  try {
    low = Number(fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || low;
  } catch {
    // Not Linux: the usual default.
  }
  return [10_000, Math.max(low, 11_000)];
}

const listenOn = (port: number) =>
  new Promise<net.Server | null>((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(null)).listen(port, "127.0.0.1", () => resolve(server));
  });

/**
 * `count` consecutive free TCP ports on 127.0.0.1 at a random place below the ephemeral range, each tried by
 * listening on it (all held open together, then released), or `base`, `base + 1`... when a base is given. A port
 * the kernel handed out (listening on port 0) could be taken by any outgoing connection before the daemon it was
 * meant for binds it ("Address already in use" in CI, with other tests running beside); these are not handed out,
 * and a random block keeps two processes looking at once apart.
 */
export async function freePorts(count: number, base?: number): Promise<number[]> {
  if (base !== undefined) return Array.from({ length: count }, (_, i) => base + i);
  const [low, high] = portRange();
  for (let attempt = 0; attempt < 100; attempt++) {
    const start = low + Math.floor(Math.random() * (high - low - count));
    const servers = await Promise.all(Array.from({ length: count }, (_, i) => listenOn(start + i)));
    const open = servers.filter((s): s is net.Server => s !== null);
    await Promise.all(open.map((s) => new Promise((r) => s.close(r))));
    if (servers.every(Boolean)) return servers.map((_, i) => start + i);
  }
  throw new Error(`no ${count} consecutive free ports between ${low} and ${high}`);
}

/** One free port, as freePorts() finds them. */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/** A daemon run in the foreground as our child, its output appended to a log file. */
export class Daemon {
  readonly proc: ChildProcess;
  readonly exited: Promise<number | null>;
  exitCode: number | null | undefined;

  constructor(
    readonly name: string,
    command: string,
    args: string[],
    readonly logFile: string,
    options: { uid?: number; gid?: number; env?: Record<string, string>; cwd?: string } = {},
  ) {
    const log = fs.openSync(logFile, "a");
    this.proc = spawn(command, args, {
      stdio: ["ignore", log, log],
      uid: options.uid,
      gid: options.gid,
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
    });
    fs.closeSync(log);
    this.exited = new Promise((resolve) => {
      this.proc.once("exit", (code) => {
        this.exitCode = code;
        resolve(code);
      });
      this.proc.once("error", (err) => {
        fs.appendFileSync(logFile, `spawn failed: ${err.message}\n`);
        this.exitCode = -1;
        resolve(-1);
      });
    });
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.proc.kill("SIGTERM");
    const timer = setTimeout(() => this.proc.kill("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** The end of the log, for an error message. */
  tail(lines = 3): string {
    try {
      return fs.readFileSync(this.logFile, "utf8").trim().split("\n").slice(-lines).join(" | ");
    } catch {
      return "";
    }
  }
}

/** Whether a TCP service on 127.0.0.1:port greets with a line matching `greeting` (SMTP 220, IMAP * OK...). */
export function greets(port: number, greeting: RegExp, send?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let data = "";
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once("error", () => done(false));
    // Closed without the greeting (Postfix's smtpd exiting at once, "fatal: no SASL authentication mechanisms"):
    // the closed socket's timeout never fires, and the promise was left pending for good.
    socket.once("close", () => done(false));
    socket.once("connect", () => {
      if (send) socket.write(send);
    });
    socket.on("data", (chunk) => {
      data += chunk.toString("utf8");
      if (greeting.test(data)) done(true);
    });
  });
}

/** Whether a TCP connection to 127.0.0.1:port is accepted. */
export function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.setTimeout(2000, () => (socket.destroy(), resolve(false)));
    socket.once("error", () => resolve(false));
    socket.once("connect", () => (socket.destroy(), resolve(true)));
  });
}

/** Whether GET http://127.0.0.1:port<path> answers 200 with a body matching `body`. */
export function httpAnswers(port: number, urlPath: string, body: RegExp): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: urlPath, timeout: 2000 }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString("utf8")));
      res.on("end", () => resolve(res.statusCode === 200 && body.test(text)));
    });
    req.once("timeout", () => req.destroy());
    req.once("error", () => resolve(false));
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it is true; throws `what` after `timeoutMs`, or at once when `failed()` says so. */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean> | boolean,
  timeoutMs: number,
  failed?: () => string | undefined,
) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    const reason = failed?.();
    if (reason) throw new Error(`${what}: ${reason}`);
    if (Date.now() > end) throw new Error(`${what}: no answer within ${timeoutMs / 1000} s`);
    await sleep(200);
  }
}

/** Every process whose parent chain leads to `root` (read from /proc). */
export function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parent.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  for (const pid of parent.keys()) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        found.push(pid);
        break;
      }
    }
  }
  return found;
}

/** Processes still alive among `pids` (zombies count as gone). */
export function alive(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
    } catch {
      return false;
    }
  });
}
