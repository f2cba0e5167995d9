// The sandbox's loopback DNS resolver: answers from a JSON file a test (or a reviewer) writes, so SPF and RBL
// checks see the records a scenario needs without the Internet. Rspamd and the policy service ask it; every name
// the file does not hold is NXDOMAIN. The file is read again whenever it changes.
//
//   { "outside.test": { "TXT": ["v=spf1 ip4:192.0.2.1 -all"] },
//     "1.0.0.127.rbl.sandbox.test": { "A": ["127.0.0.2"] },
//     "_imaps._tcp.example.test": { "SRV": ["0 1 993 mail.example.test"] } }
// With `--publish-dns` the sandbox first adds the records its hosted domains need (./publish-dns.ts).
import dgram from "node:dgram";
import fs from "node:fs";
import dnsPacket from "dns-packet";

export type DnsRecords = Record<
  string,
  Partial<Record<"A" | "AAAA" | "TXT" | "MX" | "PTR" | "CNAME" | "SRV", string[]>>
>;

export function writeDnsRecords(file: string, records: DnsRecords): void {
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(records, null, 2));
  fs.renameSync(tmp, file);
}

export function readDnsRecords(file: string): DnsRecords {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as DnsRecords;
  } catch {
    return {};
  }
}

const norm = (name: string) => name.toLowerCase().replace(/\.$/, "");

/** The file's records by normalised name, parsed again only when the file changes (a provider's file is megabytes). */
function recordsReader(file: string): () => Map<string, DnsRecords[string]> {
  let version = "";
  let byName = new Map<string, DnsRecords[string]>();
  return () => {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(file);
    } catch {
      stat = undefined;
    }
    const now = stat ? `${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.size}` : "none";
    if (now !== version) {
      byName = new Map(Object.entries(readDnsRecords(file)).map(([n, entry]) => [norm(n), entry]));
      version = now;
    }
    return byName;
  };
}

function answersFor(entry: DnsRecords[string] | undefined, name: string, type: string): dnsPacket.Answer[] {
  if (!entry) return [];
  const values = (entry as Record<string, string[] | undefined>)[type] ?? [];
  return values.map((value): dnsPacket.Answer => {
    switch (type) {
      case "TXT":
        // A TXT string holds at most 255 bytes: longer values (a DKIM key) go out as several strings of one record.
        return { type: "TXT", name, ttl: 1, data: value.match(/[\s\S]{1,255}/g) ?? [""] };
      case "MX": {
        const [pref, exchange] = value.split(/\s+/);
        return { type: "MX", name, ttl: 1, data: { preference: Number(pref), exchange: exchange ?? "" } };
      }
      case "SRV": {
        const [priority, weight, port, target] = value.split(/\s+/);
        return {
          type: "SRV",
          name,
          ttl: 1,
          data: { priority: Number(priority), weight: Number(weight), port: Number(port), target: target ?? "" },
        };
      }
      default:
        return { type: type as "A", name, ttl: 1, data: value };
    }
  });
}

export interface DnsServer {
  port: number;
  close(): Promise<void>;
}

export async function startDnsServer(recordsFile: string, port: number): Promise<DnsServer> {
  const socket = dgram.createSocket("udp4");
  const records = recordsReader(recordsFile);
  socket.on("message", (msg, rinfo) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    const entry = question ? records().get(norm(question.name)) : undefined;
    const answers = question ? answersFor(entry, question.name, question.type) : [];
    const known = entry !== undefined;
    const reply = dnsPacket.encode({
      type: "response",
      id: query.id,
      // RD copied, RA set, AA set; NXDOMAIN (rcode 3) for names the file does not hold.
      flags: (query.flags ?? 0) | dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | (known ? 0 : 3),
      questions: query.questions,
      answers,
    });
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve, reject) => socket.once("error", reject).bind(port, "127.0.0.1", () => resolve()));
  return {
    port: socket.address().port,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
