// The queue's rule for a block, on a database without the daemons: a notification queued before its account was
// blocked is not sent once it is. The delivery of a blocked account's mail (queued as skipped) is tested in real mail
// in lib/mailserver/delivery.test.ts.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { sqliteDialect } from "@/db/sqlite/dialect";
import { withTransaction } from "@/db/transaction";
import { accounts, smsQueue } from "@/db/schema";
import { createAccount } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { addDomain } from "@/lib/server/resources/new-domain";
import { smsConfig } from "./config";
import { BLOCKED_SKIP, enqueueNewMail, isNotification, processSmsQueue } from "./queue";

vi.mock("server-only", () => ({}));

let dir: string;
let db: Db;

beforeAll(async () => {
  Object.assign(process.env, { SCRYPT_COST: "1024" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-sms-queue-"));
  db = openDatabase(path.join(dir, "mail.db"));
  await addDomain(db, "q.test", "Admin-pass1", {});
});
afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("SMS queue and a block", () => {
  it("a notification queued before the account was blocked is skipped, not sent, once it is", async () => {
    const account = await createAccount(db, await getDomainOrThrow(db, "q.test"), "ala", {
      password: "Secret-123",
      sms_phone_number_1: "ala-sms@outside.test",
      sms_send_to: 1,
    });
    const [queued] = await enqueueNewMail(db, smsConfig(), account, { subject: "Temat", body: "" });
    expect(queued!.status).toBe("pending");
    await db.update(accounts).set({ blocked: 1 }).where(eq(accounts.id, account.id));
    // Port 1 refuses: had the worker tried to send, the row would stay pending with the connection's error.
    await processSmsQueue(db, smsConfig(), { smtp: { host: "127.0.0.1", port: 1 } });
    const [row] = await db.select().from(smsQueue).where(eq(smsQueue.id, queued!.id));
    expect(row).toMatchObject({ status: "skipped", lastError: BLOCKED_SKIP, attempts: 0 });
  });

  it("a blocked account's notification is recorded as skipped for the block even when it could not have been sent", async () => {
    const account = await createAccount(db, await getDomainOrThrow(db, "q.test"), "ola", {
      password: "Secret-123",
      sms_phone_number_1: "601234567",
      sms_send_to: 0,
      blocked: 1,
    });
    // No HTTP gateway in this configuration: the row said "failed" for that before.
    const [row] = await enqueueNewMail(db, smsConfig(), account, { subject: "Temat", body: "" });
    expect(row).toMatchObject({ status: "skipped", lastError: BLOCKED_SKIP });
  });
});

describe("notifications of notifications", () => {
  it("a notification this service mailed is recognised by its sender and Auto-Submitted, in any domain", () => {
    const config = smsConfig();
    expect(isNotification(config, "powiadomienia-sms@q.test", "auto-generated")).toBe(true);
    expect(isNotification(config, "POWIADOMIENIA-SMS@inna.test", "auto-generated; x=1")).toBe(true);
    expect(isNotification(config, "powiadomienia-sms@q.test", "")).toBe(false);
    expect(isNotification(config, "bank@q.test", "auto-generated")).toBe(false);
    expect(isNotification(config, "powiadomienia-smsXq.test", "auto-generated")).toBe(false);
  });
});

describe("SMS queue and a gateway failing between parts", () => {
  it("a notification of three SMS whose second one failed sends the second and third on retry, not the first again", async () => {
    // The provider's HTTP gateway, stood in for by a local server speaking its form protocol: the second request
    // fails once.
    const texts: string[] = [];
    let requests = 0;
    const gateway = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        requests += 1;
        if (requests === 2) return void res.writeHead(503).end("busy");
        texts.push(new URLSearchParams(body).get("text") ?? "");
        res.end("OK");
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = gateway.address() as AddressInfo;
      const config = smsConfig({
        http: { url: `http://127.0.0.1:${port}/send`, fields: { to: "{msisdn}", text: "{text}" } },
        retryDelaysSeconds: [0],
      });
      const account = await createAccount(db, await getDomainOrThrow(db, "q.test"), "bartek", {
        password: "Secret-123",
        sms_phone_number_1: "600100200",
        sms_send_to: 0,
        sms_cnt: 3,
      });
      const [queued] = await enqueueNewMail(db, config, account, {
        subject: "Faktura",
        body: "numer dwanascie za listopad do zaplaty w terminie siedmiu dni ".repeat(8),
      });
      expect(queued!.parts).toHaveLength(3);
      const transport = { smtp: { host: "127.0.0.1", port: 1 } };
      await processSmsQueue(db, config, transport);
      const row = async () => (await db.select().from(smsQueue).where(eq(smsQueue.id, queued!.id)))[0]!;
      expect(await row()).toMatchObject({ status: "pending", attempts: 1, partsSent: 1 });
      await processSmsQueue(db, config, transport);
      expect(await row()).toMatchObject({ status: "sent", attempts: 2, partsSent: 3 });
      expect(texts).toEqual(queued!.parts);
    } finally {
      gateway.close();
    }
  });

  it("records a part sent while another write of the events service holds SQLite's lock, instead of failing", async () => {
    // The events service writes last logins, SMS rows and session marks in transactions; a write on the shared
    // connection meanwhile busy-waited on the event loop the holder needs and failed after 5 s ("database is locked"),
    // so the part went out again at the retry.
    const texts: string[] = [];
    let requests = 0;
    // The lock is held from before the first part's answer until the queue asks for a transaction of its own (the
    // record of the part sent, queued behind this one), or, where it writes without one, until its run has ended.
    let held = false;
    let writeAsked!: () => void;
    const asked = new Promise<void>((resolve) => (writeAsked = resolve));
    let firstRunEnded!: () => void;
    const ended = new Promise<void>((resolve) => (firstRunEnded = resolve));
    const transaction = sqliteDialect.transaction.bind(sqliteDialect);
    const spy = vi.spyOn(sqliteDialect, "transaction").mockImplementation((d, fn) => {
      if (held) writeAsked();
      return transaction(d, fn);
    });
    const gateway = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        requests += 1;
        if (requests === 2) return void res.writeHead(503).end("busy");
        texts.push(new URLSearchParams(body).get("text") ?? "");
        if (requests > 1) return void res.end("OK");
        // A last login's update holds the write lock.
        void withTransaction(db, async (tx) => {
          tx.$client.prepare("UPDATE accounts SET last_auth_ip = last_auth_ip WHERE name = 'postmaster'").run();
          held = true;
          res.end("OK");
          await Promise.race([asked, ended]);
          held = false;
        });
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = gateway.address() as AddressInfo;
      const config = smsConfig({
        http: { url: `http://127.0.0.1:${port}/send`, fields: { to: "{msisdn}", text: "{text}" } },
        retryDelaysSeconds: [0],
      });
      const account = await createAccount(db, await getDomainOrThrow(db, "q.test"), "cezary", {
        password: "Secret-123",
        sms_phone_number_1: "600100300",
        sms_send_to: 0,
        sms_cnt: 3,
      });
      const [queued] = await enqueueNewMail(db, config, account, {
        subject: "Faktura",
        body: "numer trzynascie za grudzien do zaplaty w terminie siedmiu dni ".repeat(8),
      });
      const transport = { smtp: { host: "127.0.0.1", port: 1 } };
      const row = async () => (await db.select().from(smsQueue).where(eq(smsQueue.id, queued!.id)))[0]!;
      await processSmsQueue(db, config, transport);
      firstRunEnded();
      expect(await row()).toMatchObject({
        status: "pending",
        attempts: 1,
        partsSent: 1,
        lastError: expect.stringMatching(/503/) as unknown,
      });
      await processSmsQueue(db, config, transport);
      expect(await row()).toMatchObject({ status: "sent", partsSent: 3 });
      expect(texts).toEqual(queued!.parts);
    } finally {
      spy.mockRestore();
      gateway.close();
    }
  });
});
