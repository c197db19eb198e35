import type { CSSProperties, ReactNode } from "react";

/**
 * Share images as satori draws them (flexbox only; every element with several children says
 * display:flex). Pure functions of their model: the same model always gives the same picture,
 * which is what the image's revision in its URL relies on.
 */

export type ShareFrame = "grass" | "fire" | "water" | "lightning" | "psychic" | "fighting" | "darkness" | "metal" | "dragon" | "colorless" | "unknown" | "trainer";

/**
 * A card as a share image draws it: a frame in its type's colour with its name, rarity and, when
 * `npm run cards:art` stored one, the Pokémon's artwork in the art window (its URL in the model,
 * a data URL by the time it is drawn).
 */
export type ShareCard = { name: string; rarity: string; frame: ShareFrame; count?: number; art?: string | null };

// The card frame colours of app.css (--color-type-*), frame and art window.
const FRAMES: Record<ShareFrame, [string, string]> = {
  grass: ["#3f9a3a", "#a8d99a"],
  fire: ["#e0512b", "#f7b39a"],
  water: ["#2f7fd0", "#9cc8f0"],
  lightning: ["#e8b90c", "#f7e08a"],
  psychic: ["#9a4fb8", "#d8b2e6"],
  fighting: ["#b2602a", "#e3b892"],
  darkness: ["#2f4d5a", "#8fa7b1"],
  metal: ["#7d8a96", "#ccd4da"],
  dragon: ["#a08a2a", "#ddd09a"],
  colorless: ["#a7a29a", "#e5e2dc"],
  unknown: ["#94a3b8", "#eef2f6"],
  trainer: ["#9aa3ad", "#dfe4ea"],
};

const INK = "#0f172a";
const BRAND = "#c2410c";

/** The font has no ✦ nor 👑: those rarities are written out. */
export function rarityText(rarity: string): string {
  if (rarity.includes("👑")) return "クラウン";
  if (/^✦+$/u.test(rarity)) return `色違い${rarity.length}`;
  if (rarity === "PROMO") return "プロモ";
  return rarity.replace(/✦/gu, "");
}

const row = (style: CSSProperties = {}): CSSProperties => ({ display: "flex", flexDirection: "row", ...style });
const column = (style: CSSProperties = {}): CSSProperties => ({ display: "flex", flexDirection: "column", ...style });

function Frame({ children, background = "#f8fafc" }: { children: ReactNode; background?: string }) {
  return (
    // Sizes here are content-box: the margin, not a padding, keeps the content inside 1200×630.
    <div style={row({ width: "100%", height: "100%", background, color: INK, fontFamily: "Noto Sans JP" })}>
      <div style={column({ position: "relative", flexGrow: 1, margin: "36px 48px" })}>{children}</div>
    </div>
  );
}

function Brand({ label }: { label: string }) {
  return (
    <div style={row({ alignItems: "center", gap: 16, fontSize: 28 })}>
      <div style={{ display: "flex", color: BRAND, fontWeight: 700, fontSize: 34 }}>トレポケ</div>
      <div style={{ display: "flex", color: "#475569" }}>{label}</div>
    </div>
  );
}

