import "server-only";
// A PUT of a list's `accounts` (up to 100,000 addresses) without holding the worker's event loop, and
// so every other request of the process, for the whole of it. better-sqlite3 and the checks are synchronous, so
// the work is cut into slices of a few milliseconds with a turn of the event loop between them:
//
//   1. the addresses are checked in slices (`checkedAddresses`, the rules of `addressList`);
//   2. the current members are read in pages in their order (index `list_members_order`), outside
//      any transaction, with the list's member version (`list_member_versions`, kept by triggers) read first;
//   3. the difference is worked out in slices (`planMembers`);
//   4. one short write transaction checks that the version is still the one read (nobody changed the members
//      meanwhile, in this process or another) and writes only the difference. If it moved, the plan is made again.
//
// So the write lock is held for milliseconds (other processes' writers do not wait in busy_timeout behind it),
// nothing partial is ever visible, and a failed PUT leaves the list as it was (bench/list-put.ts measures it). The
// nesting check of the added addresses (list-nesting.ts), which may read many rows, runs between steps 3 and 4,
// outside the transaction.
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
import { addressEntryOk, isEmail } from "@/lib/schemas/common";
import { listMemberStatements } from "../store/list-members";

/** Longest stretch of work between two turns of the event loop. */
const SLICE_MS = 3;
/** Members read per page. */
const PAGE = 2000;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A clock of the current slice: `due()` says when to give the event loop a turn. */
function slicer() {
  let started = performance.now();
  let n = 0;
  return {
    async pause(): Promise<void> {
      if ((++n & 127) !== 0 || performance.now() - started < SLICE_MS) return;
      await turn();
      started = performance.now();
    },
    async now(): Promise<void> {
      await turn();
      started = performance.now();
    },
  };
}

/**
 * The entries of a list of addresses, trimmed and lowercased, checked in slices by the rules of `addressList`
 * (lib/schemas/common.ts); `undefined` when the value breaks any of them (not an array of strings, too long, a bad
 * entry, a duplicate): the caller then lets the schema itself say what is wrong, with its exact error.
 */
export async function checkedAddresses(value: unknown, max: number): Promise<string[] | undefined> {
  if (!Array.isArray(value) || value.length > max) return undefined;
  const out = new Array<string>(value.length);
  const seen = new Set<string>();
  const clock = slicer();
  for (let i = 0; i < value.length; i++) {
    const x: unknown = value[i];
    if (typeof x !== "string") return undefined;
    const s = x.trim().toLowerCase();
    if (!addressEntryOk(s, isEmail) || seen.has(s)) return undefined;
    seen.add(s);
    out[i] = s;
    await clock.pause();
  }
  return out;
}

/** The list's member version: moves with every insert, update and delete of its members (triggers list_members_version_*). */
export const memberVersion = async (db: Db, listId: number) => (await listMemberStatements(db).version(listId)) ?? 0;

/** What a PUT of `accounts` changes in one list, worked out against the members as of `version`. */
export interface MemberPlan {
  listId: number;
  version: number;
  /** Members to delete, in their order. */
  removed: string[];
  /** Members to insert, in the order of the PUT, from position `next` on. */
  added: string[];
  next: number;
  oldCount: number;
  /** The PUT names the same addresses in the same order as the list has (nothing to write or log). */
  same: boolean;
  /** The subscribers after the write, in their order (the answer's `accounts`). */
  after: string[];
}

/** Reads the list's subscribers in pages and works out the difference to `wanted`, in slices (no transaction). */
export async function planMembers(db: Db, listId: number, wanted: string[]): Promise<MemberPlan> {
  const st = listMemberStatements(db);
  const clock = slicer();
  const version = await memberVersion(db, listId);
  const old: string[] = [];
  let next = 0;
  let lastPosition = -1;
  let lastAddress = "";
  for (;;) {
    const rows = await st.subscriberPage(listId, lastPosition, lastAddress, PAGE);
    for (const row of rows) old.push(row[0]);
    if (rows.length > 0) [lastAddress, lastPosition] = rows[rows.length - 1]!;
    if (rows.length < PAGE) break;
    await clock.now();
  }
  if (old.length > 0) next = lastPosition + 1;

  // Left in `missing`: the addresses of the PUT that are not members yet.
  const missing = new Set<string>(wanted);
  const removed: string[] = [];
  const after: string[] = [];
  let same = old.length === wanted.length;
  for (let i = 0; i < old.length; i++) {
    const a = old[i]!;
    if (missing.delete(a)) after.push(a);
    else removed.push(a);
    if (same && wanted[i] !== a) same = false;
    await clock.pause();
  }
  const added: string[] = [];
  for (const a of wanted) {
    if (missing.has(a)) {
      added.push(a);
      after.push(a);
    }
    await clock.pause();
  }
  return { listId, version, removed, added, next, oldCount: old.length, same, after };
}

/**
 * Removing members compares them with the list's rows; PostgreSQL's statistics lag behind a list filled moments ago
 * (autovacuum analyzes about a minute later), and with them it compared every removed address with every member in
 * a nested loop: replacing 50,000 just-added subscribers took 95 s, the domain locked throughout. Past this many
 * comparisons the statistics are refreshed first (ANALYZE, about 0.2 s), outside the write transaction.
 */
const STALE_PLAN_COMPARISONS = 10_000_000;

/** Before `applyPlan` of these plans: the planner's statistics of the members refreshed when a stale plan would cost. */
export async function prepareRemovals(db: Db, plans: MemberPlan[]): Promise<void> {
  if (plans.some((p) => p.removed.length * p.oldCount >= STALE_PLAN_COMPARISONS))
    await dialectOf(db).analyze(db, "list_members");
}

/** Writes a plan (inside the caller's write transaction, after checking `memberVersion`). */
export async function applyPlan(db: Db, plan: MemberPlan): Promise<void> {
  const st = listMemberStatements(db);
  await st.removeAll(plan.listId, "subscriber", plan.removed);
  await st.addAll(plan.listId, "subscriber", plan.added, plan.next);
}

/**
 * Runs PUTs of lists' members of one domain one after another in this process: two PUTs of the same list at once
 * would each plan against the members before the other's write and one of them would have to plan again, and
 * several at once would each take slices between the process's other requests.
 */
const queues = new Map<number, Promise<unknown>>();
export function oneAtATime<T>(key: number, fn: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.catch(() => {});
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}
