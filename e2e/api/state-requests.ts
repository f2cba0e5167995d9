// Raw requests the state tests send to a server on a given port: an endless body, a hang-up mid-body, a lone GET.
import http from "node:http";
import net from "node:net";

/** Sends a 256 MB chunked body and reports whether the answer came before the body was sent in full. */
export function hugeBody(port: number, method: string, pathname: string, headers: Record<string, string>) {
  const total = 256 * 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  return new Promise<{ status: number; body: string; sent: number; total: number }>((resolve, reject) => {
    let sent = 0;
    const req = http.request({
      host: "127.0.0.1",
      port,
      path: pathname,
      method,
      headers: { "content-type": "application/json", ...headers },
    });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => {
        resolve({ status: res.statusCode!, body, sent, total });
        req.destroy();
      });
    });
    req.on("error", reject);
    req.write('{"email":"');
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

/** A PUT that declares 1,000 bytes of body, sends 8, waits 300 ms and closes the connection. */
export function hangUpMidBody(port: number, pathname: string, authorization: string) {
  return new Promise<void>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(
        `PUT ${pathname} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${authorization}\r\n` +
          `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"descri`,
      );
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 300);
    });
    socket.on("error", reject);
  });
}

/** One request on a connection of its own (a kept-alive one might lead to the killed worker). */
export function getOnce(port: number, pathname: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: pathname, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject);
    req.setTimeout(5000, () => req.destroy(new Error("no answer within 5 s")));
  });
}
