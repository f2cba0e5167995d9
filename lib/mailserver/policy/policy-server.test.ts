// The policy service's framing over real TCP: requests answered in order, also when split anywhere, and a
// connection that sends more than a request can hold without ending it is dropped; an IPv4-mapped client address
// reaches the rules as IPv4.
import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { END_OF_DATA_REQUEST } from "../antispam-config";
import { MAX_POLICY_REQUEST, startPolicyServer, type PolicyServer } from "./policy-server";

let server: PolicyServer;

beforeAll(async () => {
  server = await startPolicyServer(
    (req) => Promise.resolve({ action: `DUNNO ${req.recipient ?? req.client_address}`, rule: "none" as const }),
    { host: "127.0.0.1", port: 0 },
  );
});
afterAll(() => server.close());

function connect(): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(server.port, "127.0.0.1", () => resolve(s));
    s.once("error", reject);
  });
}

it("answers requests in order, also when a request and its blank line are split across chunks", async () => {
  const s = await connect();
  let answers = "";
  const two = new Promise<void>((resolve) =>
    s.on("data", (d) => {
      answers += d.toString();
      if (answers.split("\n\n").length > 2) resolve();
    }),
  );
  s.write("request=smtpd_access_policy\nrecipient=a@x.test\n");
  s.write("\nrequest=smtpd_access_policy\nrecipient=zażółć@x.test\n\n".slice(0, 20));
  s.write("\nrequest=smtpd_access_policy\nrecipient=zażółć@x.test\n\n".slice(20));
  await two;
  expect(answers).toBe("action=DUNNO a@x.test\n\naction=DUNNO zażółć@x.test\n\n");
  s.destroy();
});

it("drops a connection that sends more than a request can hold without a blank line, and answers others", async () => {
  const s = await connect();
  const closed = new Promise<void>((resolve) => s.on("close", () => resolve()));
  s.on("error", () => {});
  const line = `x=${"a".repeat(1000)}\n`;
  // 48 MB were buffered and rescanned before; the service must give up after a few kB.
  for (let sent = 0; sent < 16 * MAX_POLICY_REQUEST && !s.destroyed; sent += line.length) s.write(line);
  await closed;

  const other = await connect();
  const answer = new Promise<string>((resolve) => other.once("data", (d) => resolve(d.toString())));
  other.write("request=smtpd_access_policy\nrecipient=b@x.test\n\n");
  expect(await answer).toBe("action=DUNNO b@x.test\n\n");
  other.destroy();
});

it("closes a connection idle past its idle time (330 s by default), counted from the last answer", async () => {
  const idleMs = 300;
  const quick = await startPolicyServer(
    (req) => Promise.resolve({ action: `DUNNO ${req.recipient}`, rule: "none" as const }),
    { host: "127.0.0.1", port: 0 },
    undefined,
    idleMs,
  );
  try {
    const s = await new Promise<net.Socket>((resolve, reject) => {
      const c = net.connect(quick.port, "127.0.0.1", () => resolve(c));
      c.once("error", reject);
    });
    const closed = new Promise<number>((resolve) => s.on("close", () => resolve(performance.now())));
    const answered = new Promise<number>((resolve) => s.once("data", () => resolve(performance.now())));
    s.write("request=smtpd_access_policy\nrecipient=c@x.test\n\n");
    const answeredAt = await answered;
    // Kept forever before: Postfix's lost connections piled up for the life of the service.
    const closedAt = await closed;
    expect(closedAt - answeredAt).toBeGreaterThanOrEqual(idleMs - 20);
  } finally {
    await quick.close();
  }
});

it("hands the rules an IPv4-mapped client address (dotted or hex) as IPv4", async () => {
  const s = await connect();
  let answers = "";
  const all = new Promise<void>((resolve) =>
    s.on("data", (d) => {
      answers += d.toString();
      if (answers.split("\n\n").length > 3) resolve();
    }),
  );
  for (const client of ["::ffff:192.0.2.1", "::ffff:c000:0202", "2001:db8::3"])
    s.write(`request=smtpd_access_policy\nclient_address=${client}\n\n`);
  await all;
  expect(answers).toBe("action=DUNNO 192.0.2.1\n\naction=DUNNO 192.0.2.2\n\naction=DUNNO 2001:db8::3\n\n");
  s.destroy();
});

it("a rule that fails answers DUNNO (fail open), but a signed-in sender's end-of-DATA question waits (DEFER)", async () => {
  const failing = await startPolicyServer(() => Promise.reject(new Error("database away")), {
    host: "127.0.0.1",
    port: 0,
  });
  try {
    const ask = async (request: string) => {
      const s = net.connect(failing.port, "127.0.0.1");
      const answer = new Promise<string>((resolve) => s.once("data", (d) => resolve(d.toString())));
      s.write(request);
      const text = await answer;
      s.destroy();
      return text;
    };
    expect(await ask("request=smtpd_access_policy\nrecipient=a@x.test\nsasl_username=jan@x.test\n\n")).toBe(
      "action=DUNNO\n\n",
    );
    expect(await ask(`request=${END_OF_DATA_REQUEST}\nrecipients=a@x.test\nuser=\n\n`)).toBe("action=DUNNO\n\n");
    expect(await ask(`request=${END_OF_DATA_REQUEST}\nrecipients=a@x.test\nuser=jan@x.test\n\n`)).toMatch(
      /^action=DEFER_IF_PERMIT 4\.7\.1 /,
    );
  } finally {
    await failing.close();
  }
});
