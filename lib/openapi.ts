// The OpenAPI 3.1 document of /api/v1, generated from the same zod schemas the handlers, the services' answers and
// the panel's forms use. Every operation has an operationId and documents its error answers with the error schema,
// so that generated clients work; `redocly lint` (recommended rules) checks the served document in e2e/api.
import { z } from "zod";
import { ACCOUNT_SORT_FIELDS, accountRecordSchema, accountSummarySchema, accountUpdateSchema } from "./schemas/account";
import { ALIAS_SORT_FIELDS, aliasRecordSchema, aliasSchema, aliasSummarySchema } from "./schemas/alias";
import { domainRecordSchema, domainUpdateSchema } from "./schemas/domain";
import { errorBodySchema } from "./schemas/error";
import { pageEnvelopeSchema } from "./schemas/page-query";
import {
  accountListMembershipSchema,
  listModerationActionSchema,
  listModerationSchema,
} from "./schemas/list-moderation";
import {
  LIST_SORT_FIELDS,
  mailingListRecordSchema,
  mailingListSchema,
  mailingListSummarySchema,
} from "./schemas/mailing-list";

// Request bodies are described as the API accepts them (numbers also as digit strings), answers as it sends them.
const json = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;

const schemas = {
  Error: json(errorBodySchema, "output"),
  Domain: json(domainRecordSchema, "output"),
  DomainUpdate: json(domainUpdateSchema, "input"),
  Account: json(accountRecordSchema, "output"),
  AccountUpdate: json(accountUpdateSchema, "input"),
  AccountList: json(pageEnvelopeSchema(accountSummarySchema), "output"),
  Alias: json(aliasRecordSchema, "output"),
  AliasInput: json(aliasSchema, "input"),
  AliasList: json(pageEnvelopeSchema(aliasSummarySchema), "output"),
  MailingList: json(mailingListRecordSchema, "output"),
  MailingListInput: json(mailingListSchema, "input"),
  MailingListList: json(pageEnvelopeSchema(mailingListSummarySchema), "output"),
  ListModeration: json(listModerationSchema, "output"),
  ListModerationAction: json(listModerationActionSchema, "input"),
  AccountListMemberships: json(z.array(accountListMembershipSchema), "output"),
};
type SchemaName = keyof typeof schemas;

const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });
const body = (name: SchemaName) => ({ required: true, content: { "application/json": { schema: ref(name) } } });

// The error answers every operation may give (docs/errors.md lists the codes behind each status).
const ERRORS = {
  "400": "Malformed request: the body is not JSON (400.1), or a bad JSONP callback (400.2)",
  "401": "No Basic Authorization header (401.1)",
  "403":
    "Wrong credentials, blocked or expired account (403.1); not allowed (403.2, also for any domain the caller does not administer, hosted or not); client address not allowed (403.3)",
  "404":
    "The named record does not exist (404.2; told only to the domain's administrator), or no such endpoint (404.4)",
  "405": "Method not allowed on the path (405.1)",
  "500": "Validation failure (500.1xx, 500.3xx; `source` names the field) or an unexpected failure (500.100)",
  "503": "The database is busy (503.1)",
} as const;
const NAME_TAKEN = { "409": "The name is already an account, alias or list of the domain (409.1)" } as const;
const JSONP_NOT_GET = { "501": "?callback= on a method other than GET (501.1): JSONP answers GET only" } as const;
/** Shared error answers, referenced by every operation as #/components/responses/E<status>. */
const responses = Object.fromEntries(
  Object.entries({ ...ERRORS, ...NAME_TAKEN, ...JSONP_NOT_GET }).map(([status, description]) => [
    `E${status}`,
    { description, content: { "application/json": { schema: ref("Error") } } },
  ]),
);
const errorAnswers = (creates: boolean) =>
  Object.fromEntries(
    [...Object.keys(ERRORS), ...(creates ? ["409"] : [])]
      .sort()
      .map((s) => [s, { $ref: `#/components/responses/E${s}` }]),
  );

/**
 * The answers of ?envelope=true and ?callback= (contract §5): HTTP 200 whatever happened, the body
 * {"status": <HTTP status>, "response": <the body otherwise sent, or null>}, as JSON or wrapped in the callback.
 */
