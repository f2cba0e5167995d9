// Test support: a private Rspamd (Debian's package) on free loopback ports, its proxy worker as Postfix's milter,
// with the dkim_signing.conf `mailserver config` generates. Everything else is Debian's default configuration,
// minus the modules that would ask the Internet (no network in tests).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export function startRspamd(dir: string, ports: { milter: number; normal: number; controller: number }, generatedConf: string) {
  const local = path.join(dir, "local");
  const localD = path.join(local, "local.d");
  for (const d of [localD, path.join(dir, "run"), path.join(dir, "db"), path.join(dir, "log")]) fs.mkdirSync(d, { recursive: true });
  const files: Record<string, string> = {
    "worker-proxy.inc": `bind_socket = "127.0.0.1:${ports.milter}";\nmilter = yes;\ntimeout = 60s;\nupstream "local" {\n  default = yes;\n  self_scan = yes;\n}\n`,
    "worker-normal.inc": `bind_socket = "127.0.0.1:${ports.normal}";\n`,
    "worker-controller.inc": `bind_socket = "127.0.0.1:${ports.controller}";\n`,
    "logging.inc": `type = "file";\nfilename = "${path.join(dir, "log", "rspamd.log")}";\nlevel = "info";\n`,
    "options.inc": `map_watch_interval = 1s;\ndns {\n  timeout = 0.5s;\n  retransmits = 1;\n}\n`,
    "rbl.conf": "enabled = false;\n",
    "asn.conf": "enabled = false;\n",
    "url_redirector.conf": "enabled = false;\n",
    "dkim_signing.conf": fs.readFileSync(path.join(generatedConf, "rspamd", "local.d", "dkim_signing.conf"), "utf8"),
  };
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(localD, name), content);
  execFileSync("chown", ["-R", "_rspamd:_rspamd", dir]);
  const pid = path.join(dir, "run", "rspamd.pid");
  // In the foreground (-f), detached: its start (compiling the TLD list) takes seconds to a minute on a busy host.
  const child = spawn(
    "rspamd",
    [
      "-f", "-c", "/etc/rspamd/rspamd.conf", "-u", "_rspamd", "-g", "_rspamd", "-p", pid,
      "--var", `LOCAL_CONFDIR=${local}`, "--var", `RUNDIR=${path.join(dir, "run")}`, "--var", `DBDIR=${path.join(dir, "db")}`,
      "--var", `LOGDIR=${path.join(dir, "log")}`,
    ],
    { stdio: "ignore", detached: true },
  );
  child.unref();
  return {
    /** Resolves once the controller answers /ping (the workers are up), or throws after `timeoutMs`. */
    async ready(timeoutMs = 180_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        try {
          const res = await fetch(`http://127.0.0.1:${ports.controller}/ping`, { signal: AbortSignal.timeout(2000) });
          if ((await res.text()).includes("pong")) return;
        } catch {
          // not yet
        }
        if (Date.now() > end) throw new Error("Rspamd did not start");
        await new Promise((r) => setTimeout(r, 300));
      }
    },
    log: () => (fs.existsSync(path.join(dir, "log", "rspamd.log")) ? fs.readFileSync(path.join(dir, "log", "rspamd.log"), "utf8") : ""),
    /** SIGTERM, then waits (up to 10 s) until the main process is gone. */
    async stop() {
      try {
        process.kill(child.pid!, "SIGTERM");
      } catch {
        return; // not running
      }
      for (let i = 0; i < 50; i++) {
        try {
          process.kill(child.pid!, 0);
        } catch {
          return;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    },
  };
}

/** Postfix main.cf lines making the Rspamd proxy worker the milter of smtpd. */
export const rspamdMilterLines = (port: number) => `smtpd_milters = inet:127.0.0.1:${port}
non_smtpd_milters = inet:127.0.0.1:${port}
milter_default_action = tempfail
milter_protocol = 6
milter_mail_macros = i {mail_addr} {client_addr} {client_name} {auth_authen}`;
