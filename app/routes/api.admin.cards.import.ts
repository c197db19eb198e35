import { z } from "../lib/zod";
import { CardError } from "../features/cards/errors";
import { IMPORT_MAX_BYTES, importCardsFromCsv } from "../features/cards/import.server";
import { requireApiAdmin } from "../features/users/session.server";
import { localeFromRequest } from "../lib/i18n";
import type { Route } from "./+types/api.admin.cards.import";
import { errorResponse, withJsonErrors } from "../lib/api.server";
import { safeString } from "../lib/text";

// JSON escaping can grow the CSV text a little; anything far past the CSV limit is refused unread.
const MAX_BODY_BYTES = IMPORT_MAX_BYTES + 1024 * 1024;

const ImportRequestSchema = z.object({ title: safeString().max(200), csvData: safeString() });

class BodyTooLargeError extends Error {}

/** Reads the request body as text, stopping as soon as it passes `limit` bytes. */
async function readBody(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new BodyTooLargeError();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * POST /api/admin/cards/import `{"title": packId, "csvData": text}` → `{"count": n}` — the
 * SPEC.md §7 importCardsFromCSV function. Admins only (401 / 403 JSON); errors are `{"error"}`.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
  await requireApiAdmin(request, context);
  // JSON only: a cross-site form cannot send it without a CORS preflight.
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
    return errorResponse(new CardError("invalid_request"), localeFromRequest(request), 415);
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBody(request, MAX_BODY_BYTES));
  } catch (error) {
    throw error instanceof BodyTooLargeError ? new CardError("too_large", { max: IMPORT_MAX_BYTES / 1024 / 1024 }) : new CardError("invalid_request");
  }
  const parsed = ImportRequestSchema.safeParse(body);
  if (!parsed.success) throw new CardError("invalid_request");
  return Response.json(await importCardsFromCsv(context.db, parsed.data));
});

export function loader() {
  return Response.json({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
}