const JSONP = {
  schema: {
    type: "string",
    description: "`/**/<callback>(<envelope JSON>);` (X-Content-Type-Options: nosniff)",
    pattern: "^/\\*\\*/[A-Za-z_$][A-Za-z0-9_$.]{0,63}\\([\\s\\S]*\\);$",
  },
};
const envelopeOf = (name?: SchemaName) => ({
  type: "object",
  description: "The enveloped answer (?envelope=true, or inside the JSONP callback)",
  required: ["status", "response"],
  additionalProperties: false,
  properties: {
    status: { type: "integer", description: "The HTTP status the answer would have had" },
    response: { anyOf: [...(name ? [ref(name)] : []), ref("Error"), { type: "null" }] },
  },
});
/** The 200 answer: the record itself, or the envelope and JSONP forms of any answer of the operation. */
const okAnswer = (name: SchemaName | undefined) => ({
  description: name
    ? "OK (or, with ?envelope=true or ?callback=, any answer enveloped)"
    : "Any answer enveloped (?envelope=true)",
  content: { "application/json": { schema: name ? { anyOf: [ref(name), envelopeOf(name)] } : envelopeOf() } },
});

type Operation = { parameters?: unknown[]; responses: Record<string, { content?: Record<string, unknown> }> };
/** Every operation takes ?envelope=true; GET also ?callback=, whose answer is JavaScript. */
function withControls<T extends Record<string, Record<string, unknown>>>(paths: T): T {
  for (const item of Object.values(paths)) {
    for (const [method, value] of Object.entries(item)) {
      if (method === "parameters") continue;
      const operation = value as Operation;
      operation.parameters = [...(operation.parameters ?? []), ...control(method === "get")];
      if (method !== "get") operation.responses["501"] = { $ref: "#/components/responses/E501" } as never;
      const ok = operation.responses["200"];
      if (method === "get" && ok?.content) ok.content["application/javascript"] = JSONP;
    }
  }
  return paths;
}

/** An operation's answers (withControls adds the JSONP form to GET's). */
const reply = (status: "200" | "201" | "204", name?: SchemaName) => ({
  ...(status === "200"
    ? { "200": okAnswer(name) }
    : {
        "200": { ...okAnswer(undefined), content: { "application/json": { schema: envelopeOf(name) } } },
        [status]: name
          ? { description: "OK", content: { "application/json": { schema: ref(name) } } }
          : { description: "No content" },
      }),
  ...errorAnswers(status === "201"),
});

const p = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  schema: { type: "string" },
  description,
});
/** The control parameters every operation takes (contract §5); JSONP only on GET. */
const envelopeParam = {
  name: "envelope",
  in: "query",
  description: "`true`: HTTP 200 whatever happened, the answer inside {status, response}",
  schema: { type: "string", enum: ["true"] },
};
const callbackParam = {
  name: "callback",
  in: "query",
  description: "JSONP (GET only): the answer as `/**/<callback>({status, response});`, HTTP 200; a bad name is 400.2",
  schema: { type: "string", pattern: "^[A-Za-z_$][A-Za-z0-9_$.]{0,63}$" },
};
const control = (get: boolean) => (get ? [envelopeParam, callbackParam] : [envelopeParam]);
const domainParam = p("domain", "Mail domain");
const namesParam = p("name", "Name, or up to 1000 comma-separated names for PUT and DELETE");
const listParams = (sortFields: readonly string[]) => [
  { name: "page", in: "query", description: "Page number from 0", schema: { type: "integer", minimum: 0 } },
  {
    name: "size",
    in: "query",
    description: "Items a page",
    schema: { type: "integer", minimum: 1, maximum: 1000, default: 50 },
  },
  {
    name: "search",
    in: "query",
    description: "Case-insensitive substring of the name and the descriptive text",
    schema: { type: "string", maxLength: 100 },
  },
  {
    name: "sort",
    in: "query",
    description: "A field of the summary item",
    schema: { type: "string", enum: [...sortFields], default: "name" },
  },
  {
    name: "sort_dir",
    in: "query",
    description: "Sort direction",
    schema: { type: "string", enum: ["asc", "desc"], default: "asc" },
  },
];
const op = (operationId: string, summary: string, tag: string, rest: Record<string, unknown>) => ({
  operationId,
  summary,
  tags: [tag],
  ...rest,
});

