/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON */
// The validation tests' shared set-up: a postmaster, an account, a list and an alias in the file's own domain,
// and a PUT of one field whose outcome is checked at its boundary.
import { beforeAll, expect } from "vitest";
import type { ErrorKey } from "@/lib/errors/catalog";
import { api, createAccount, expectError, expectStatus, postmaster } from "./client";

export const OK = "ok" as const;
export type Outcome = typeof OK | ErrorKey;

export const s = (n: number, c = "a") => c.repeat(n);

/** Seeds domain `D` before the file's tests; returns its postmaster and `putField` acting as it. */
export function validationDomain(D: string) {
  const admin = postmaster(D);
  beforeAll(async () => {
    await createAccount(D, "jan", { password: "Jan-pass1" });
    expectStatus(await api("POST", `mailinglists/${D}/lista`, { auth: admin, body: {} }), 201);
    // Not pointing at jan: a PUT of jan's `aliases` replaces the aliases that point at jan.
    expectStatus(await api("POST", `aliases/${D}/alias1`, { auth: admin, body: { target: "ext@example.org" } }), 201);
  });

  /** PUT one field and check the outcome; an accepted value must then read back (normalized where noted). */
  async function putField(path: string, field: string, value: unknown, outcome: Outcome, readBack?: unknown) {
    const res = await api("PUT", path, { auth: admin, body: { [field]: value } });
    if (outcome === OK) {
      expectStatus(res, 200);
      expect(res.json[field]).toEqual(readBack === undefined ? value : readBack);
    } else {
      expectError(res, outcome, field);
    }
  }
  return { admin, putField };
}
