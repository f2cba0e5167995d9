// Mail clients that set themselves up, over real HTTP against the production server, with names resolved by the
// sandbox's DNS server (`mailserver sandbox --only dns --publish-dns`, which publishes what the domain's DNS page
// asks for): Thunderbird's autoconfig followed in Thunderbird's documented lookup order, Outlook's POX
// autodiscover, the account's Apple profile (parsed by python3's plistlib), and `domain dns-check` on the same DNS.
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { Resolver } from "node:dns/promises";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readDnsRecords, writeDnsRecords } from "@/lib/mailserver/sandbox/dns-server";
import { sandboxCliArgs } from "../support/sandbox-cli";
import { createAccount, sha1Hex } from "./client";
import { parseAutoconfig, parseAutodiscover } from "./client-setup-parse";
import { CLIENT_HOSTS } from "./fixtures";

const ROOT = path.resolve(import.meta.dirname, "../..");
const D = "setup.example.com";
const ADDRESS = `jan@${D}`;
const PASSWORD = "Jan-setup-1";
const origin = () => new URL(inject("mainBase")).origin;
const serverPort = () => Number(new URL(inject("mainBase")).port);

let sandbox: ChildProcess;
let dnsServer: string;
let recordsFile: string;
let dir: string;

/** The CLI runs' environment: the main database (on PostgreSQL DATABASE_URL names it) and the server's hosts. */
const cliEnv = (): NodeJS.ProcessEnv => ({ ...process.env, ...CLIENT_HOSTS, DATABASE_PATH: inject("mainDbPath") });

beforeAll(async () => {
  await createAccount(D, "jan", { password: PASSWORD });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-client-setup-"));
  fs.chmodSync(dir, 0o755);
  sandbox = spawn(process.execPath, sandboxCliArgs(path.join(dir, "sandbox"), "--only", "dns", "--publish-dns"), {
    cwd: ROOT,
    env: cliEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  sandbox.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: sandbox.stdout! }).once("line", resolve);
    sandbox.once("exit", (code) => reject(new Error(`the sandbox exited (${code}): ${stderr}`)));
  });
  const info = JSON.parse(line) as { dns: number; dns_records: string };
  dnsServer = `127.0.0.1:${info.dns}`;
  recordsFile = info.dns_records;
}, 60_000);

