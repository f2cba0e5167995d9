import "server-only";
// What a list's body becomes before it is written: its column values, the cross-field checks, and the member rows.
import type { Db } from "@/db/client";
import type { MailingListRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import { MODERATORS_REQUIRED_ATTRIBUTES, moderatorsMissing, type MailingListInput } from "@/lib/schemas/mailing-list";
import { listMemberStatements, type MemberRole } from "../store/list-members";

/** Column values of a validated body (templates, members and cross-field rules handled by the callers). */
export function columnValues(input: MailingListInput): Partial<MailingListRow> {
  const v: Partial<MailingListRow> = {
    description: input.description,
    privacyMode: input.privacy_mode,
    replytoMode: input.replyto_mode,
    replytoEmail: input.replyto_email,
    replytoCatchall: input.replyto_catchall,
    confirmUrl: input.confirm_url,
    autosubscribeEnabled: input.autosubscribe_enabled,
    subscribeRequestMailBody: input.subscribe_request_mail_body,
    subscribeRequestMailSubject: input.subscribe_request_mail_subject,
    unsubscribeRequestMailBody: input.unsubscribe_request_mail_body,
    unsubscribeRequestMailSubject: input.unsubscribe_request_mail_subject,
    subscribeMailBody: input.subscribe_mail_body,
    subscribeMailSubject: input.subscribe_mail_subject,
    unsubscribeMailBody: input.unsubscribe_mail_body,
    unsubscribeMailSubject: input.unsubscribe_mail_subject,
  };
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
}

/** replyto_mode 2 needs an address to offer. */
export function checkReplyTo(row: Pick<MailingListRow, "replytoMode" | "replytoEmail">): void {
  if (row.replytoMode === 2 && row.replytoEmail === "")
    throw apiError("invalidListOption", "replyto_email", { required_for_replyto_mode: 2 });
}

/**
 * Rules the panel applies beyond the specification. `moderatorRequired`: the specification lets a program make a list
 * moderated before naming its moderators (privacy_mode alone), so only the panel's editor, where a user would
 * otherwise save a list nobody can post to, refuses it.
 */
export interface ListRules {
  moderatorRequired?: boolean;
}

/**
 * A moderated list needs a moderator (in the panel). A save that leaves a list moderated without one is refused, unless the list
 * was so already (its last moderator's account was deleted): a record read with GET and sent back whole, or another
 * field changed, is still accepted (contract §4).
 */
export async function checkModerators(
  db: Db,
  row: MailingListRow | null,
  input: MailingListInput,
  rules: ListRules,
): Promise<void> {
  if (!rules.moderatorRequired) return;
  const privacyMode = input.privacy_mode ?? row?.privacyMode ?? 0;
  if (privacyMode !== 1) return;
  const stored = row ? await listMemberStatements(db).ordered(row.id, "moderator") : [];
  const after = { privacy_mode: privacyMode, moderators: input.moderators ?? stored };
  const before = row && { privacy_mode: row.privacyMode, moderators: stored };
  if (moderatorsMissing(after) && !(before && moderatorsMissing(before))) {
    throw apiError("invalidListOption", "moderators", MODERATORS_REQUIRED_ATTRIBUTES);
  }
}

/**
 * Sets a role's members to `addresses`, writing only the difference: a PUT of a 50,000-member list that adds or
 * removes a few addresses deletes and inserts those few rows, so the write lock is held for milliseconds
 * (bench/list-put.ts measures it). Members keep their place; new ones go after the last. (Subscribers are a set: a PUT that
 * only reorders them changes nothing.)
 */
export async function replaceMembers(
  db: Db,
  listId: number,
  role: MemberRole,
  addresses: string[] | undefined,
): Promise<void> {
  if (addresses === undefined) return;
  const st = listMemberStatements(db);
  const current = await st.current(listId, role);
  const wanted = new Set(addresses);
  const have = new Set<string>();
  let next = 0;
  for (const [address, position] of current) {
    have.add(address);
    if (position >= next) next = position + 1;
  }
  await st.removeAll(
    listId,
    role,
    current.map(([address]) => address).filter((address) => !wanted.has(address)),
  );
  await st.addAll(
    listId,
    role,
    [...wanted].filter((address) => !have.has(address)),
    next,
  );
}
