// What a sandbox component is (see components.ts for the list) and the helpers the components share.
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Daemon } from "./processes";
import type { SandboxContext } from "./sandbox";

export interface Running {
  stop(): Promise<void>;
  /** Why it cannot become ready (it exited), checked while waiting. */
  failed?(): string | undefined;
}

export interface SandboxComponent {
  name: string;
  packages: string[];
  files?(ctx: SandboxContext): void;
  start(ctx: SandboxContext): Running | Promise<Running>;
  ready(ctx: SandboxContext): Promise<boolean>;
  /**
   * Components it cannot become ready without, each with the reason (`--only` refuses to start it alone): the
   * sandbox's Postfix never greets on the submission port without Dovecot's SASL.
   */
  needs?: Record<string, string>;
  /** How long `ready` may take (default 30 s). */
  readyTimeoutMs?: number;
}

export const userId = (name: string) => Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
export const groupId = (name: string) =>
  Number(execFileSync("getent", ["group", name], { encoding: "utf8" }).split(":")[2]);
export const logFile = (ctx: SandboxContext, name: string) => path.join(ctx.layout.logs, `${name}.log`);

/** A foreground daemon as a component's running handle. */
export function daemonHandle(d: Daemon, stop?: () => Promise<void>): Running {
  return {
    stop: stop ?? (() => d.stop()),
    failed: () => (d.running ? undefined : `exited (${d.exitCode}): ${d.tail()}`),
  };
}

export const inProcess = (close: () => Promise<void>): Running => ({ stop: close });
