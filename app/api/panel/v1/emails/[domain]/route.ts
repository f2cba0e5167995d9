// /api/panel/v1/emails/[domain]: the /api/v1 handlers themselves, signed in by the panel session
// (lib/server/http/http.ts).
export * from "@/app/api/v1/emails/[domain]/route";
