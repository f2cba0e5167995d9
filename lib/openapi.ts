// The OpenAPI 3.1 document of /api/v1, generated from the same zod schemas the handlers and forms use.
import { z } from "zod";
import { errorCatalog } from "./errors/catalog";
import { accountUpdateSchema } from "./schemas/account";
import { aliasSchema } from "./schemas/alias";
import { domainUpdateSchema } from "./schemas/domain";
import { mailingListSchema } from "./schemas/mailing-list";

const json = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;

const str = z.string();
const accountRecord = accountUpdateSchema.extend({
  name: str,
  domain: str,
  email: str,
  usage: z.int(),
  creation_date: str,
  last_auth_date: str,
  last_auth_ip: str,
  forward_email_1: str,
  forward_email_2: str,
  forward_email_3: str,
  alias_creation_priv: z.int(),
  extra_rules: z.int(),
  spam_rbl_default: z.int(),
  spam_spf_default: z.int(),
  spam_greylist_default: z.int(),
});
const domainRecord = domainUpdateSchema.extend(
  Object.fromEntries(
    [
      "spam_rbl_default",
      "spam_spf_default",
      "spam_greylist_default",
      "account_limit",
      "alias_limit",
      "mailinglist_limit",
      "capacity_limit",
      "account_limit_usage",
      "alias_limit_usage",
      "mailinglist_limit_usage",
      "capacity_limit_usage",
    ].map((k) => [k, str]),
  ),
);
const named = { name: str, domain: str, email: str };
const errorBody = z.object({
  code: str.describe(`One of: ${[...new Set(Object.values(errorCatalog).map((e) => e.code))].join(", ")}`),
  message: str,
  category: z.enum(["internal", "resource_missing", "resource_existing", "authorization", "validation"]),
  source: str.optional(),
  attributes: z.record(str, z.unknown()).optional(),
  children: z.array(z.record(str, z.unknown())).optional(),
});
const listEnvelope = (item: z.ZodType) =>
  z.object({
    result_info: z.object({ total: z.int(), fetched: z.int(), page_size: z.int(), page: z.int() }),
    result_data: z.record(str, item),
  });

const schemas = {
  Error: json(errorBody),
  Domain: json(domainRecord),
  DomainUpdate: json(domainUpdateSchema),
  Account: json(accountRecord),
  AccountUpdate: json(accountUpdateSchema),
  AccountList: json(
    listEnvelope(z.object({ ...named, creation_date: str, expiration_date: str, last_auth_date: str, capacity: str, description: str, blocked: str, usage: str })),
  ),
  Alias: json(aliasSchema.extend(named)),
  AliasInput: json(aliasSchema),
  AliasList: json(listEnvelope(aliasSchema.extend(named))),
  MailingList: json(mailingListSchema.extend(named)),
  MailingListInput: json(mailingListSchema),
  MailingListList: json(
    listEnvelope(z.object({ ...named, description: str, privacy_mode: str, replyto_mode: str, autosubscribe_enabled: str })),
  ),
};

const ref = (name: keyof typeof schemas) => ({ $ref: `#/components/schemas/${name}` });
const body = (name: keyof typeof schemas) => ({ required: true, content: { "application/json": { schema: ref(name) } } });
const reply = (status: string, name?: keyof typeof schemas) => ({
  [status]: name
    ? { description: "OK", content: { "application/json": { schema: ref(name) } } }
    : { description: "No content" },
  default: { description: "Error (see docs/errors.md)", content: { "application/json": { schema: ref("Error") } } },
});
const p = (name: string, description: string) => ({ name, in: "path", required: true, schema: { type: "string" }, description });
const domainParam = p("domain", "Mail domain");
const namesParam = p("name", "Name, or up to 1000 comma-separated names for PUT and DELETE");
const listParams = [
  { name: "page", in: "query", schema: { type: "integer", minimum: 0 } },
  { name: "size", in: "query", schema: { type: "integer", minimum: 1, maximum: 1000, default: 50 } },
  { name: "search", in: "query", schema: { type: "string", maxLength: 100 } },
  { name: "sort", in: "query", schema: { type: "string" } },
  { name: "sort_dir", in: "query", schema: { type: "string", enum: ["asc", "desc"] } },
];

export function openApiDocument() {
  return {
    openapi: "3.1.0",
    info: {
      title: "Mail administration service",
      version: "1.0.0",
      description:
        "HTTP Basic with <address>:<SHA-1 hex digest of the password>. Add ?envelope=true or ?callback=<name> (GET) for enveloped answers.",
    },
    servers: [{ url: "/api" }],
    security: [{ basic: [] }],
    components: { securitySchemes: { basic: { type: "http", scheme: "basic" } }, schemas },
    paths: {
      "/v1/domains/{domain}": {
        parameters: [domainParam],
        get: { summary: "Domain record", responses: reply("200", "Domain") },
        put: { summary: "Change domain settings", requestBody: body("DomainUpdate"), responses: reply("200", "Domain") },
      },
      "/v1/emails/{domain}": {
        parameters: [domainParam],
        get: { summary: "Account list", parameters: listParams, responses: reply("200", "AccountList") },
      },
      "/v1/emails/{domain}/{name}": {
        parameters: [domainParam, namesParam],
        get: { summary: "Account record", responses: reply("200", "Account") },
        post: { summary: "Create an account (password required)", requestBody: body("AccountUpdate"), responses: reply("201", "Account") },
        put: { summary: "Change one account (200) or several atomically (204)", requestBody: body("AccountUpdate"), responses: reply("200", "Account") },
        delete: { summary: "Delete accounts", responses: reply("204") },
      },
      "/v1/aliases/{domain}": {
        parameters: [domainParam],
        get: { summary: "Alias list", parameters: listParams, responses: reply("200", "AliasList") },
      },
      "/v1/aliases/{domain}/{name}": {
        parameters: [domainParam, namesParam],
        get: { summary: "Alias record", responses: reply("200", "Alias") },
        post: { summary: "Create an alias", requestBody: body("AliasInput"), responses: reply("201", "Alias") },
        put: { summary: "Change alias targets", requestBody: body("AliasInput"), responses: reply("200", "Alias") },
        delete: { summary: "Delete aliases", responses: reply("204") },
      },
      "/v1/mailinglists/{domain}": {
        parameters: [domainParam],
        get: { summary: "Mailing-list list", parameters: listParams, responses: reply("200", "MailingListList") },
      },
      "/v1/mailinglists/{domain}/{name}": {
        parameters: [domainParam, namesParam],
        get: { summary: "Mailing-list record", responses: reply("200", "MailingList") },
        post: { summary: "Create a list", requestBody: body("MailingListInput"), responses: reply("201", "MailingList") },
        put: { summary: "Change lists", requestBody: body("MailingListInput"), responses: reply("200", "MailingList") },
        delete: { summary: "Delete lists", responses: reply("204") },
      },
    },
  };
}
