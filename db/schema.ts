// The tables as the services see them (docs/architecture.md, "Services are async"). Services are written once
// against these objects: at run time they are the active engine's tables (DATABASE_URL=postgres://... selects
// db/pg/schema.ts, otherwise db/sqlite/schema.ts), typed as the SQLite ones. The two schemas have the same export
// names, the same JS keys and the same JS value types (db/pg/schema.test.ts checks it), so a row reads the same.
// The engine is read once, when this module is first imported.
import { databaseEngine } from "../lib/config.mjs";
import * as pg from "./pg/schema";
import * as sqlite from "./sqlite/schema";

const active = (databaseEngine() === "postgres" ? pg : sqlite) as unknown as typeof sqlite;

export const {
  customers,
  domains,
  accounts,
  aliases,
  mailingLists,
  listMembers,
  listMemberVersions,
  listHeldPosts,
  listTokens,
  listRequests,
  listBounces,
  mailQuota,
  sessions,
  loginThrottle,
  serverSecrets,
  smsQueue,
  dkimKeys,
  auditLog,
  accountTotp,
  totpRecoveryCodes,
  loginChallenges,
  domainPolicies,
  mailHosts,
  greylist,
  sendCounts,
  mailPasswordChanges,
  mailPasswordChangesHandled,
  submissionSessions,
  removedMailboxes,
} = active;

export type {
  AccountRow,
  AliasRow,
  CustomerRow,
  DkimKeyRow,
  DomainRow,
  ListHeldPostRow,
  ListMemberRow,
  MailingListRow,
  NewAccountRow,
  SessionRow,
  SmsQueueRow,
} from "./sqlite/schema";
