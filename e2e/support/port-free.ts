// A test server's port must be free before the server is started: a readiness poll cannot tell its own server from
// one another run left on the port, and would then test that one.
import net from "node:net";

/** Resolves when nothing listens on 127.0.0.1:`port`; otherwise fails naming the port and `howToMove`. */
export function assertPortFree(port: number, howToMove: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          err.code === "EADDRINUSE"
            ? `port ${port} is already in use (another test run's server?): stop it, or ${howToMove}`
            : `port ${port}: ${err.message}`,
        ),
      ),
    );
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
  });
}
