// The sign-in's second step, after POST /api/panel/session answered {second_step}. The browser holds the
// challenge cookie (5 minutes, 5 tries, same client address); wrong codes also count per account (totp.ts).
// POST {code}: a TOTP code or a recovery code; signs in (the session cookie), as the first step would have.
// PUT: only when the operator requires 2FA and the account has none yet: starts its set-up, answering
//      {secret, uri, qr_svg}; the POST then confirms it with the app's first code and answers the recovery codes.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { domains, type AccountRow } from "@/db/schema";
import { ok, withPanelSession } from "@/lib/server/http/http";
import { deviceCookie, deviceIdFor, newDeviceToken, readDeviceToken } from "@/lib/server/caller/device-cookie";
import { createSession, destroySession, isHttps, sessionCookie, sessionInfo } from "@/lib/server/caller/session";
import {
  beginSetup,
  challengeAccount,
  checkCode,
  confirmSetup,
  endChallenge,
  readChallengeId,
  secondStepNeeded,
  TwoFactorError,
} from "@/lib/server/caller/totp";
import { twoFactorAnswer } from "@/lib/server/http/totp-http";

async function principalOf(db: Db, account: AccountRow) {
  const [{ name: domain }] = (await db
    .select({ name: domains.name })
    .from(domains)
    .where(eq(domains.id, account.domainId))) as [{ name: string }];
  return { account, domain, isPostmaster: account.name === "postmaster" };
}

export const POST = withPanelSession(async ({ req, db, clientIp, sessionId, body }) => {
  try {
    const id = readChallengeId(req);
    const account = await challengeAccount(db, id, clientIp);
    if (!account || account.blocked === 1) throw new TwoFactorError("noChallenge");
    const raw = (await body()).code;
    const code = typeof raw === "string" ? raw : "";
    let recoveryCodes: string[] | undefined;
    if ((await secondStepNeeded(db, account)) === "setup") recoveryCodes = await confirmSetup(db, account, code);
    // Wrong codes count against the account across challenges (a known device: against itself), like passwords.
    else
      await checkCode(
        db,
        account,
        code,
        clientIp,
        await deviceIdFor(db, readDeviceToken(req, isHttps(req)), account.email),
      );
    await endChallenge(db, id);
    const principal = await principalOf(db, account);
    // As the first step does without a second one: a fresh session id, and the device cookie that lets this
    // browser past the account's lock (lib/server/caller/device-cookie.ts).
    await destroySession(db, sessionId);
    const session = await createSession(db, principal, clientIp);
    const secure = isHttps(req);
    // The challenge row is gone; its cookie (Path=/api/panel/) lapses within 5 minutes and names nothing now.
    const headers = new Headers({ "cache-control": "no-store" });
    headers.append("set-cookie", sessionCookie(session, secure));
    headers.append("set-cookie", deviceCookie(await newDeviceToken(db, principal.account.email), secure));
    return ok({ ...sessionInfo(principal), ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}) }, 200, headers);
  } catch (err) {
    return twoFactorAnswer(err);
  }
});

export const PUT = withPanelSession(async ({ req, db, clientIp }) => {
  try {
    const account = await challengeAccount(db, readChallengeId(req), clientIp);
    if (!account || (await secondStepNeeded(db, account)) !== "setup") throw new TwoFactorError("noChallenge");
    const setup = await beginSetup(db, account);
    return ok({ secret: setup.secret, uri: setup.uri, qr_svg: setup.qrSvg }, 200, { "cache-control": "no-store" });
  } catch (err) {
    return twoFactorAnswer(err);
  }
});
export {
  panelMethodNotAllowed as GET,
  panelMethodNotAllowed as DELETE,
  panelMethodNotAllowed as PATCH,
} from "@/lib/server/http/panel-fallback";
