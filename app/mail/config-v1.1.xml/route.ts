// GET /mail/config-v1.1.xml?emailaddress=<address>: the same document on the host autoconfig.<domain>, the first
// place Thunderbird looks (docs/onboarding.md).
export { GET } from "@/app/.well-known/autoconfig/mail/config-v1.1.xml/route";
