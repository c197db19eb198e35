import { z } from "#app/lib/zod.ts";
import { safeString } from "#app/lib/text.ts";
import { FRIEND_COMMENT_MAX_LENGTH, FRIEND_PURPOSES, FRIEND_SETS_MAX } from "./rules";

// Messages are keys of the friends catalogue (messages.ts): the form and the server translate them.

// Line breaks are kept; other control characters are dropped so the text stays plain (as offers' comments).
const CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/g;

/** A friend board post as the form and the service take it. */
export const FriendPostInputSchema = z.object({
  purposes: z
    .array(z.enum(FRIEND_PURPOSES, { error: "errorPurposeRequired" }), { error: "errorPurposeRequired" })
    .min(1, "errorPurposeRequired")
    .transform((list) => [...new Set(list)]),
  comment: safeString("errorInvalid")
    .default("")
    .transform((v) => v.replace(/\r\n?/g, "\n").replace(CONTROL, "").trim())
    .pipe(z.string().max(FRIEND_COMMENT_MAX_LENGTH, "errorCommentTooLong")),
  setCodes: z
    .array(safeString("errorUnknownSet").trim().min(1, "errorUnknownSet").max(20, "errorUnknownSet"))
    .default([])
    .transform((list) => [...new Set(list)])
    .pipe(z.array(z.string()).max(FRIEND_SETS_MAX, "errorTooManySets")),
});
export type FriendPostInput = z.infer<typeof FriendPostInputSchema>;

/** The board's filters as they appear in the URL (?purpose=&set=); anything unknown or blank means no filter. */
export const FriendBoardFiltersSchema = z.object({
  purpose: z.enum(FRIEND_PURPOSES).optional().catch(undefined),
  set: z.string().trim().min(1).max(20).optional().catch(undefined),
});
export type FriendBoardFilters = z.infer<typeof FriendBoardFiltersSchema>;

/** The board page's query, read by the one query reader (lib/query.ts): the filters, the cursor (checked by the service) and `?done=`. */
export const FriendBoardQuerySchema = FriendBoardFiltersSchema.extend({ cursor: z.string().optional(), done: z.string().optional() });

/** A report of a post: the reason as typed (a preset fills it), like an offer's report. */
export const FriendReportSchema = z.object({
  reason: safeString("errorReportReasonRequired")
    .transform((v) => v.replace(CONTROL, "").trim())
    .pipe(z.string().min(1, "errorReportReasonRequired").max(500, "errorReportReasonTooLong")),
});
