// /api/panel/v1/emails/[domain]/[name]/lists: the /api/v1 handler itself, signed in by the panel session.
export * from "@/app/api/v1/emails/[domain]/[name]/lists/route";
