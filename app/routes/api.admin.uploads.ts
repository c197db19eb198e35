import { UploadError } from "#app/features/uploads/errors.ts";
import { UPLOAD_MAX_BYTES } from "#app/features/uploads/rules.ts";
import { uploadStore } from "#app/features/uploads/storage.server.ts";
import { admitUpload } from "#app/features/uploads/upload-gate.server.ts";
import { listRecentUploads, parseUploadFolder, saveUpload } from "#app/features/uploads/uploads.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";

// The two fields, checked below with the uploads' own refusals (no_file, bad_folder).
const UploadFormSchema = z.object({ file: z.unknown(), folder: z.unknown() });
import type { Route } from "./+types/api.admin.uploads";
import { readQuery } from "#app/lib/input.server.ts";

/**
 * POST /api/admin/uploads (multipart: `file`, optional `folder`) → 201 `{"url","width","height"}`
 * (+ `eyecatch` for the eyecatches and og folders). Admins only (401 / 403 JSON). The body is
 * read by the input reader against this path's limit (lib/body-limits.ts), counted while it streams in (docs/product-rules.md §7, docs/architecture.md "Content: formatter, uploads, site settings and the SEO head").
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("GET, POST");
  const viewer = await requireApiAdmin(request, context);
  // Past the per-admin limits (429) or with the image pool full (503), before the body is read.
  const place = await admitUpload(context.db, viewer.id);
  let bytes: Buffer;
  let folder: ReturnType<typeof parseUploadFolder>;
  try {
    // UploadErrors (413, 415, 400) become their JSON answer in withJsonErrors.
    const form = await readInput(request, UploadFormSchema, {
      accept: ["multipart"],
      fromForm: (form) => ({ file: form.get("file"), folder: form.get("folder") }),
      tooLarge: () => new UploadError("too_large"),
      // A JSON or urlencoded body cannot carry a file.
      notAccepted: () => new UploadError("no_file"),
    });
    folder = parseUploadFolder(form.folder);
    const file = form.file;
    if (!(file instanceof File) || file.size === 0) throw new UploadError("no_file");
    if (file.size > UPLOAD_MAX_BYTES) throw new UploadError("too_large");
    bytes = Buffer.from(await file.arrayBuffer());
  } catch (error) {
    place.leave();
    throw error;
  }
  const result = await place.run(() => saveUpload(context.db, uploadStore(context.env), { bytes, folder, userId: viewer.id }));
  return Response.json(result, { status: 201 });
});

/** `?limit=` how many (a whole number; anything else the default 30; the service caps it). */
const RecentUploadsQuerySchema = z.object({ limit: z.coerce.number().int().catch(30) });

/** GET /api/admin/uploads?limit= → the newest uploads, for reuse. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiAdmin(request, context);
  const { limit } = readQuery(request, RecentUploadsQuerySchema);
  const items = await listRecentUploads(context.db, uploadStore(context.env), limit);
  return Response.json({ items }, { headers: { "Cache-Control": "private, no-store" } });
});
