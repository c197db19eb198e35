import { SHARE_KINDS, shareImage, type ShareKind } from "#app/features/share/share.server.tsx";
import { IMMUTABLE_CACHE_CONTROL, uploadStore } from "#app/features/uploads/storage.server.ts";
import type { Route } from "./+types/share-image";

/**
 * GET /share/{deck|offer|card}/{id}/{revision}.webp → the page's 1200×630 share image. A URL's
 * bytes never change (the revision is the hash of what it draws), so it is cached for a year,
 * unless a tile's artwork could not be read (that image is drawn again later); an old revision
 * answers 301 to the current one, a private or unknown subject 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const kind = params.kind as ShareKind;
  const revision = /^([0-9a-f]{16})\.webp$/.exec(params.file)?.[1];
  if (!SHARE_KINDS.includes(kind) || !revision) return notFound();
  const answer = await shareImage(context.db, uploadStore(context.env), kind, params.id, revision);
  if (answer.kind === "missing") return notFound();
  if (answer.kind === "busy") return new Response("Busy", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "5" } });
  if (answer.kind === "moved") return new Response(null, { status: 301, headers: { Location: answer.path, "Cache-Control": "public, max-age=60" } });
  return new Response(new Uint8Array(answer.bytes), {
    headers: {
      "Content-Type": "image/webp",
      "Content-Length": String(answer.bytes.length),
      // An image drawn without some tile's artwork is drawn again on a later request.
      "Cache-Control": answer.kept ? IMMUTABLE_CACHE_CONTROL : "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

function notFound(): Response {
  return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
