// The server's response class (lib/runtime/server.mjs): the same as Node's, except that `flushHeaders()` waits for
// the end of the tick.
import http from "node:http";

/**
 * Next calls `flushHeaders()` just before it writes a response's first body chunk, which sends the headers in a TCP
 * segment of their own: one more write system call per response, and one more wake-up of the client reading it.
 * Node sends headers not yet sent together with the first chunk, so the flush waits for the end of the current tick
 * instead: a write in between (Next's, always) takes the headers along; a caller that flushes and then waits still
 * gets its headers out. `_headerSent` (Node's own field, set once the header bytes are written) rather than
 * `headersSent`, which turns true as soon as the header is composed, before anything is sent.
 */
export class CoalescingResponse extends http.ServerResponse {
  flushHeaders() {
    process.nextTick(() => {
      if (!this._headerSent && !this.destroyed) super.flushHeaders();
    });
  }
}
