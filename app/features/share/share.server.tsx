import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { packs } from "#app/db/schema/index.ts";
import { elementOf, isTrainerCard, STAGE_MESSAGE, TYPE_MESSAGE, type CardFace } from "#app/lib/card-face.ts";
import { translate } from "#app/lib/i18n.tsx";
import { displayRarity } from "#app/lib/rarity.ts";
import { getCard, type CardDetail } from "#app/features/cards/cards.server.ts";
import { cardsMessages, type CardsMessageKey } from "#app/features/cards/messages.ts";
import { speciesArtDataUrl } from "#app/features/cards/species-art.server.ts";
import { ENERGY_TYPES, getDeck } from "#app/features/decks/decks.server.ts";
import type { DeckDetail } from "#app/features/decks/types.ts";
import { getOffer } from "#app/features/trades/offers.server.ts";
import type { OfferView } from "#app/features/trades/types.ts";
import type { UploadStore } from "#app/features/uploads/storage.server.ts";
import { IMAGE_WORK_CONCURRENCY } from "#app/features/uploads/upload-gate.server.ts";
import { createWorkPool } from "#app/lib/work-pool.server.ts";
import { shareMessages } from "./messages";
import { renderShareImage } from "./render.server";
import { CardShareImage, DECK_TILES, DeckShareImage, OFFER_TILES, OfferShareImage, rarityText, type CardShareModel, type DeckShareModel, type OfferShareModel, type ShareCard } from "./templates.server";

/**
 * Open Graph images of deck recipes, offers and cards (docs/decisions/021). Each image is a
 * pure function of its model; the model's hash (with RENDER_VERSION) is the image's revision
 * and part of its URL, so an edited deck or an offer that closed gets a new URL, and a URL's
 * bytes never change: they are cached for a year and kept in the upload store.
 */
export const SHARE_KINDS = ["deck", "offer", "card"] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];

// Bump when the templates change: every image gets a new revision and is drawn again.
const RENDER_VERSION = 2;
const REVISION = /^[0-9a-f]{16}$/;
const ja = (key: keyof (typeof shareMessages)["ja"], params?: Record<string, string | number>) => translate(shareMessages, "ja", key, params);

function frameOf(card: Pick<CardFace, "cardType" | "element">): ShareCard["frame"] {
  return isTrainerCard(card) ? "trainer" : elementOf(card);
}

/** The species artwork a tile draws (trainers have none). Its URL is part of the model, so loading art changes the revision. */
function artOf(card: Pick<CardFace, "cardType" | "speciesArt">): string | null {
  return isTrainerCard(card) ? null : (card.speciesArt ?? null);
}

export function deckShareModel(deck: Pick<DeckDetail, "name" | "tier" | "energyTypes" | "cards" | "legality">): DeckShareModel {
  return {
    name: deck.name,
    tier: deck.tier,
    total: deck.legality.total,
    energies: deck.energyTypes.map((value) => {
      const energy = ENERGY_TYPES.find((e) => e.value === value);
      return { label: energy?.ja ?? value, color: energy?.color ?? "#64748b" };
    }),
    // Only the tiles the image draws: rows past them would load art never drawn and change the revision.
    cards: deck.cards.slice(0, DECK_TILES).map((card) => ({ name: card.name, rarity: card.rarity, frame: frameOf(card), count: card.count, art: artOf(card) })),
    labels: { deckRecipe: ja("deckRecipe"), tier: ja("tier", { tier: deck.tier }), total: ja("cardsTotal", { count: deck.legality.total }) },
  };
}

const ENDED = { closed: "endedClosed", expired: "endedExpired", completed: "endedCompleted", negotiating: "endedNegotiating" } as const;

export function offerShareModel(offer: Pick<OfferView, "ownerName" | "give" | "want" | "status"> & Partial<Pick<OfferView, "giveAny" | "wantAny">>): OfferShareModel {
  // 何でも可: the other side's rarities, which the card chosen will have.
  const anyOf = (named: OfferView["give"]) => ja("anyCard", { rarity: [...new Set(named.map((c) => displayRarity(c.rarity)))].join("・") });
  const side = (cards: OfferView["give"]) => cards.slice(0, OFFER_TILES).map((card) => ({ name: card.name, rarity: card.rarity, frame: frameOf(card), count: card.count, art: artOf(card) }));
  const more = (cards: unknown[]) => (cards.length > OFFER_TILES ? ja("more", { count: cards.length - OFFER_TILES }) : null);
  return {
    owner: offer.ownerName,
    give: side(offer.give),
    want: side(offer.want),
    ended: offer.status === "open" ? null : ja(ENDED[offer.status]),
    labels: { heading: ja("offerHeading"), give: ja("give"), want: ja("want"), moreGive: more(offer.give), moreWant: more(offer.want) },
    ...(offer.giveAny ? { anyGive: anyOf(offer.want) } : {}),
    ...(offer.wantAny ? { anyWant: anyOf(offer.give) } : {}),
  };
}

export function cardShareModel(card: CardDetail, setName: string | null): CardShareModel {
  const t = (key: CardsMessageKey) => translate(cardsMessages, "ja", key);
  const element = elementOf(card);
  const stage = card.stage ? STAGE_MESSAGE[card.stage] : undefined;
  const kind = isTrainerCard(card) ? null : [element !== "unknown" ? t(TYPE_MESSAGE[element]) : null, stage ? t(stage) : null].filter(Boolean).join("・");
  const number = card.setCode && card.number !== null ? `${card.setCode} ${String(card.number).padStart(3, "0")}` : null;
  return {
    card: { name: card.name, rarity: card.rarity, frame: frameOf(card), art: artOf(card) },
    rarityLabel: rarityText(card.rarityLabelJa ?? card.rarity),
    nameEn: card.nameEn && card.nameEn !== card.name ? card.nameEn : null,
    facts: [kind, [number, setName && setName !== card.setCode ? setName : null].filter(Boolean).join("　")].filter((f): f is string => Boolean(f)),
    labels: { heading: ja("cardDatabase") },
  };
}