/** The list path and the record path of one resource (accounts, aliases, mailing lists): the same five operations. */
function resourcePaths(
  path: string,
  tag: string,
  sortFields: readonly string[],
  [record, input, list]: [SchemaName, SchemaName, SchemaName],
  [one, many]: [string, string],
  [listSummary, getSummary, createSummary, updateSummary, deleteSummary]: string[],
) {
  const r = { path, tag, sortFields, ids: { one, many } };
  const summaries = {
    list: listSummary!,
    get: getSummary!,
    create: createSummary!,
    update: updateSummary!,
    delete: deleteSummary!,
  };
  return {
    [`/v1/${r.path}/{domain}`]: {
      parameters: [domainParam],
      get: op(`list${r.ids.many}`, summaries.list, r.tag, {
        parameters: listParams(r.sortFields),
        responses: reply("200", list),
      }),
    },
    [`/v1/${r.path}/{domain}/{name}`]: {
      parameters: [domainParam, namesParam],
      get: op(`get${r.ids.one}`, summaries.get, r.tag, { responses: reply("200", record) }),
      post: op(`create${r.ids.one}`, summaries.create, r.tag, {
        requestBody: body(input),
        responses: reply("201", record),
      }),
      put: op(`update${r.ids.many}`, summaries.update, r.tag, {
        requestBody: body(input),
        responses: { ...reply("200", record), "204": { description: "Several names changed" } },
      }),
      delete: op(`delete${r.ids.many}`, summaries.delete, r.tag, { responses: reply("204") }),
    },
  };
}

export function openApiDocument() {
  return {
    openapi: "3.1.0",
    info: {
      title: "Mail administration service",
      version: "1.0.0",
      description:
        "HTTP Basic with <address>:<SHA-1 hex digest of the password>. Every operation takes ?envelope=true, GET also " +
        "?callback=<name> (JSONP): the answer is then HTTP 200 with {status, response}, as each operation's 200 answer describes.",
    },
    servers: [{ url: "/api" }],
    security: [{ basic: [] }],
    tags: [
      { name: "domains", description: "The domain's settings, limits and their usage" },
      { name: "accounts", description: "Mail accounts" },
      { name: "aliases", description: "Aliases: an address delivered to another" },
      { name: "mailinglists", description: "Mailing lists with their subscribers, moderators and templates" },
    ],
    components: { securitySchemes: { basic: { type: "http", scheme: "basic" } }, schemas, responses },
    paths: withControls({
      "/v1/domains/{domain}": {
        parameters: [domainParam],
        get: op("getDomain", "Domain record", "domains", { responses: reply("200", "Domain") }),
        put: op("updateDomain", "Change domain settings", "domains", {
          requestBody: body("DomainUpdate"),
          responses: reply("200", "Domain"),
        }),
      },
      ...resourcePaths(
        "emails",
        "accounts",
        ACCOUNT_SORT_FIELDS,
        ["Account", "AccountUpdate", "AccountList"],
        ["Account", "Accounts"],
        [
          "Account list",
          "Account record",
          "Create an account (password required)",
          "Change one account (200) or several atomically (204)",
          "Delete accounts (and the aliases pointing at them)",
        ],
      ),
      ...resourcePaths(
        "aliases",
        "aliases",
        ALIAS_SORT_FIELDS,
        ["Alias", "AliasInput", "AliasList"],
        ["Alias", "Aliases"],
        [
          "Alias list",
          "Alias record",
          "Create an alias",
          "Change alias targets (one: 200, several: 204)",
          "Delete aliases",
        ],
      ),
      ...resourcePaths(
        "mailinglists",
        "mailinglists",
        LIST_SORT_FIELDS,
        ["MailingList", "MailingListInput", "MailingListList"],
        ["MailingList", "MailingLists"],
        [
          "Mailing-list list",
          "Mailing-list record",
          "Create a list",
          "Change lists (one: 200, several: 204)",
          "Delete lists",
        ],
      ),
      "/v1/mailinglists/{domain}/{name}/moderation": {
        parameters: [domainParam, p("name", "The list's name")],
        get: op("getListModeration", "Posts held for moderation and bounces of a list", "mailinglists", {
          responses: reply("200", "ListModeration"),
        }),
        post: op(
          "moderateListPosts",
          "Approve (sent by the list service) or reject (deleted) held posts",
          "mailinglists",
          {
            requestBody: body("ListModerationAction"),
            responses: reply("200", "ListModeration"),
          },
        ),
      },
      "/v1/emails/{domain}/{name}/lists": {
        parameters: [domainParam, p("name", "The account's name")],
        get: op("getAccountLists", "The domain's lists the account is on (deleting it takes it off them)", "accounts", {
          responses: reply("200", "AccountListMemberships"),
        }),
      },
    }),
  };
}
