import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { decks } from "#app/db/schema/decks.ts";
import type { RelatedRef } from "#app/features/content/types.ts";
import { isDeckId } from "./rules";

/**
 * The lookup of `[[deck:<slug or id>]]` blocks (docs/content-format.md): public decks only, keyed
 * by the reference as typed. Registered as the decks' related lookup (app/registrations.server.ts),
 * so articles' and decks' texts and the editors' preview resolve deck blocks the same way.
 */
export async function deckContentRefs(db: Db, refs: readonly string[]): Promise<Map<string, RelatedRef>> {
  const found = new Map<string, RelatedRef>();
  const wanted = [...new Set(refs)].slice(0, 100);
  if (!wanted.length) return found;
  const ids = wanted.filter(isDeckId).map((id) => id.toLowerCase());
  // Deck slugs are unique regardless of case (decks_slug_lower_idx): `[[deck:Case-X]]` is case-x.
  const slugs = wanted.filter((ref) => !isDeckId(ref)).map((ref) => ref.toLowerCase());
  const matches = [...(ids.length ? [inArray(decks.id, ids)] : []), ...(slugs.length ? [inArray(sql`lower(${decks.slug})`, slugs)] : [])];
  const rows = await db
    .select({ id: decks.id, slug: decks.slug, name: decks.name, eyecatchUrl: decks.eyecatchUrl, updatedAt: decks.updatedAt })
    .from(decks)
    .where(and(eq(decks.isPublic, true), or(...matches)));
  for (const ref of wanted) {
    const row = rows.find((r) => r.slug.toLowerCase() === ref.toLowerCase() || r.id === ref.toLowerCase());
    if (row) found.set(ref, { href: `/deck-recipes/${row.slug}`, title: row.name, date: row.updatedAt.toISOString(), thumbnailUrl: row.eyecatchUrl });
  }
  return found;
}
