import "server-only";
// The HTTP side of two-step sign-in: TwoFactorError to the panel's error answers, and the sign-in's hook (after the
// password check succeeds: a second step instead of a session when the account needs one).
import type { Db } from "@/db/client";
import { panelErrors } from "@/lib/errors/panel-errors";
import type { Principal } from "../caller/auth";
import type { ApiResult } from "./http";
import { isHttps } from "../caller/session";
import { challengeCookie, createChallenge, secondStepNeeded, TwoFactorError } from "../caller/totp";

/** The answer of a TwoFactorError; anything else is thrown on (the wrapper turns it into the API's error). */
export function twoFactorAnswer(err: unknown): ApiResult {
  if (!(err instanceof TwoFactorError)) throw err;
  const e =
    err.reason === "notConfigured"
      ? panelErrors.twoFactorNotConfigured
      : err.reason === "noChallenge"
        ? panelErrors.twoFactorNoChallenge
        : err.reason === "required"
          ? panelErrors.twoFactorRequired
          : err.reason === "codeUsed"
            ? panelErrors.twoFactorCodeUsed
            : err.reason === "badSetupCode"
              ? panelErrors.twoFactorSetupBadCode
              : panelErrors.twoFactorBadCode;
  return {
    status: e.status,
    body: {
      code: e.code,
      message: e.message,
      category: e.category,
      ...(["badCode", "badSetupCode", "codeUsed"].includes(err.reason) ? { source: "code" } : {}),
    },
  };
}

/**
 * Called by POST /api/panel/session once the password is right: null when the account signs in at once; else the
 * answer that asks for the code (or for setting it up, when the operator requires it), with the challenge cookie.
 */
export async function secondStepAnswer(
  db: Db,
  req: Request,
  principal: Principal,
  clientIp: string,
): Promise<ApiResult | null> {
  const step = await secondStepNeeded(db, principal.account);
  if (step === "none") return null;
  const id = await createChallenge(db, principal.account, clientIp);
  return {
    status: 200,
    body: { email: principal.account.email, second_step: step },
    headers: { "set-cookie": challengeCookie(id, isHttps(req)), "cache-control": "no-store" },
  };
}
