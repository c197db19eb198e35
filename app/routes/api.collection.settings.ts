import { CollectionSettingsSchema } from "#app/features/collection/collection.schema.ts";
import { getCollectionSettings, saveCollectionSettings } from "#app/features/collection/collection.server.ts";
import { collectionMessages } from "#app/features/collection/messages.ts";
import { requireApiViewer } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import type { Route } from "./+types/api.collection.settings";

/**
 * GET /api/collection/settings → `{showProgress, useForTrades, keepCount, tradeRarities, wantMode, wantSets}`
 * (switches off, trade defaults until chosen); PUT the same to save them (trade settings may be left out).
 */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireApiViewer(request, context);
  return Response.json(await getCollectionSettings(context.db, viewer.id), { headers: { "Cache-Control": "private, no-store" } });
});

export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "PUT") throw methodNotAllowed("GET, PUT");
  const viewer = await requireApiViewer(request, context);
  const settings = await readInput(request, CollectionSettingsSchema, { accept: ["json"], messages: collectionMessages, fallback: "errorInvalid" });
  return Response.json(await saveCollectionSettings(context.db, viewer.id, settings));
});
