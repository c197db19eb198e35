import { z } from "zod";
import { CardImportError, describeImportError, IMPORT_MAX_BYTES, importCardsFromCsv } from "../features/cards/import.server";
import { cardsMessages } from "../features/cards/messages";
import { requireApiAdmin } from "../features/users/session.server";
import { localeFromRequest, translate } from "../lib/i18n";
import { forget } from "../lib/memo.server";
import type { Route } from "./+types/api.admin.cards.import";
import { withJsonErrors } from "../lib/api.server";
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
  const locale = localeFromRequest(request);
  // JSON only: a cross-site form cannot send it without a CORS preflight.
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) {
    return Response.json({ error: translate(cardsMessages, locale, "errInvalidRequest") }, { status: 415 });
  }
  let body: unknown;
  try {
    body = JSON.parse(await readBody(request, MAX_BODY_BYTES));
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      return Response.json({ error: translate(cardsMessages, locale, "errTooLarge", { max: IMPORT_MAX_BYTES / 1024 / 1024 }) }, { status: 413 });
    }
    return Response.json({ error: translate(cardsMessages, locale, "errInvalidRequest") }, { status: 400 });
  }
  const parsed = ImportRequestSchema.safeParse(body);
  if (!parsed.success) return Response.json({ error: translate(cardsMessages, locale, "errInvalidRequest") }, { status: 400 });
  try {
    const result = await importCardsFromCsv(context.db, parsed.data);
    // Pack lists and showcases cached by pages now have new cards.
    forget("catalogue:");
    return Response.json(result);
  } catch (error) {
    if (error instanceof CardImportError) {
      const status = error.code === "too_large" ? 413 : error.code === "unknown_pack" ? 400 : 422;
      return Response.json({ error: describeImportError(error, locale) }, { status });
    }
    throw error;
  }
});

export function loader() {
  return Response.json({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
}
