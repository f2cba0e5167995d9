/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-explicit-any -- the document and bodies are untyped JSON */
// The OpenAPI document as served by the running build: `redocly lint` with its recommended rules finds no error
// and no warning but the license; every operation has an id and documents its error answers with the error
// schema; and real answers validate against the schemas the document is generated from (strictly: no field the
// schema does not name). Also `usage_bytes` (contract §9): an integer on the record, a string on the list item.
import { execFile, execFileSync } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { accountRecordSchema, accountSummarySchema } from "@/lib/schemas/account";
import { aliasRecordSchema, aliasSummarySchema } from "@/lib/schemas/alias";
import { domainRecordSchema } from "@/lib/schemas/domain";
import { errorBodySchema } from "@/lib/schemas/error";
import { pageEnvelopeSchema } from "@/lib/schemas/page-query";
import { mailingListRecordSchema, mailingListSummarySchema } from "@/lib/schemas/mailing-list";
import { api, createAccount, expectStatus, postmaster } from "./client";

const ROOT = path.resolve(import.meta.dirname, "../..");
const D = "oas.example.com";
const admin = postmaster(D);

/** Every field the schema names and no other, nested objects included. */
function strict(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    return z.strictObject(
      Object.fromEntries(Object.entries(schema.shape as Record<string, z.ZodType>).map(([k, v]) => [k, strict(v)])),
    );
  }
  if (schema instanceof z.ZodRecord) return z.record(z.string(), strict(schema.valueType as z.ZodType));
  return schema;
}
function expectShape(schema: z.ZodType, value: unknown): void {
  const parsed = strict(schema).safeParse(value);
  expect(parsed.success ? [] : parsed.error.issues, JSON.stringify(value).slice(0, 500)).toEqual([]);
}

const cli = (...args: string[]) =>
  execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: inject("mainDbPath") },
    encoding: "utf8",
  });

describe("the OpenAPI document", () => {
  it("passes redocly lint (recommended rules) with no error and no warning but the license", async () => {
    const url = `${inject("mainBase")}/openapi.json`;
    const bin = path.join(ROOT, "node_modules", "@redocly", "cli", "bin", "cli.js");
    // Exit code 1 when there are errors; the JSON report is on stdout either way.
    const { stdout } = await promisify(execFile)(process.execPath, [bin, "lint", url, "--format=json"], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
    const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    const problems = report.problems.filter((p) => p.ruleId !== "info-license");
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 120_000);

  it("names every operation and documents its 4xx and 5xx answers with the error schema", async () => {
    const res = await api("GET", "openapi.json");
    expectStatus(res, 200);
    const doc = res.json;
    const ids: string[] = [];
    for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const method of ["get", "put", "post", "delete"]) {
        const op = item[method];
        if (!op) continue;
        expect(op.operationId, `${method} ${p}`).toMatch(/^[a-zA-Z]+$/);
        ids.push(op.operationId);
        for (const status of ["400", "401", "403", "404", "500"]) {
          const ref = op.responses[status]?.$ref as string;
          expect(ref, `${method} ${p} ${status}`).toBeTruthy();
          const answer = doc.components.responses[ref.split("/").pop()!];
          expect(answer.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
        }
        // Creating POSTs may find the name taken; the moderation POST creates nothing.
        if (method === "post" && String(op.operationId).startsWith("create")) expect(op.responses["409"]).toBeTruthy();
      }
    }
    expect(ids.length).toBe(20);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.components.schemas.Account.properties.usage_bytes).toMatchObject({ type: "integer" });
    expect(
      doc.components.schemas.AccountList.properties.result_data.additionalProperties.properties.usage_bytes,
    ).toMatchObject({ type: "string" });
  });
});

describe("real answers validate against their schemas", () => {
  it("domain, account, alias and list records, their lists, and error bodies", async () => {
    await createAccount(D, "jan", { description: "Jan", forwards: ["jan@elsewhere.example.org"] });
    expectStatus(await api("POST", `aliases/${D}/info`, { auth: admin, body: { target: `jan@${D}` } }), 201);
    expectStatus(await api("POST", `mailinglists/${D}/news`, { auth: admin, body: { accounts: [`jan@${D}`] } }), 201);

    const read = async (p: string) => {
      const r = await api("GET", p, { auth: admin });
      expectStatus(r, 200);
      return r.json as unknown;
    };
    expectShape(domainRecordSchema, await read(`domains/${D}`));
    expectShape(accountRecordSchema, await read(`emails/${D}/jan`));
    expectShape(pageEnvelopeSchema(accountSummarySchema), await read(`emails/${D}`));
    expectShape(aliasRecordSchema, await read(`aliases/${D}/info`));
    expectShape(pageEnvelopeSchema(aliasSummarySchema), await read(`aliases/${D}`));
    expectShape(mailingListRecordSchema, await read(`mailinglists/${D}/news`));
    expectShape(pageEnvelopeSchema(mailingListSummarySchema), await read(`mailinglists/${D}`));
    // Answers of writes: the same records.
    const put = await api("PUT", `emails/${D}/jan`, { auth: admin, body: { description: "Jan K." } });
    expectShape(accountRecordSchema, put.json);
    for (const bad of [
      await api("GET", `emails/${D}/nobody`, { auth: admin }),
      await api("POST", `emails/${D}/jan`, { auth: admin, body: { password: "Secret-123" } }),
      await api("PUT", `emails/${D}/jan,nobody`, { auth: admin, body: { capacity: 2 } }),
      await api("GET", `emails/${D}`),
    ]) {
      expect(bad.status).toBeGreaterThanOrEqual(400);
      expectShape(errorBodySchema, bad.json);
    }
  });
});

describe("usage_bytes (contract §9)", () => {
  it("is the reported bytes: an integer on the record, a string on the list item, sortable", async () => {
    await createAccount(D, "big", { capacity: 10 });
    await createAccount(D, "small", { capacity: 10 });
    const fresh = await api("GET", `emails/${D}/big`, { auth: admin });
    expect(fresh.json.usage_bytes).toBe(0);

    cli("usage", "report", `big@${D}`, "--bytes", "5242880");
    cli("usage", "report", `small@${D}`, "--bytes", "1234");
    const record = await api("GET", `emails/${D}/big`, { auth: admin });
    expect(record.json).toMatchObject({ usage_bytes: 5242880, usage: 50 });
    const list = await api("GET", `emails/${D}?search=big`, { auth: admin });
    expect(list.json.result_data.big).toMatchObject({ usage_bytes: "5242880", usage: "50%" });

    const sorted = await api("GET", `emails/${D}?sort=usage_bytes&sort_dir=desc&size=3`, { auth: admin });
    expectStatus(sorted, 200);
    const rows = Object.values(sorted.json.result_data as Record<string, { name: string; usage_bytes: string }>);
    const bytes = rows.map((r) => Number(r.usage_bytes));
    expect(bytes).toEqual([...bytes].sort((a, b) => b - a));
    expect(rows.map((r) => r.name).slice(0, 2)).toEqual(["big", "small"]);

    // The record read with GET can be sent back whole: usage_bytes is read-only and ignored.
    const back = await api("PUT", `emails/${D}/big`, { auth: admin, body: { ...record.json, usage_bytes: 1 } });
    expectStatus(back, 200);
    expect(back.json.usage_bytes).toBe(5242880);
  });
});
