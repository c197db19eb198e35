import { CollectionError } from "#app/features/collection/errors.ts";
import { CSV_MAX_BYTES, importCollectionCsv } from "#app/features/collection/collection-csv.server.ts";
import { requireApiViewer } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";
import type { Route } from "./+types/api.collection.import";

const ImportFormSchema = z.object({ file: z.unknown() });

/**
 * POST /api/collection/import (multipart `file`: a CSV of set, number, count; UTF-8 with or
 * without BOM, or Shift_JIS) → `{"count": n}`. All or nothing: 400 `csv_line_invalid` names the first bad line.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  const viewer = await requireApiViewer(request, context);
  const form = await readInput(request, ImportFormSchema, {
    accept: ["multipart"],
    fromForm: (data) => ({ file: data.get("file") }),
    tooLarge: () => new CollectionError("csv_too_large", { max: CSV_MAX_BYTES / 1024 / 1024 }),
    notAccepted: () => new CollectionError("csv_missing"),
  });
  const file = form.file;
  if (!(file instanceof File) || file.size === 0) throw new CollectionError("csv_missing");
  return Response.json(await importCollectionCsv(context.db, viewer.id, new Uint8Array(await file.arrayBuffer())));
});

export const loader = withJsonErrors(async () => {
  throw methodNotAllowed("POST");
});
