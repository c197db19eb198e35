import { inArray } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { packs } from "#app/db/schema/index.ts";
import { tokyoLocalToIso } from "#app/lib/tokyo-time.ts";
import { applyCatalogueUpload, type CatalogueUpload } from "#app/features/cards/catalogue-upload.server.ts";
import type { CataloguePlan } from "#app/features/cards/catalogue-update.server.ts";
import { CardError } from "#app/features/cards/errors.ts";
import { tradeRulesChanged, writeTradeRuleChanges } from "#app/features/trades/trade-rules.server.ts";

/** A new set the admin keeps out of trading until a day (Japan time, the game's announcements). */
export type CatalogueHold = { setCode: string; until: string };

/**
 * The admin's 適用 of カタログ更新: the previewed plan (refused 409 when it is no longer the one
 * previewed) and, in the same transaction, a "not tradeable until" rule on every pack of each held
 * new set, written through the trade-rules service so the rules page, the picker and the server
 * read it like any other rule. A new set not held trades from the moment it is applied, as the game
 * has let recent sets trade from their release.
 */
export async function applyCatalogueUpdateAsAdmin(db: Db, upload: CatalogueUpload, digest: string, holds: readonly CatalogueHold[], adminId: string): Promise<CataloguePlan> {
  const now = new Date().toISOString();
  const untilOf = new Map<string, string>();
  for (const hold of holds) {
    const until = tokyoLocalToIso(`${hold.until}T00:00`);
    if (!until || until <= now) throw new CardError("catalogue_hold_invalid", { set: hold.setCode });
    untilOf.set(hold.setCode, until);
  }
  const plan = await applyCatalogueUpload(db, upload, digest, async (tx, plan) => {
    const held = plan.newSets.filter((set) => untilOf.has(set.code));
    if (!held.length) return;
    const setPacks = await tx.select({ id: packs.id, setCode: packs.setCode }).from(packs).where(inArray(packs.setCode, held.map((s) => s.code)));
    for (const pack of setPacks) {
      const until = untilOf.get(pack.setCode)!;
      await writeTradeRuleChanges(tx, { scope: "pack", target: pack.id, tradeable: false, effectiveAt: now, until, note: `カタログ更新: ${pack.setCode} は ${holds.find((h) => h.setCode === pack.setCode)!.until} からトレード可能` }, adminId);
    }
  });
  if (plan.changes && plan.newSets.some((set) => untilOf.has(set.code))) tradeRulesChanged(db);
  return plan;
}
