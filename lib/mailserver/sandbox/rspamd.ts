// The sandbox's Rspamd: the configuration `mailserver config` generated, moved onto the sandbox's ports and resolver.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { daemonHandle, logFile, type SandboxComponent } from "./component";
import { connects, Daemon, httpAnswers } from "./processes";

/** The sandbox-only Rspamd rule: X-Sandbox-Spam-Score adds its number to the score (never in production). */
const SANDBOX_LUA = `-- Sandbox only (written by \`mailserver sandbox\`, never by \`mailserver config\`): the number in a message's
-- X-Sandbox-Spam-Score header is added to its score, so a test can give a message any score.
rspamd_config:register_symbol({
  name = 'SANDBOX_SPAM_SCORE',
  score = 1.0,
  description = 'sandbox: score from X-Sandbox-Spam-Score',
  group = 'sandbox',
  callback = function(task)
    local h = task:get_header('X-Sandbox-Spam-Score')
    local n = h and tonumber(h)
    if n then
      task:insert_result('SANDBOX_SPAM_SCORE', n, h)
    end
  end,
})
`;

/** Rspamd's compiled tables, kept between sandboxes (see the files step). */
const RSPAMD_CACHE = "/var/tmp/mailadmin-rspamd-cache";

export const rspamd: SandboxComponent = {
  name: "rspamd",
  packages: ["rspamd"],
  readyTimeoutMs: 180_000,
  files(ctx) {
    const base = ctx.layout.rspamd;
    const confdir = path.join(base, "confdir");
    for (const d of ["run", "db", "log", path.join("confdir", "override.d")])
      fs.mkdirSync(path.join(base, d), { recursive: true });
    for (const d of ["run", "db", "log"]) execFileSync("chown", ["_rspamd:_rspamd", path.join(base, d)]);
    // local.d is what `mailserver config` generated; override.d only moves the instance onto its ports and resolver.
    const localD = path.join(confdir, "local.d");
    if (!fs.existsSync(localD)) fs.symlinkSync(path.join(ctx.layout.conf, "rspamd", "local.d"), localD);
    // The signing worker for what Postfix takes other than over SMTP (the sandbox: its internal port), as generated.
    const confLocal = path.join(confdir, "rspamd.conf.local");
    if (!fs.existsSync(confLocal)) fs.symlinkSync(path.join(ctx.layout.conf, "rspamd", "rspamd.conf.local"), confLocal);
    const o = path.join(confdir, "override.d");
    const p = ctx.ports;
    fs.writeFileSync(path.join(o, "worker-normal.inc"), `bind_socket = "127.0.0.1:${p.rspamd_normal}";\ncount = 1;\n`);
    fs.writeFileSync(
      path.join(o, "worker-controller.inc"),
      `bind_socket = "127.0.0.1:${p.rspamd_controller}";\ncount = 1;\n`,
    );
    fs.writeFileSync(
      path.join(o, "worker-proxy.inc"),
      `bind_socket = "127.0.0.1:${p.rspamd_milter}";\nmilter = yes;\ntimeout = 120s;\ncount = 1;\nupstream "local" {\n  default = yes;\n  self_scan = yes;\n}\n`,
    );
    fs.writeFileSync(path.join(o, "worker-fuzzy.inc"), `count = -1;\n`);
    // The MX treats 127.0.0.1 as the Internet: no local-address exemptions; DNS from the sandbox's resolver. Maps
    // (the DKIM selector map) are checked every second (Debian: 5 min, files every 30 s), so a new or rotated key
    // signs within seconds; Rspamd 3.4 in practice also rereads a changed local file at once without this.
    // Rspamd compiles its TLD and regexp tables (hyperscan) at start: 30-60 s the first time, then a few seconds
    // from a cache shared by every sandbox of the host.
    fs.mkdirSync(RSPAMD_CACHE, { recursive: true });
    execFileSync("chown", ["_rspamd:_rspamd", RSPAMD_CACHE]);
    fs.writeFileSync(
      path.join(o, "options.inc"),
      `local_addrs = [];\nmap_watch_interval = 1s;\nhs_cache_dir = "${RSPAMD_CACHE}";\ndns {\n  nameserver = ["127.0.0.1:${p.dns}"];\n  timeout = 1s;\n  retransmits = 1;\n}\n`,
    );
    fs.writeFileSync(path.join(confdir, "rspamd.local.lua"), SANDBOX_LUA);
    for (const name of ["spf", "dmarc"]) {
      const file = path.join(o, `${name}.conf`);
      if (ctx.options.authChecksForLoopback) fs.writeFileSync(file, "check_local = true;\n");
      else fs.rmSync(file, { force: true });
    }
  },
  start(ctx) {
    const base = ctx.layout.rspamd;
    const d = new Daemon(
      "rspamd",
      "rspamd",
      [
        "-f",
        "-c",
        "/etc/rspamd/rspamd.conf",
        "-u",
        "_rspamd",
        "-g",
        "_rspamd",
        `--var=LOCAL_CONFDIR=${path.join(base, "confdir")}`,
        `--var=RUNDIR=${path.join(base, "run")}`,
        `--var=DBDIR=${path.join(base, "db")}`,
        `--var=LOGDIR=${path.join(base, "log")}`,
      ],
      logFile(ctx, "rspamd"),
    );
    return daemonHandle(d);
  },
  ready: async (ctx) =>
    (await httpAnswers(ctx.ports.rspamd_controller, "/ping", /pong/)) &&
    (await connects(ctx.ports.rspamd_milter)) &&
    (await connects(ctx.ports.rspamd_sign)),
};
