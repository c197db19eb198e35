import type { ReactNode } from "react";
import type { CardFace } from "#app/lib/card-face.ts";
import { cardPrint } from "#app/lib/card-print.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import { useT } from "#app/lib/i18n.tsx";
import { CardThumb } from "#app/features/cards/components/card-image.tsx";
import { TradeCosts } from "#app/features/cards/components/trade-costs.tsx";
import { chatMessages } from "#app/features/chat/messages.ts";
import { readerSide, sidesForReader } from "#app/features/chat/reader-side.ts";

/** A card of the room's offer: what its picture is drawn from, its side and how many copies. */
export type RoomOfferCard = Omit<CardFace, "id"> & { cardId: string; side: "give" | "want"; count: number };

/** The offer's 何でも可 sides: such a side names no card (any card of the other side's rarities). */
export type RoomOfferAny = { giveAny: boolean; wantAny: boolean };
const isAny = (side: "give" | "want", any: RoomOfferAny) => (side === "give" ? any.giveAny : any.wantAny);

/**
 * One side of the offer as a line of text: its cards, or 何でも可 when it names none, so a room
 * list never reads "あなたが渡す: ⇄ …".
 */
export function roomSideText(
  cards: readonly { side: "give" | "want"; name: string; rarity: string }[],
  side: "give" | "want",
  any: RoomOfferAny,
  anyLabel: string,
  separator = "",
): string {
  // A 何でも可 side reads 何でも可 until the partner names its card (which then stands in the list).
  if (isAny(side, any) && !cards.some((c) => c.side === side)) return anyLabel;
  return cards
    .filter((c) => c.side === side)
    .map((c) => `${c.name}${separator}${displayRarity(c.rarity)}`)
    .join("・");
}

/** The offer's cards in the chat room from the reader's side: あなたが渡す, then 相手から受け取る. */
export function RoomOfferCards({
  cards,
  role,
  any,
  tradeCosts = {},
  chosenLabel,
  chooser,
}: {
  cards: RoomOfferCard[];
  role: "owner" | "partner";
  any: RoomOfferAny;
  tradeCosts?: Record<string, number>;
  /** Who named the card standing on the 何でも可 side (あなたが選んだカード / ○○さんが選んだカード). */
  chosenLabel?: string;
  /** What the 何でも可 side shows under its card: the partner's chooser, or the owner's wait. */
  chooser?: ReactNode;
}) {
  const t = useT(chatMessages);
  return (
    <>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {sidesForReader(role).map((side) => (
          <div key={side} data-testid={`room-cards-${readerSide(side, role)}`}>
            <h3 className="text-sm font-bold text-slate-700">{t(readerSide(side, role))}</h3>
            {isAny(side, any) ? (
              <p className="mt-1 text-sm" data-testid="room-any-side">
                <span className="inline-block rounded border border-dashed border-slate-400 bg-white px-2 py-0.5 font-bold">{t("anySide")}</span>
                <span className="ml-2 text-xs text-slate-600">{cards.some((c) => c.side === side) && chosenLabel ? chosenLabel : t("anySideHint")}</span>
              </p>
            ) : null}
            <ul className="mt-1 flex flex-wrap gap-1 text-sm">
              {cards
                .filter((c) => c.side === side)
                .map((c) => {
                  const print = cardPrint(c);
                  return (
                    <li key={c.cardId} className="flex items-center gap-1.5 rounded border border-slate-200 bg-slate-50 py-0.5 pl-0.5 pr-2">
                      <CardThumb face={c} />
                      <span>
                        {c.name} <span className="text-rarity">{displayRarity(c.rarity)}</span>
                        {print ? <span className="ml-1 text-xs text-slate-600">{print}</span> : null}
                        {c.count > 1 ? ` ×${c.count}` : ""}
                      </span>
                    </li>
                  );
                })}
            </ul>
            {isAny(side, any) ? chooser : null}
          </div>
        ))}
      </div>
      <TradeCosts rarities={cards.map((c) => c.rarity)} costs={tradeCosts} />
    </>
  );
}

/**
 * The folded trade panel's summary from the reader's side, one part per side: "渡す: A" and
 * "もらう: B". The panel shows each part on its own line, so a phone shows both sides.
 */
export function roomOfferLine(
  cards: RoomOfferCard[],
  role: "owner" | "partner",
  any: RoomOfferAny,
  label: (key: "lineGive" | "lineReceive" | "anySide") => string,
): string[] {
  return sidesForReader(role).map((side) => `${label(readerSide(side, role) === "youGive" ? "lineGive" : "lineReceive")}: ${roomSideText(cards, side, any, label("anySide"))}`);
}
