import { and, eq, inArray, or } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import { decks } from "../../db/schema/decks";
import { cardIndex } from "../cards/card-index.server";
import type { CardRef, ContentRefs, RelatedRef } from "../content/blocks";
import { contentRefIds } from "../content/format";
import { isDeckId } from "./rules";

/**
 * The lookup of `[[deck:<slug or id>]]` blocks (docs/content-format.md): public decks only, keyed
 * by the reference as typed. Articles' rendering uses it for their deck blocks too.
 */
export async function deckContentRefs(db: Db, refs: readonly string[]): Promise<Map<string, RelatedRef>> {
  const found = new Map<string, RelatedRef>();
  const wanted = [...new Set(refs)].slice(0, 100);
  if (!wanted.length) return found;
  const ids = wanted.filter(isDeckId).map((id) => id.toLowerCase());
  const slugs = wanted.filter((ref) => !isDeckId(ref));
  const matches = [...(ids.length ? [inArray(decks.id, ids)] : []), ...(slugs.length ? [inArray(decks.slug, slugs)] : [])];
  const rows = await db
    .select({ id: decks.id, slug: decks.slug, name: decks.name, eyecatchUrl: decks.eyecatchUrl, updatedAt: decks.updatedAt })
    .from(decks)
    .where(and(eq(decks.isPublic, true), or(...matches)));
  for (const ref of wanted) {
    const row = rows.find((r) => r.slug === ref || r.id === ref.toLowerCase());
    if (row) found.set(ref, { href: `/deck-recipes/${row.slug}`, title: row.name, date: row.updatedAt.toISOString(), thumbnailUrl: row.eyecatchUrl });
  }
  return found;
}

/** What a deck description's blocks refer to: cards from the card index, decks from the table. */
export async function resolveDeckContentRefs(db: Db, source: string): Promise<ContentRefs> {
  const ids = contentRefIds(source);
  const cards = new Map<string, CardRef>();
  if (ids.cards.length) {
    const index = await cardIndex(db);
    for (const id of ids.cards) {
      const card = index.byId.get(id);
      if (card) cards.set(id, { id: card.id, name: card.name, rarity: card.rarity, imageUrl: card.imageUrl });
    }
  }
  return { cards, decks: await deckContentRefs(db, ids.decks) };
}
