/**
 * What every picture of a card is drawn from (grid, card page, pickers, offers, chat): the
 * art's three possible sources and what the designed placeholder prints when there is none.
 */
export type CardFace = {
  id: string;
  name: string;
  nameEn: string;
  rarity: string;
  /** The card's own image URL (CSV imports); first choice when set. */
  imageUrl: string;
  /** The catalogue's image file name, appended to CARD_IMAGE_BASE_URL. */
  imageFile: string | null;
  /** Public URL prefix of the art `cards:images` stored (`-thumb.webp` / `-full.webp`). */
  storedImage: string | null;
  /**
   * Public URL of the Pokémon's own artwork (`npm run cards:art`), drawn inside the placeholder
   * frame: not the card's picture, so it comes after all three sources above.
   */
  speciesArt: string | null;
  element: string | null;
  cardType: string | null;
  stage: string | null;
  hp: number | null;
  setCode: string | null;
  number: number | null;
};

/** Widths the stored art is re-encoded to (63:88, the printed card's ratio). */
export const ART_SIZES = { thumb: { width: 240, height: 335 }, full: { width: 480, height: 670 } } as const;

/** `src` for a grid-sized picture, `srcSet` when two sizes exist, `full` the largest (card page, og:image). */
export type CardArt = { src: string; srcSet?: string; full: string };

/**
 * The art to show, in order: the card's own imageUrl, the art loaded into our storage (two
 * sizes, so a srcset), the public image set under CARD_IMAGE_BASE_URL; null → the placeholder.
 */
export function cardArt(face: Pick<CardFace, "imageUrl" | "imageFile" | "storedImage">, imageBaseUrl: string | null | undefined): CardArt | null {
  if (face.imageUrl) return { src: face.imageUrl, full: face.imageUrl };
  if (face.storedImage) {
    const thumb = `${face.storedImage}-thumb.webp`;
    const full = `${face.storedImage}-full.webp`;
    return { src: thumb, srcSet: `${thumb} ${ART_SIZES.thumb.width}w, ${full} ${ART_SIZES.full.width}w`, full };
  }
  if (imageBaseUrl && face.imageFile) {
    const src = `${imageBaseUrl.replace(/\/+$/, "")}/${face.imageFile}`;
    return { src, full: src };
  }
  return null;
}

/** Card kinds (`cards.card_type`) that are trainers, not Pokémon. */
export const TRAINER_TYPES = ["supporter", "item", "tool", "fossil", "stadium", "trainer"] as const;
const TRAINER_TYPE_SET = new Set<string>(TRAINER_TYPES);

export function isTrainerCard(face: Pick<CardFace, "cardType">): boolean {
  return TRAINER_TYPE_SET.has(face.cardType ?? "");
}

/** Elements the frame colours and the 草 炎 水 … labels know. */
export const ELEMENTS = ["grass", "fire", "water", "lightning", "psychic", "fighting", "darkness", "metal", "dragon", "colorless"] as const;
export type Element = (typeof ELEMENTS)[number];
/** A card's frame: its element, or "unknown" where the catalogue has no type (never 無色 by default). */
export type Frame = Element | "unknown";

export function elementOf(face: Pick<CardFace, "element">): Frame {
  const e = (face.element ?? "").toLowerCase();
  if (e === "dark") return "darkness";
  if (e === "steel") return "metal";
  if (e === "electric") return "lightning";
  if (e === "fairy") return "psychic";
  return (ELEMENTS as readonly string[]).includes(e) ? (e as Element) : "unknown";
}

/** The marker printed after a Pokémon's name (ex), when the name carries it. */
export function isExCard(face: Pick<CardFace, "name" | "nameEn">): boolean {
  return /ex$/.test(face.name) || / ex$/i.test(face.nameEn);
}

/** Message keys (cardsMessages) of each type, stage and trainer kind. */
export const TYPE_MESSAGE = {
  grass: "typeGrass",
  fire: "typeFire",
  water: "typeWater",
  lightning: "typeLightning",
  psychic: "typePsychic",
  fighting: "typeFighting",
  darkness: "typeDarkness",
  metal: "typeMetal",
  dragon: "typeDragon",
  colorless: "typeColorless",
} as const satisfies Record<Element, string>;

export const STAGE_MESSAGE: Partial<Record<string, "stageBasic" | "stageStage1" | "stageStage2">> = {
  basic: "stageBasic",
  stage1: "stageStage1",
  stage2: "stageStage2",
};

type TrainerMessage = "trainerSupporter" | "trainerItem" | "trainerTool" | "trainerFossil" | "trainerStadium" | "trainerGeneric";

/** グッズ, サポート, ポケモンのどうぐ, 化石, スタジアム; any other trainer reads トレーナーズ. */
export function trainerMessage(cardType: string | null): TrainerMessage {
  const keys: Partial<Record<string, TrainerMessage>> = {
    supporter: "trainerSupporter",
    item: "trainerItem",
    tool: "trainerTool",
    fossil: "trainerFossil",
    stadium: "trainerStadium",
  };
  return keys[cardType ?? ""] ?? "trainerGeneric";
}
