// GET /api/panel/mail/mobileconfig: an Apple configuration profile for the signed-in account (no password inside).
import { ok, withApi } from "@/lib/server/http/http";
import { mobileconfig } from "@/lib/server/resources/client-setup";

export const GET = withApi(({ principal }) =>
  // A stream, which the wrapper sends as it is (any other body it writes as JSON).
  ok(new Response(mobileconfig(principal.account.email)).body!, 200, {
    "content-type": "application/x-apple-aspen-config",
    "content-disposition": `attachment; filename="${principal.account.email.replace(/[^A-Za-z0-9@._-]/g, "_")}.mobileconfig"`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  }),
);
export * from "@/lib/server/http/read-only-route";