/** The revision of an image: what it draws, hashed. */
export function shareRevision(kind: ShareKind, model: unknown): string {
  return createHash("sha256").update(`${RENDER_VERSION}\n${kind}\n${JSON.stringify(model)}`).digest("hex").slice(0, 16);
}

/** The site-relative URL of an image (og:image, twitter:image, the deck page's download). */
export function shareImagePath(kind: ShareKind, id: string, model: unknown): string {
  return `/share/${kind}/${encodeURIComponent(id)}/${shareRevision(kind, model)}.webp`;
}

/**
 * The model with each tile's artwork URL replaced by its bytes (satori draws data URLs, never
 * fetches). `complete` is false when some tile's art could not be read: that tile is drawn with
 * its frame only, and such an image must not be kept under the revision.
 */
async function withArtwork<M extends DeckShareModel | OfferShareModel | CardShareModel>(store: UploadStore, model: M): Promise<{ model: M; complete: boolean }> {
  const urls = new Map<string, Promise<string | null>>();
  let complete = true;
  const data = async (card: ShareCard): Promise<ShareCard> => {
    if (!card.art) return card;
    let pending = urls.get(card.art);
    if (!pending) {
      pending = speciesArtDataUrl(store, card.art).catch(() => null);
      urls.set(card.art, pending);
    }
    const art = await pending;
    if (!art) complete = false;
    return { ...card, art };
  };
  const all = (cards: ShareCard[]) => Promise.all(cards.map(data));
  if ("give" in model) return { model: { ...model, give: await all(model.give), want: await all(model.want) }, complete };
  if ("cards" in model) return { model: { ...model, cards: await all(model.cards) }, complete };
  return { model: { ...model, card: await data(model.card) }, complete };
}

function draw(kind: ShareKind, model: DeckShareModel | OfferShareModel | CardShareModel): Promise<Buffer> {
  if (kind === "deck") return renderShareImage(<DeckShareImage model={model as DeckShareModel} />);
  if (kind === "offer") return renderShareImage(<OfferShareImage model={model as OfferShareModel} />);
  return renderShareImage(<CardShareImage model={model as CardShareModel} />);
}

async function setNameOf(db: Db, setCode: string | null): Promise<string | null> {
  if (!setCode) return null;
  const [row] = await db.select({ name: packs.setNameJa }).from(packs).where(eq(packs.setCode, setCode)).limit(1);
  return row?.name ?? null;
}

/** The model of what `kind`/`id` shows now; null when it does not exist or is not public. */
export async function shareModel(db: Db, kind: ShareKind, id: string): Promise<DeckShareModel | OfferShareModel | CardShareModel | null> {
  if (kind === "deck") {
    const deck = await getDeck(db, id);
    return deck ? deckShareModel(deck) : null;
  }
  if (kind === "offer") {
    // As a signed-out reader sees it: a suspended owner's offer has no image either.
    const offer = await getOffer(db, id, null);
    return offer ? offerShareModel(offer) : null;
  }
  const card = await getCard(db, id);
  return card ? cardShareModel(card, await setNameOf(db, card.setCode)) : null;
}

/**
 * `kept` is false for an image drawn without some tile's artwork (the art could not be read): it
 * is not stored and must not be cached, so a later request draws it again.
 */
export type ShareImageAnswer = { kind: "image"; bytes: Buffer; kept: boolean } | { kind: "moved"; path: string } | { kind: "missing" } | { kind: "busy" };

// One drawing per image at a time in this process: a link shared to a busy chat is fetched by
// many previews at once.
const drawing = new Map<string, Promise<{ bytes: Buffer; kept: boolean }>>();
// Drawing takes a core for seconds: after a deploy, crawlers fetching hundreds of images at once
// must not starve page answers. Past the pool's line the answer is "busy" (503, retried later).
const drawPool = createWorkPool({ concurrency: IMAGE_WORK_CONCURRENCY, maxWaiting: IMAGE_WORK_CONCURRENCY * 8 });

/**
 * The image of `kind`/`id` at `revision`: from the upload store, else drawn now and stored. An
 * old revision moves to the current one; an unknown or private subject is missing.
 */
export async function shareImage(db: Db, store: UploadStore, kind: ShareKind, id: string, revision: string): Promise<ShareImageAnswer> {
  if (!REVISION.test(revision) || id.length > 100) return { kind: "missing" };
  const model = await shareModel(db, kind, id);
  if (!model) return { kind: "missing" };
  const current = shareRevision(kind, model);
  if (current !== revision) return { kind: "moved", path: shareImagePath(kind, id, model) };
  const key = `share/${kind}-${id.replace(/[^A-Za-z0-9_-]/g, "_")}-${current}.webp`;
  const stored = await store.get(key);
  if (stored) return { kind: "image", bytes: stored, kept: true };
  let pending = drawing.get(key);
  if (!pending) {
    const place = drawPool.enter();
    if (!place) return { kind: "busy" };
    pending = place
      .run(async () => {
        const drawn = await withArtwork(store, model);
        return { bytes: await draw(kind, drawn.model), kept: drawn.complete };
      })
      .then(async (image) => {
        if (image.kept) await store.put(key, image.bytes, "image/webp");
        return image;
      })
      .finally(() => drawing.delete(key));
    drawing.set(key, pending);
  }
  return { kind: "image", ...(await pending) };
}