afterAll(async () => {
  if (sandbox && sandbox.exitCode === null) {
    const exited = new Promise((r) => sandbox.once("exit", r));
    sandbox.kill("SIGTERM");
    await exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Changes the sandbox's published records (its DNS server reads the file at every query). */
function editDns(change: (records: ReturnType<typeof readDnsRecords>) => void) {
  const records = readDnsRecords(recordsFile);
  change(records);
  writeDnsRecords(recordsFile, records);
}

/** A host name to an IPv4 address the way a client's resolver does it: CNAMEs followed, then A. */
async function resolveHost(name: string): Promise<string | undefined> {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([dnsServer]);
  let host = name;
  for (let i = 0; i < 8; i++) {
    const cname = await resolver.resolveCname(host).catch(() => [] as string[]);
    if (!cname.length) break;
    host = cname[0]!;
  }
  return (await resolver.resolve4(host).catch(() => [] as string[]))[0];
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request to the address the name resolves to (on the test server's port: TLS is the reverse proxy's), with the name as Host. */
function request(
  address: string,
  host: string,
  method: string,
  target: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: address, port: serverPort(), method, path: target, headers: { host, ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Thunderbird's lookup order for an address (https://wiki.mozilla.org/Thunderbird:Autoconfiguration, "Mechanisms";
 * mail/components/accountcreation/FetchConfig): the ISP's own server first, as autoconfig.<domain>, then the
 * domain's .well-known URL; only when neither gives a document the ISPDB of Mozilla, then the MX. Each candidate
 * whose host does not resolve, or that answers anything but a document, is passed over.
 */
async function thunderbirdLookup(address: string): Promise<{ tried: string[]; config?: string; from?: string }> {
  const domain = address.split("@")[1]!;
  const q = `emailaddress=${encodeURIComponent(address)}`;
  const candidates = [
    { host: `autoconfig.${domain}`, target: `/mail/config-v1.1.xml?${q}` },
    { host: domain, target: `/.well-known/autoconfig/mail/config-v1.1.xml?${q}` },
  ];
  const tried: string[] = [];
  for (const c of candidates) {
    const url = `http://${c.host}${c.target}`;
    tried.push(url);
    const ip = await resolveHost(c.host);
    if (!ip) continue;
    const res = await request(ip, c.host, "GET", c.target);
    if (res.status === 200 && /xml/.test(String(res.headers["content-type"])))
      return { tried, config: res.body, from: url };
  }
  tried.push(`https://autoconfig.thunderbird.net/v1.1/${domain}`);
  return { tried };
}

const EXPECTED_AUTOCONFIG = {
  version: "1.1",
  id: D,
  domain: [D],
  displayName: D,
  incoming: [
    {
      type: "imap",
      hostname: CLIENT_HOSTS.IMAP_HOST,
      port: "993",
      socketType: "SSL",
      authentication: "password-cleartext",
      username: "%EMAILADDRESS%",
    },
    {
      type: "pop3",
      hostname: CLIENT_HOSTS.POP3_HOST,
      port: "995",
      socketType: "SSL",
      authentication: "password-cleartext",
      username: "%EMAILADDRESS%",
    },
  ],
  outgoing: [
    {
      type: "smtp",
      hostname: CLIENT_HOSTS.SUBMISSION_HOST,
      port: "587",
      socketType: "STARTTLS",
      authentication: "password-cleartext",
      username: "%EMAILADDRESS%",
    },
  ],
};

describe("Thunderbird's autoconfig", () => {
  it("is found at the first place Thunderbird looks, autoconfig.<domain>, through the published CNAME", async () => {
    const result = await thunderbirdLookup(ADDRESS);
    expect(result.tried).toEqual([`http://autoconfig.${D}/mail/config-v1.1.xml?emailaddress=jan%40${D}`]);
    expect(parseAutoconfig(result.config!)).toEqual(EXPECTED_AUTOCONFIG);
  });

  it("without the autoconfig name in DNS, Thunderbird's next place, the domain's .well-known URL, serves it", async () => {
    editDns((r) => {
      delete r[`autoconfig.${D}`];
      r[D] = { ...r[D], A: ["127.0.0.1"] };
    });
    const result = await thunderbirdLookup(ADDRESS);
    expect(result.from).toBe(`http://${D}/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress=jan%40${D}`);
    expect(result.tried).toHaveLength(2);
    expect(parseAutoconfig(result.config!)).toEqual(EXPECTED_AUTOCONFIG);
  });

  it("a domain not hosted here gets 404 at both places, so Thunderbird goes on to the ISPDB", async () => {
    editDns((r) => {
      r["autoconfig.stranger.test"] = { CNAME: [CLIENT_HOSTS.WEB_HOST] };
      r["stranger.test"] = { A: ["127.0.0.1"] };
    });
    const result = await thunderbirdLookup("ola@stranger.test");
    expect(result.config).toBeUndefined();
    expect(result.tried).toEqual([
      "http://autoconfig.stranger.test/mail/config-v1.1.xml?emailaddress=ola%40stranger.test",
      "http://stranger.test/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress=ola%40stranger.test",
      "https://autoconfig.thunderbird.net/v1.1/stranger.test",
    ]);
    // Without the address, the host name says the domain.
    const bare = await request("127.0.0.1", `autoconfig.${D}`, "GET", "/mail/config-v1.1.xml");
    expect(bare.status).toBe(200);
    expect(parseAutoconfig(bare.body).id).toBe(D);
  });
});

const autodiscoverRequest = (
  email: string,
  schema = "http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a",
) =>
  `<?xml version="1.0" encoding="utf-8"?>
<Autodiscover xmlns="http://schemas.microsoft.com/exchange/autodiscover/outlook/requestschema/2006">
  <Request>
    <EMailAddress>${email}</EMailAddress>
    <AcceptableResponseSchema>${schema}</AcceptableResponseSchema>
  </Request>
</Autodiscover>`;

describe("Outlook's autodiscover (POX)", () => {
  it("answers the POST at autodiscover.<domain> with the IMAP, POP3 and SMTP settings, under both spellings of the path", async () => {
    const ip = await resolveHost(`autodiscover.${D}`);
    expect(ip).toBe("127.0.0.1");
    const protocol = (type: string, server: string, port: string, encryption: string) => ({
      Type: type,
      Server: server,
      Port: port,
      LoginName: ADDRESS,
      SSL: "on",
      Encryption: encryption,
      SPA: "off",
      AuthRequired: "on",
      DomainRequired: "off",
    });
    for (const target of ["/autodiscover/autodiscover.xml", "/Autodiscover/Autodiscover.xml"]) {
      const res = await request(ip!, `autodiscover.${D}`, "POST", target, autodiscoverRequest(ADDRESS), {
        "content-type": "text/xml",
      });
      expect(res.status, target).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^application\/xml/);
      expect(parseAutodiscover(res.body)).toEqual({
        user: ADDRESS,
        type: "email",
        action: "settings",
        protocols: [
          protocol("IMAP", CLIENT_HOSTS.IMAP_HOST, "993", "SSL"),
          protocol("POP3", CLIENT_HOSTS.POP3_HOST, "995", "SSL"),
          protocol("SMTP", CLIENT_HOSTS.SUBMISSION_HOST, "587", "TLS"),
        ],
      });
    }
  });

  it("answers errors in the POX form: 600 for a request that is not one, 601 for another schema, 404 for a foreign domain", async () => {
    const post = (body: string) =>
      request("127.0.0.1", `autodiscover.${D}`, "POST", "/autodiscover/autodiscover.xml", body);
    const garbage = await post("<not-autodiscover");
    expect(garbage.status).toBe(400);
    expect(parseAutodiscover(garbage.body)).toEqual({ error: "600" });
    const otherSchema = await post(
      autodiscoverRequest(ADDRESS, "http://schemas.microsoft.com/exchange/autodiscover/mobilesync/responseschema/2006"),
    );
    expect(parseAutodiscover(otherSchema.body)).toEqual({ error: "601" });
    const foreign = await post(autodiscoverRequest("ola@stranger.test"));
    expect(foreign.status).toBe(404);
    expect(parseAutodiscover(foreign.body)).toEqual({ error: "600" });
    expect((await request("127.0.0.1", `autodiscover.${D}`, "GET", "/autodiscover/autodiscover.xml")).status).toBe(405);
  });
});

describe("the Apple configuration profile", () => {
  it("is the signed-in account's IMAP and SMTP settings, unsigned, with no password, parsed by plistlib", async () => {
    const signIn = await fetch(`${origin()}/api/panel/session`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: origin() },
      body: JSON.stringify({ email: ADDRESS, digest: sha1Hex(PASSWORD) }),
    });
    expect(signIn.status).toBe(200);
    const cookie = /^[^;]+/.exec(signIn.headers.get("set-cookie") ?? "")![0];
    const res = await fetch(`${origin()}/api/panel/mail/mobileconfig`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-apple-aspen-config");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${ADDRESS}.mobileconfig"`);
    const body = await res.text();
    expect(body).not.toContain(PASSWORD);
    expect(body).not.toContain(sha1Hex(PASSWORD));
    const script = `
import json, plistlib, sys
p = plistlib.loads(sys.stdin.buffer.read())
print(json.dumps(p))`;
    const profile = JSON.parse(execFileSync("python3", ["-c", script], { input: body, encoding: "utf8" })) as Record<
      string,
      unknown
    >;
    expect(profile).toMatchObject({ PayloadType: "Configuration", PayloadVersion: 1 });
    const [account, ...rest] = profile.PayloadContent as Record<string, unknown>[];
    expect(rest).toEqual([]);
    expect(account).toMatchObject({
      PayloadType: "com.apple.mail.managed",
      EmailAccountType: "EmailTypeIMAP",
      EmailAddress: ADDRESS,
      IncomingMailServerHostName: CLIENT_HOSTS.IMAP_HOST,
      IncomingMailServerPortNumber: 993,
      IncomingMailServerUseSSL: true,
      IncomingMailServerUsername: ADDRESS,
      IncomingMailServerAuthentication: "EmailAuthPassword",
      OutgoingMailServerHostName: CLIENT_HOSTS.SUBMISSION_HOST,
      OutgoingMailServerPortNumber: 587,
      OutgoingMailServerUsername: ADDRESS,
      OutgoingMailServerAuthentication: "EmailAuthPassword",
    });
    // The profile's documented password keys are absent: the device asks for it.
    expect(
      Object.keys(account!).filter((k) => /Password$/.test(k) && k !== "OutgoingPasswordSameAsIncomingPassword"),
    ).toEqual([]);
    expect(String(account!.PayloadUUID)).toMatch(
      /^[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/,
    );
    // Signed in or nothing.
    expect((await fetch(`${origin()}/api/panel/mail/mobileconfig`)).status).toBe(401);
  });
});

describe("domain dns-check (CLI)", () => {
  const dnsCheck = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", "domain", "dns-check", D, ...args],
        { cwd: ROOT, env: { ...cliEnv(), DNS_RESOLVER: dnsServer } },
        (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr }),
      );
    });

  it("exits 0 when every record is published, 1 naming a missing and a different one, with what DNS holds", async () => {
    editDns((r) => (r[`autoconfig.${D}`] = { CNAME: [CLIENT_HOSTS.WEB_HOST] }));
    const good = await dnsCheck();
    expect(good.stderr).toBe("");
    expect(good.code).toBe(0);
    const lines = good.stdout.trim().split("\n");
    expect(lines.length).toBe(10);
    expect(lines.every((l) => l.startsWith("present "))).toBe(true);
    expect(lines[0]).toBe(`present   MX    ${D} 10 ${CLIENT_HOSTS.MAIL_HOST}`);

    editDns((r) => {
      delete r[`_dmarc.${D}`];
      r[D] = { ...r[D], MX: ["10 mx.elsewhere.test"] };
    });
    const bad = await dnsCheck();
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe(`error: 2 of 10 DNS records of ${D} are not as needed`);
    expect(bad.stdout).toContain(`missing   TXT   _dmarc.${D} "v=DMARC1; p=quarantine; rua=mailto:postmaster@${D}"`);
    expect(bad.stdout).toContain(
      `different MX    ${D} 10 ${CLIENT_HOSTS.MAIL_HOST}\n          found: 10 mx.elsewhere.test`,
    );
    const json = JSON.parse((await dnsCheck("--json")).stdout) as {
      ok: boolean;
      records: { kind: string; state: string; found: string[] }[];
    };
    expect(json.ok).toBe(false);
    expect(json.records.filter((r) => r.state !== "present").map((r) => [r.kind, r.state, r.found])).toEqual([
      ["mx", "different", ["10 mx.elsewhere.test"]],
      ["dmarc", "missing", []],
    ]);
  });
});
