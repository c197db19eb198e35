// Data the page benchmarks share: a long article's text, and a signed-up trader whose offers use
// the board's most popular cards (so マッチ has work to do).
import { eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { profiles } from "#app/db/schema/index.ts";
import { createOffer } from "#app/features/trades/offers.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { ensureProfile, getAuth } from "#app/features/users/auth.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import type { seedTradeOffers } from "#scripts/seed-trades.ts";

/** About 10,000 characters of the kind of text the editor produces. */
export function longArticle(cardIds: string[]): string {
  const sections: string[] = [];
  for (let i = 1; sections.join("\n").length < 10_000; i++) {
    sections.push(
      `## 第${i}章 デッキの組み方と立ち回り`,
      `序盤は**エネルギーの加速**を優先し、*サポート*で手札を整えます。詳しくはhttps://example.com/guide/${i}を参照してください。`,
      `- ポイント${i}-1: ベンチに控えを置く\n- ポイント${i}-2: 相手のエースを見極める\n- ポイント${i}-3: サイドの取り方を考える`,
      `[[card:${cardIds[i % cardIds.length]}]]`,
      `中盤以降は相手の動きに合わせて入れ替えを使い分けます。[公式サイト](https://example.com/official/${i})のルールも確認しましょう。`.repeat(2),
    );
  }
  return sections.join("\n\n").slice(0, 10_000);
}

/**
 * Signs `trader` up (with a friend ID) and posts three offers, one per common rarity: each gives
 * what others want most and wants what others give most (kept apart from each other).
 */
export async function seedBenchTrader(
  db: Db,
  dataDir: string,
  trader: { name: string; email: string; password: string },
  seeded: Awaited<ReturnType<typeof seedTradeOffers>>,
): Promise<string> {
  const env = loadEnv({ DATA_DIR: dataDir, SITE_URL: "http://127.0.0.1", LOG_LEVEL: "silent" });
  const signUp = await getAuth(db, env).api.signUpEmail({ body: trader });
  await ensureProfile(db, signUp.user.id, trader.name);
  await db.update(profiles).set({ friendId: "1111222233334444" }).where(eq(profiles.userId, signUp.user.id));
  for (const rarity of ["◆◆◆◆", "☆", "◆◆◆"]) {
    const popular = seeded.popular[rarity];
    if (!popular) continue;
    const want = popular.give.slice(0, 2);
    const give = popular.want.filter((c) => !want.includes(c)).slice(0, 2);
    await createOffer(db, signUp.user.id, OfferInputSchema.parse({ give: give.map((cardId) => ({ cardId, count: 1 })), want: want.map((cardId) => ({ cardId, count: 1 })) }));
  }
  return signUp.user.id;
}
