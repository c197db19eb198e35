import { CollectionError } from "../features/collection/errors";
import { CSV_MAX_BYTES, importCollectionCsv } from "../features/collection/collection-csv.server";
import { requireApiViewer } from "../features/users/session.server";
import { methodNotAllowed, withJsonErrors } from "../lib/api.server";
import { readInput } from "../lib/input.server";
import { z } from "../lib/zod";
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
