import "server-only";
// DKIM per domain: an RSA key generated on `domain add` (and `domain dkim rotate`), kept in dkim_keys; the newest
// signing key of a domain signs. A rotation stages its key (signing 0) until `domain dkim activate` finds it in DNS. Rspamd's dkim_signing reads the keys from files that `mailserver events` writes from the
// table (a selector map and one key file per domain and selector): a new or rotated key takes effect within
// seconds, with no reload (docs/mail-server.md, "DKIM").
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { withTransaction } from "@/db/transaction";
import { dkimKeys, domains, type DkimKeyRow, type DomainRow } from "@/db/schema";
import { checkDnsRecords } from "@/lib/server/resources/dns-records";

/** `mail<YYYYMMDD>`, with a letter added when the domain already has that selector (two rotations a day). */
async function newSelector(db: Db, domainId: number, now: Date): Promise<string> {
  const base = `mail${now.toISOString().slice(0, 10).replace(/-/g, "")}`;
  const taken = new Set(
    (await db.select({ s: dkimKeys.selector }).from(dkimKeys).where(eq(dkimKeys.domainId, domainId))).map((r) => r.s),
  );
  if (!taken.has(base)) return base;
  for (let i = 0; i < 26; i++)
    if (!taken.has(base + String.fromCharCode(97 + i))) return base + String.fromCharCode(97 + i);
  throw new Error("too many DKIM keys today");
}

export interface DkimKeyPair {
  /** PKCS #8 PEM. */
  privateKey: string;
  /** SubjectPublicKeyInfo DER in base64, as the TXT record's p= carries it. */
  publicKey: string;
}

/** A 2048-bit RSA key pair, made on libuv's thread pool: a caller makes it before its transaction, not inside. */
export function newDkimKeyPair(): Promise<DkimKeyPair> {
  return new Promise((resolve, reject) =>
    crypto.generateKeyPair("rsa", { modulusLength: 2048 }, (err, publicKey, privateKey) =>
      err
        ? reject(err)
        : resolve({
            privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
            publicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
          }),
    ),
  );
}

/**
 * A new key for the domain (`pair`, or one made now). It signs from now on (the old row stays for the DNS overlap),
 * or, `staged`, only once activateDkimKey makes it: a rotation publishes the record before anything is signed with it.
 */
export async function generateDkimKey(
  db: Db,
  domain: Pick<DomainRow, "id">,
  now = new Date(),
  pair?: DkimKeyPair,
  staged = false,
): Promise<DkimKeyRow> {
  const { privateKey, publicKey } = pair ?? (await newDkimKeyPair());
  return withTransaction(db, async (tx) => {
    const [row] = await tx
      .insert(dkimKeys)
      .values({
        domainId: domain.id,
        selector: await newSelector(tx, domain.id, now),
        privateKey,
        publicKey,
        createdAt: now.toISOString(),
        signing: staged ? 0 : 1,
      })
      .returning();
    return row!;
  });
}

/** The key that signs the domain's mail: its newest signing key. */
export async function currentDkimKey(db: Db, domainId: number): Promise<DkimKeyRow | undefined> {
  return (
    await db
      .select()
      .from(dkimKeys)
      .where(and(eq(dkimKeys.domainId, domainId), eq(dkimKeys.signing, 1)))
      .orderBy(desc(dkimKeys.id))
      .limit(1)
  )[0];
}

/** A rotation's key waiting for DNS: newer than the signing key and not signing yet. */
export async function stagedDkimKey(db: Db, domainId: number): Promise<DkimKeyRow | undefined> {
  const [newest] = await db
    .select()
    .from(dkimKeys)
    .where(eq(dkimKeys.domainId, domainId))
    .orderBy(desc(dkimKeys.id))
    .limit(1);
  return newest?.signing === 0 ? newest : undefined;
}

/** The staged key signs from now on (the key files follow within seconds: `mailserver events`). */
export async function activateDkimKey(db: Db, key: Pick<DkimKeyRow, "id">): Promise<void> {
  await db.update(dkimKeys).set({ signing: 1 }).where(eq(dkimKeys.id, key.id));
}

export interface DkimRecord {
  selector: string;
  /** The DNS name of the TXT record. */
  name: string;
  /** Its value. */
  value: string;
}

export function dkimRecord(domainName: string, key: Pick<DkimKeyRow, "selector" | "publicKey">): DkimRecord {
  return {
    selector: key.selector,
    name: `${key.selector}._domainkey.${domainName}`,
    value: `v=DKIM1; k=rsa; p=${key.publicKey}`,
  };
}

/**
 * The record as a zone file's line, which DNS providers' bulk imports take: the name absolute (a trailing dot), the
 * value in quoted strings of at most 255 characters (RFC 1035's limit; one string of ~410 failed to load).
 */
export function dkimZoneLine(record: DkimRecord): string {
  const strings = record.value.match(/.{1,255}/g) ?? [""];
  return `${record.name}. TXT ${strings.map((s) => `"${s}"`).join(" ")}`;
}