/** One card, `width` px wide at the printed card's 63:88. */
export function CardTile({ card, width }: { card: ShareCard; width: number }) {
  const [frame, window] = FRAMES[card.frame];
  const height = Math.round((width * 88) / 63);
  const pad = Math.max(4, Math.round(width * 0.05));
  const nameSize = Math.max(12, Math.round(width / (card.name.length > 6 ? 8.5 : 6.5)));
  return (
    <div style={column({ position: "relative", width: width - 2 * pad, height: height - 2 * pad, background: frame, borderRadius: Math.round(width * 0.07), padding: pad })}>
      <div style={column({ flexGrow: 1, background: "white", borderRadius: Math.round(width * 0.05), padding: pad, overflow: "hidden" })}>
        <div style={{ display: "flex", fontSize: nameSize, fontWeight: 700, lineHeight: 1.15, maxHeight: nameSize * 2.4, overflow: "hidden" }}>{card.name}</div>
        <div style={{ display: "flex", flexGrow: 1, marginTop: pad, background: window, borderRadius: Math.round(width * 0.03), alignItems: "center", justifyContent: "center", overflow: "hidden" }}>
          {card.art?.startsWith("data:") ? <img src={card.art} width={Math.round(width * 0.62)} height={Math.round(width * 0.62)} style={{ objectFit: "contain" }} /> : null}
        </div>
        <div style={{ display: "flex", justifyContent: "flex-end", marginTop: pad, fontSize: Math.max(11, Math.round(width / 9)), fontWeight: 700, color: "#b45309" }}>{rarityText(card.rarity)}</div>
      </div>
      {card.count && card.count > 1 ? (
        <div
          style={{ display: "flex", position: "absolute", left: -8, bottom: -8, background: INK, color: "white", borderRadius: 999, padding: "2px 12px", fontSize: Math.max(16, Math.round(width / 5.5)), fontWeight: 700 }}
        >
          {`×${card.count}`}
        </div>
      ) : null}
    </div>
  );
}

export type DeckShareModel = {
  name: string;
  tier: number;
  total: number;
  energies: { label: string; color: string }[];
  cards: ShareCard[];
  labels: { deckRecipe: string; tier: string; total: string };
};

/** Tiles an image draws: a deck's first 20 rows, an offer's first 3 cards per side (the rest counted). */
export const DECK_TILES = 20;
export const OFFER_TILES = 3;

/** A deck recipe: name, tier, energy types and its cards as a grid (up to two rows of ten). */
export function DeckShareImage({ model }: { model: DeckShareModel }) {
  const cards = model.cards.slice(0, DECK_TILES);
  // One row up to ten cards, else two; a tile as wide as both the row and the height below the title allow.
  const rows = cards.length > 10 ? 2 : 1;
  const perRow = Math.max(Math.ceil(cards.length / rows), 5);
  const byWidth = Math.floor((1104 - (perRow - 1) * 14) / perRow);
  const byHeight = Math.floor((((rows === 2 ? 340 : 320) - (rows - 1) * 14) / rows) * (63 / 88));
  const width = Math.min(160, byWidth, byHeight);
  return (
    <Frame background="linear-gradient(135deg, #fff7ed 0%, #f8fafc 60%)">
      <Brand label={model.labels.deckRecipe} />
      <div style={row({ alignItems: "center", gap: 18, marginTop: 14 })}>
        <div style={{ display: "flex", background: "#f59e0b", color: INK, fontWeight: 700, fontSize: 30, borderRadius: 999, padding: "2px 20px" }}>{model.labels.tier}</div>
        {model.energies.map((energy) => (
          <div key={energy.label} style={{ display: "flex", background: energy.color, color: "white", fontWeight: 700, fontSize: 26, borderRadius: 999, padding: "2px 16px" }}>
            {energy.label}
          </div>
        ))}
        <div style={{ display: "flex", fontSize: 28, color: "#475569" }}>{model.labels.total}</div>
      </div>
      <div style={{ display: "flex", fontSize: model.name.length > 18 ? 48 : 60, fontWeight: 700, marginTop: 8, lineHeight: 1.2, maxHeight: 150, overflow: "hidden" }}>{model.name}</div>
      <div style={row({ flexGrow: 1, flexWrap: "wrap", gap: 14, alignContent: "center", alignItems: "center", justifyContent: "center" })}>
        {cards.map((card, i) => (
          <CardTile key={i} card={card} width={width} />
        ))}
      </div>
    </Frame>
  );
}

