// Test support: a loopback DNS server (UDP, RFC 1035 wire format) answering TXT questions from a table the test
// fills, NXDOMAIN for the rest: the stand-in for the Internet's DNS when the panel asks whether a record is published.
import dgram from "node:dgram";

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = offset;
  while (msg[i]! > 0) {
    labels.push(msg.subarray(i + 1, i + 1 + msg[i]!).toString("ascii"));
    i += msg[i]! + 1;
  }
  return { name: labels.join(".").toLowerCase(), end: i + 1 };
}

function txtRdata(value: string): Buffer {
  const chunks: Buffer[] = [];
  const bytes = Buffer.from(value, "utf8");
  for (let i = 0; i < bytes.length; i += 255) {
    const part = bytes.subarray(i, i + 255);
    chunks.push(Buffer.from([part.length]), part);
  }
  return Buffer.concat(chunks);
}

export async function startDnsStandIn() {
  const txt = new Map<string, string[]>();
  const socket = dgram.createSocket("udp4");
  socket.on("message", (msg, rinfo) => {
    const id = msg.subarray(0, 2);
    const { name, end } = readName(msg, 12);
    const qtype = msg.readUInt16BE(end);
    const question = msg.subarray(12, end + 4);
    const values = qtype === 16 ? txt.get(name) ?? [] : [];
    const known = txt.has(name);
    const header = Buffer.alloc(12);
    id.copy(header, 0);
    header.writeUInt16BE(0x8180 | (known ? 0 : 3), 2); // response, RD+RA; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(values.length, 6);
    const answers = values.map((v) => {
      const rdata = txtRdata(v);
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // pointer to the question's name
      rr.writeUInt16BE(16, 2);
      rr.writeUInt16BE(1, 4);
      rr.writeUInt32BE(60, 6);
      rr.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([rr, rdata]);
    });
    socket.send(Buffer.concat([header, question, ...answers]), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const port = (socket.address()).port;
  return { server: `127.0.0.1:${port}`, txt, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}