/**
 * What DNS answers for the record: "published" (p= equal), "different" (a record with another key), "missing", or
 * "error" (the resolver failed), checked as the domain's DNS page checks it. DNS_RESOLVER (comma-separated
 * host[:port]) names the resolver to ask; the system's otherwise.
 */
export async function checkDkimDns(
  record: DkimRecord,
  servers?: string,
): Promise<{ state: "published" | "different" | "missing" | "error"; detail: string }> {
  const [checked] = await checkDnsRecords(
    [{ kind: "dkim", type: "TXT", name: record.name, value: record.value }],
    servers?.split(",").map((s) => s.trim()),
  );
  const { state, found } = checked!;
  return {
    state: state === "present" ? "published" : state,
    detail: state === "present" ? "" : found.join(" | ").slice(0, 300),
  };
}

/** The numeric id of a system group (Rspamd's, which must read the key files). */
function groupId(group: string): number {
  if (/^\d+$/.test(group)) return Number(group);
  const line = execFileSync("getent", ["group", group], { encoding: "utf8" });
  return Number(line.split(":")[2]);
}

/**
 * Moves whenever the current keys may have changed: a new, rotated or deleted key changes the count or the newest
 * id, an activated one the number of signing keys.
 */
async function dkimKeysStamp(db: Db): Promise<string> {
  const [row] = await db
    .select({
      keys: sql<number>`count(*)`,
      newest: sql<number | null>`max(${dkimKeys.id})`,
      signing: sql<number | null>`sum(${dkimKeys.signing})`,
    })
    .from(dkimKeys);
  return `${row?.keys ?? 0}:${row?.newest ?? 0}:${row?.signing ?? 0}`;
}

/**
 * Passes of a service that keeps the key files in step with the database (`mailserver events`, every 5 s on every
 * mail host). A pass reads the keys and writes the files only when dkimKeysStamp moved, and on every `fullEvery`-th
 * pass (a file removed by hand comes back): reading every private key each time cost 17 MB from the database and a
 * third of a second of CPU per pass at 10,000 domains. Passes never overlap. A pass resolves to writeDkimFiles's count,
 * or undefined when it found nothing to do.
 */
export function dkimFileSync(db: Db, dir: string, group?: string, fullEvery = 60): () => Promise<number | undefined> {
  let stamp: string | undefined;
  let unchanged = 0;
  let last: Promise<unknown> = Promise.resolve();
  return () => {
    const pass = last.then(async () => {
      const now = await dkimKeysStamp(db);
      if (now === stamp && ++unchanged % fullEvery !== 0) return undefined;
      const changes = await writeDkimFiles(db, dir, group);
      stamp = now;
      return changes;
    });
    last = pass.catch(() => undefined);
    return pass;
  };
}

/**
 * Writes `<dir>/selectors.map` ("domain selector" per line, the current key of each domain) and
 * `<dir>/keys/<domain>.<selector>.key`; removes key files of keys and domains that are gone. Unchanged files are
 * not rewritten. Returns the number of files written or removed.
 */
export async function writeDkimFiles(db: Db, dir: string, group?: string): Promise<number> {
  const gid = group ? groupId(group) : undefined;
  const keysDir = path.join(dir, "keys");
  fs.mkdirSync(keysDir, { recursive: true, mode: 0o750 });
  if (gid !== undefined) for (const d of [dir, keysDir]) fs.chownSync(d, process.getuid?.() ?? 0, gid);
  const current = await db
    .select({ domain: domains.name, selector: dkimKeys.selector, privateKey: dkimKeys.privateKey })
    .from(dkimKeys)
    .innerJoin(domains, eq(domains.id, dkimKeys.domainId))
    .where(
      sql`${dkimKeys.id} = (SELECT max(k.id) FROM dkim_keys k WHERE k.domain_id = ${dkimKeys.domainId} AND k.signing = 1)`,
    )
    .orderBy(domains.name);
  let changes = 0;
  const write = (file: string, content: string, mode: number) => {
    if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === content) return;
    const tmp = `${file}.tmp${process.pid}`;
    fs.writeFileSync(tmp, content, { mode });
    if (gid !== undefined) fs.chownSync(tmp, process.getuid?.() ?? 0, gid);
    fs.renameSync(tmp, file);
    changes++;
  };
  const wanted = new Set<string>();
  for (const k of current) {
    const file = `${k.domain}.${k.selector}.key`;
    wanted.add(file);
    write(path.join(keysDir, file), k.privateKey, 0o640);
  }
  for (const file of fs.readdirSync(keysDir)) {
    if (!wanted.has(file)) {
      fs.rmSync(path.join(keysDir, file), { force: true });
      changes++;
    }
  }
  // The map last: a selector is announced only once its key file exists.
  write(path.join(dir, "selectors.map"), current.map((k) => `${k.domain} ${k.selector}\n`).join(""), 0o644);
  return changes;
}
