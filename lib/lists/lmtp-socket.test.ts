// The list service's LMTP listener on a unix socket (LISTS_LMTP=/path, docs/lists.md): made 0660, so only the socket
// folder's group (Postfix) can hand mail over, and a socket left by a killed service is taken over, not refused.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it, vi } from "vitest";
import type { ListDistribution } from "./distribution";
import { startListLmtp } from "./lmtp";
import type { ListServiceOptions } from "./options";
import type { ListStore } from "./store";
import type { ListSubscriptions } from "./subscriptions";

vi.mock("server-only", () => ({}));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lists-lmtp-socket-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Connects, reads the greeting, asks RCPT for an address no list has, and returns what the service answered. */
function converse(socketPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = net.connect(socketPath);
    let seen = "";
    let answered = 0;
    const steps = ["LHLO client.test\r\n", "MAIL FROM:<a@b.test>\r\n", "RCPT TO:<nolist@b.test>\r\n", "QUIT\r\n"];
    c.on("data", (d) => {
      seen += d.toString();
      // An answer ends with a line "<code> " (LHLO's others are "<code>-"): each one gets the next command.
      const finals = seen.split("\r\n").filter((line) => /^\d{3} /.test(line)).length;
      while (answered < finals) {
        const next = steps[answered++];
        if (next) c.write(next);
      }
    });
    c.on("close", () => resolve(seen));
    c.on("error", reject);
  });
}

it("listens on a unix socket made 0660, taking over a stale socket file, and answers LMTP there", async () => {
  const socketPath = path.join(dir, "lists-lmtp");
  // A service killed without closing its socket leaves the file behind.
  const child = spawn(process.execPath, [
    "-e",
    `require("net").createServer().listen(${JSON.stringify(socketPath)}, () => console.log("ready"))`,
  ]);
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGKILL");
  await exited;
  expect(fs.lstatSync(socketPath).isSocket()).toBe(true);

  const store = { listByEmail: () => Promise.resolve(undefined) } as unknown as ListStore;
  const o = { lmtp: { path: socketPath }, log: () => {} } as unknown as ListServiceOptions;
  const server = await startListLmtp(o, store, {} as ListDistribution, {} as ListSubscriptions);
  try {
    expect(fs.statSync(socketPath).mode & 0o777).toBe(0o660);
    const answers = await converse(socketPath);
    expect(answers).toMatch(/^220 /);
    expect(answers).toMatch(/^550 5\.1\.1 No such list/m);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