export type OfferShareModel = {
  owner: string;
  give: ShareCard[];
  want: ShareCard[];
  /** Set when the offer no longer takes answers: "この募集は期限切れです". */
  ended: string | null;
  labels: { heading: string; give: string; want: string; moreGive: string | null; moreWant: string | null };
  /** 何でも可 on that side: its words in place of cards ("何でも可（◆◆）"). */
  anyGive?: string | null;
  anyWant?: string | null;
};

function Side({ label, cards, more, color, any }: { label: string; cards: ShareCard[]; more: string | null; color: string; any?: string | null }) {
  return (
    <div style={column({ alignItems: "center", gap: 14, flexGrow: 1, flexBasis: 0 })}>
      <div style={{ display: "flex", background: color, color: "white", fontWeight: 700, fontSize: 44, borderRadius: 16, padding: "0 26px" }}>{label}</div>
      {any ? (
        <div style={{ display: "flex", fontSize: 44, fontWeight: 700, border: "4px dashed #94a3b8", borderRadius: 20, padding: "60px 30px", color: "#334155" }}>{any}</div>
      ) : (
        <div style={row({ gap: 14, justifyContent: "center" })}>
          {cards.map((card, i) => (
            <CardTile key={i} card={card} width={cards.length > 2 ? 120 : 160} />
          ))}
        </div>
      )}
      {more ? <div style={{ display: "flex", fontSize: 26, color: "#475569" }}>{more}</div> : null}
    </div>
  );
}

/** An offer: 譲 → 求 with the cards and their rarity; a closed or expired one says so across it. */
export function OfferShareImage({ model }: { model: OfferShareModel }) {
  return (
    <Frame>
      <Brand label={model.labels.heading} />
      <div style={{ display: "flex", fontSize: 34, fontWeight: 700, marginTop: 6 }}>{model.owner}</div>
      <div style={row({ alignItems: "center", marginTop: "auto", marginBottom: "auto", gap: 10 })}>
        <Side label={model.labels.give} cards={model.give.slice(0, OFFER_TILES)} more={model.labels.moreGive} color="#c2410c" any={model.anyGive} />
        <div style={{ display: "flex", fontSize: 80, color: "#94a3b8", fontWeight: 700 }}>→</div>
        <Side label={model.labels.want} cards={model.want.slice(0, OFFER_TILES)} more={model.labels.moreWant} color="#0369a1" any={model.anyWant} />
      </div>
      {model.ended ? (
        <div style={row({ position: "absolute", left: 0, right: 0, top: 250, height: 130, alignItems: "center", justifyContent: "center", background: "rgba(15, 23, 42, 0.86)", color: "white", fontSize: 56, fontWeight: 700 })}>
          {model.ended}
        </div>
      ) : null}
    </Frame>
  );
}

export type CardShareModel = {
  card: ShareCard;
  /** ◆1 … ☆3, クラウン: the rarity as players say it. */
  rarityLabel: string;
  nameEn: string | null;
  facts: string[];
  labels: { heading: string };
};

/** A card: its picture and name, rarity, set and number. */
export function CardShareImage({ model }: { model: CardShareModel }) {
  return (
    <Frame>
      <div style={row({ gap: 56, flexGrow: 1, alignItems: "center" })}>
        <CardTile card={{ ...model.card, count: undefined }} width={370} />
        <div style={column({ gap: 16, flexGrow: 1, flexBasis: 0 })}>
          <Brand label={model.labels.heading} />
          <div style={{ display: "flex", fontSize: model.card.name.length > 12 ? 56 : 76, fontWeight: 700, lineHeight: 1.15 }}>{model.card.name}</div>
          {model.nameEn ? <div style={{ display: "flex", fontSize: 30, color: "#475569" }}>{model.nameEn}</div> : null}
          <div style={{ display: "flex", fontSize: 40, fontWeight: 700, color: "#b45309" }}>{model.rarityLabel}</div>
          {model.facts.map((fact) => (
            <div key={fact} style={{ display: "flex", fontSize: 30, color: "#334155" }}>
              {fact}
            </div>
          ))}
        </div>
      </div>
    </Frame>
  );
}
