// A list's moderation queue and bounce record (GET/POST /api/v1/mailinglists/<domain>/<name>/moderation).
import { z } from "zod";

// Held posts' ids are 32-bit integers (PostgreSQL's integer column; a larger one failed its query with 500.100).
const ids = z.array(z.int().min(1).max(2_147_483_647)).max(1000);
/** The POST body: held posts to approve (the list service sends them) and to reject (deleted); never both for one post. */
export const listModerationActionSchema = z
  .strictObject({ approve: ids.optional(), reject: ids.optional() })
  .refine((b) => !b.reject?.some((id) => b.approve?.includes(id)), {
    path: ["reject"],
    message: "a post is either approved or rejected",
  });
export type ListModerationAction = z.infer<typeof listModerationActionSchema>;

export const heldPostSchema = z.object({
  id: z.int(),
  sender: z.string(),
  subject: z.string(),
  /** ISO 8601, when the list service received it. */
  date: z.string(),
  size: z.int(),
  /** "held", or "approved" until the list service has sent it. */
  status: z.enum(["held", "approved"]),
});
export const listBounceSchema = z.object({
  address: z.string(),
  count: z.int(),
  last_at: z.string(),
  last_reason: z.string(),
});
export const listModerationSchema = z.object({
  held: z.array(heldPostSchema),
  bounces: z.array(listBounceSchema),
  /** Days a held post waits for a decision before the list service deletes it. */
  held_days: z.int(),
});
export type ListModeration = z.infer<typeof listModerationSchema>;
export type HeldPost = z.infer<typeof heldPostSchema>;

/** GET /api/v1/emails/<domain>/<name>/lists: the domain's lists the account is on. */
export const accountListMembershipSchema = z.object({
  name: z.string(),
  email: z.string(),
  subscriber: z.boolean(),
  moderator: z.boolean(),
});
export type AccountListMembership = z.infer<typeof accountListMembershipSchema>;

/**
 * A held post's subject or a bounce's reason as one line of text: line breaks, tabs and other control characters
 * (C0, DEL, C1) and the line and paragraph separators become one space each run, and the ends are trimmed. A subject
 * is whatever the sender wrote; shown raw, a CR or LF in it breaks the table's row or the moderation page's sentence.
 * The panel and the list service's moderation page show it through this one function, inside <bdi>, so a
 * right-to-left override in it reorders only its own text.
 */
export const oneLine = (text: string) =>
  // eslint-disable-next-line no-control-regex -- the control characters are what is replaced
  text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
