import type { CardFace } from "../../../lib/card-face";
import { displayRarity } from "../../../lib/rarity";
import { useT } from "../../../lib/i18n";
import { CardImage } from "../../cards/components/card-image";
import { chatMessages } from "../messages";

/** A card of the room's offer: what its picture is drawn from, its side and how many copies. */
export type RoomOfferCard = Omit<CardFace, "id"> & { cardId: string; side: "give" | "want"; count: number };

/** The offer's cards in the chat room, 譲 and 求 side by side, each with its thumbnail. */
export function RoomOfferCards({ cards }: { cards: RoomOfferCard[] }) {
  const t = useT(chatMessages);
  return (
    <div className="mt-2 grid gap-2 sm:grid-cols-2">
      {(["give", "want"] as const).map((side) => (
        <div key={side}>
          <h3 className="text-sm font-bold text-slate-700">
            {t(side === "give" ? "giveLong" : "wantLong")}（{t(side)}）
          </h3>
          <ul className="mt-1 flex flex-wrap gap-1 text-sm">
            {cards
              .filter((c) => c.side === side)
              .map((c) => (
                <li key={c.cardId} className="flex items-center gap-1.5 rounded border border-slate-200 bg-slate-50 py-0.5 pl-0.5 pr-2">
                  <span className="w-7 shrink-0">
                    <CardImage face={{ ...c, id: c.cardId }} sizes="28px" decorative />
                  </span>
                  <span>
                    {c.name} <span className="text-rarity">{displayRarity(c.rarity)}</span>
                    {c.count > 1 ? ` ×${c.count}` : ""}
                  </span>
                </li>
              ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
