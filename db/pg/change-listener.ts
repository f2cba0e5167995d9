// What lets a process reuse rows it read from PostgreSQL (db/dialect.ts `changeStamp`): one connection per pool
// LISTENs on data_changed (announced after every commit that changes accounts, domains or login_throttle: the
// notify_data_changed triggers), and the stamp moves with every announcement and with every commit made by this
// process. While the listening connection is not up (starting, lost), there is no stamp and nothing is reused.
import pg from "pg";

interface Listener {
  up: boolean;
  session: number;
  changes: number;
  /** When a lost or refused connection may be tried again (ms since the epoch), so a refusal is not retried per request. */
  retryAt: number;
  stop(): void;
}

const RETRY_MS = 1000;
const listeners = new WeakMap<pg.Pool, Listener>();
const ended = new WeakSet<pg.Pool>();
let sessions = 0;

function listen(pool: pg.Pool, listener: Listener) {
  // The pool's own settings (its size among them, which a client ignores).
  const client = new pg.Client((pool as unknown as { options: pg.ClientConfig }).options);
  let stopped = false;
  const down = () => {
    if (stopped) return;
    stopped = true;
    listener.up = false;
    listener.retryAt = Date.now() + RETRY_MS;
    client.end().catch(() => {});
  };
  listener.stop = down;
  client.on("error", down);
  client.on("end", down);
  client.on("notification", () => {
    listener.changes += 1;
  });
  client
    .connect()
    .then(() => client.query("LISTEN data_changed"))
    .then(() => {
      if (stopped) return;
      // A new session: announcements missed while no connection listened must not leave an old stamp valid.
      listener.session = ++sessions;
      listener.up = true;
    })
    .catch(down);
}

/** A stamp that moves whenever accounts, domains or login_throttle may have changed; null while changes cannot be followed. */
export function changeStampOf(pool: pg.Pool): string | null {
  if (ended.has(pool)) return null;
  let listener = listeners.get(pool);
  if (!listener) {
    listener = { up: false, session: 0, changes: 0, retryAt: 0, stop: () => {} };
    listeners.set(pool, listener);
    // The listening connection ends with its pool, so it does not keep a finishing process (a CLI run, a test) alive.
    const end = pool.end.bind(pool);
    pool.end = ((...args: Parameters<pg.Pool["end"]>) => {
      ended.add(pool);
      listeners.get(pool)?.stop();
      return end(...args);
    }) as pg.Pool["end"];
    listen(pool, listener);
  } else if (!listener.up && listener.retryAt > 0 && Date.now() >= listener.retryAt) {
    listener.retryAt = 0;
    listen(pool, listener);
  }
  return listener.up ? `${listener.session}:${listener.changes}` : null;
}

/** Called after this process commits: its own change must not wait for the announcement to come back. */
export function noteOwnCommit(pool: pg.Pool): void {
  const listener = listeners.get(pool);
  if (listener) listener.changes += 1;
}
