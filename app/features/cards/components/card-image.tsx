import { useContext, useEffect, useRef, useState } from "react";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { ART_SIZES, cardArt, elementOf, isExCard, isTrainerCard, STAGE_MESSAGE, trainerMessage, TYPE_MESSAGE, type CardFace, type Frame } from "#app/lib/card-face.ts";
import { cardsMessages } from "#app/features/cards/messages.ts";
import { cardName } from "#app/lib/card-name.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import { CardImageBaseUrlContext } from "./card-image-base-url";


// Full class names (Tailwind only generates classes it can read in the source).
const FRAME: Record<Frame, string> = {
  unknown: "bg-type-unknown",
  grass: "bg-type-grass",
  fire: "bg-type-fire",
  water: "bg-type-water",
  lightning: "bg-type-lightning",
  psychic: "bg-type-psychic",
  fighting: "bg-type-fighting",
  darkness: "bg-type-darkness",
  metal: "bg-type-metal",
  dragon: "bg-type-dragon",
  colorless: "bg-type-colorless",
};
const WINDOW: Record<Frame, string> = {
  unknown: "bg-type-unknown-soft",
  grass: "bg-type-grass-soft",
  fire: "bg-type-fire-soft",
  water: "bg-type-water-soft",
  lightning: "bg-type-lightning-soft",
  psychic: "bg-type-psychic-soft",
  fighting: "bg-type-fighting-soft",
  darkness: "bg-type-darkness-soft",
  metal: "bg-type-metal-soft",
  dragon: "bg-type-dragon-soft",
  colorless: "bg-type-colorless-soft",
};
const FILL: Record<Frame, string> = {
  unknown: "fill-type-unknown",
  grass: "fill-type-grass",
  fire: "fill-type-fire",
  water: "fill-type-water",
  lightning: "fill-type-lightning",
  psychic: "fill-type-psychic",
  fighting: "fill-type-fighting",
  darkness: "fill-type-darkness",
  metal: "fill-type-metal",
  dragon: "fill-type-dragon",
  colorless: "fill-type-colorless",
};
export type CardImageProps = {
  face: CardFace;
  /** Pack shown in the accessible name (the same card may be in several packs). */
  packName?: string;
  /** First-screen images load at once with high priority; the rest wait until scrolled to. */
  eager?: boolean;
  /** The `sizes` of the srcset: how wide the picture is drawn. */
  sizes?: string;
  className?: string;
  /** Beside the card's name already (pickers, chips): hidden from screen readers, so the name is read once. */
  decorative?: boolean;
};

/** The art to show and what to do when it fails to load (before hydration too). */
function useCardArt(face: Pick<CardFace, "imageUrl" | "imageFile" | "storedImage">) {
  const baseUrl = useContext(CardImageBaseUrlContext);
  const art = cardArt(face, baseUrl);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    // An image that failed before hydration fired its error event before React listened.
    const el = img.current;
    if (el && el.complete && el.naturalWidth === 0) setFailedSrc(el.getAttribute("src"));
  }, []);
  const onError = () => {
    if (art) setFailedSrc(art.src);
  };
  return { art: art && failedSrc !== art.src ? art : null, img, onError };
}

/**
 * The one picture of a card: its art when there is some (srcset of our two stored sizes,
 * width/height set so nothing shifts, lazy below the first screen), otherwise — or when the
 * art fails to load — a placeholder drawn like a TCG Pocket card.
 */
export function CardImage({ face, packName, eager = false, sizes = "(min-width: 768px) 160px, 30vw", className = "", decorative = false }: CardImageProps) {
  const locale = useLocale();
  const { art, img, onError } = useCardArt(face);
  const label = `${cardName(face, locale)}（${displayRarity(face.rarity)}${packName ? `・${packName}` : ""}）`;
  return (
    <div className={`@container relative aspect-[63/88] w-full ${className}`} data-card-art={art ? "image" : "placeholder"}>
      {art ? (
        <img
          ref={img}
          src={art.src}
          srcSet={art.srcSet}
          sizes={art.srcSet ? sizes : undefined}
          alt={decorative ? "" : label}
          width={ART_SIZES.thumb.width}
          height={ART_SIZES.thumb.height}
          loading={eager ? "eager" : "lazy"}
          fetchPriority={eager ? "high" : undefined}
          decoding="async"
          onError={onError}
          className="absolute inset-0 h-full w-full rounded-card bg-slate-200 object-cover shadow-card"
        />
      ) : decorative ? (
        <ThumbFrame face={face} />
      ) : (
        <CardPlaceholder face={face} label={label} eager={eager} />
      )}
    </div>
  );
}

/** What a thumbnail is drawn from: a chip may leave out what a card has none of. */
export type ThumbFace = Partial<Pick<CardFace, "imageUrl" | "imageFile" | "storedImage" | "speciesArt" | "element" | "cardType">>;

/**
 * A card's 28 px thumbnail beside its name (offer chips, the trade panel of a chat): decorative,
 * as CardImage's, in fewer elements — without art, two (a board page draws dozens; docs/decisions/026).
 */
export function CardThumb({ face }: { face: ThumbFace }) {
  const { art, img, onError } = useCardArt({ imageUrl: face.imageUrl ?? "", imageFile: face.imageFile ?? null, storedImage: face.storedImage ?? null });
  if (!art) return <ThumbFrame face={face} className="card-thumb card-thumb-frame" />;
  return (
    <span className="card-thumb">
      <img
        ref={img}
        src={art.src}
        srcSet={art.srcSet}
        sizes={art.srcSet ? "28px" : undefined}
        alt=""
        width={ART_SIZES.thumb.width}
        height={ART_SIZES.thumb.height}
        loading="lazy"
        decoding="async"
        onError={onError}
      />
    </span>
  );
}

/**
 * A thumbnail without art: the frame in the type's colour, the art window, and in it the species'
 * artwork or the type mark. One attribute picks the colours, and the mark is the window's own
 * ::after (app.css).
 */
function ThumbFrame({ face, className = "card-thumb-frame" }: { face: ThumbFace; className?: string }) {
  const trainer = isTrainerCard({ cardType: face.cardType ?? null });
  const element = elementOf({ element: face.element ?? null });
  const [failedArt, setFailedArt] = useState<string | null>(null);
  const artwork = !trainer && face.speciesArt && failedArt !== face.speciesArt ? face.speciesArt : null;
  return (
    <span aria-hidden="true" className={className} data-frame={trainer ? "trainer" : element} data-species-art={artwork ? "" : undefined}>
      <span>{artwork ? <SpeciesArtwork src={artwork} eager={false} onError={() => setFailedArt(artwork)} /> : null}</span>
    </span>
  );
}

/** A card drawn from its data: frame by type, stage, name (once), HP, ex, rarity, set and number. */
export function CardPlaceholder({ face, label, eager = false }: { face: CardFace; label: string; eager?: boolean }) {
  const t = useT(cardsMessages);
  const locale = useLocale();
  const trainer = isTrainerCard(face);
  const element = elementOf(face);
  const ex = !trainer && isExCard(face);
  const shownName = cardName(face, locale);
  const name = ex ? shownName.replace(/ ?ex$/, "") : shownName;
  const stageKey = face.stage ? STAGE_MESSAGE[face.stage] : undefined;
  const kind = trainer ? t(trainerMessage(face.cardType)) : stageKey ? t(stageKey) : null;
  const frame = trainer ? "bg-trainer-frame" : FRAME[element];
  const window = trainer ? "bg-trainer-soft" : WINDOW[element];
  // The Pokémon's own artwork in the art window (`npm run cards:art`); the type mark when there is none or it fails.
  const [failedArt, setFailedArt] = useState<string | null>(null);
  const artwork = !trainer && face.speciesArt && failedArt !== face.speciesArt ? face.speciesArt : null;
  const setNumber = face.setCode && face.number !== null ? `${face.setCode} ${String(face.number).padStart(3, "0")}` : (face.setCode ?? "");
  return (
    <div
      role="img"
      aria-label={label}
      className={`absolute inset-0 rounded-card p-[4.5%] shadow-card ${frame}`} data-card-kind={trainer ? "trainer" : "pokemon"} data-species-art={artwork ? "" : undefined}>
      <div aria-hidden="true" className="flex h-full flex-col overflow-hidden rounded-[5cqw] bg-white/95 text-slate-900">
        <div className="flex items-start gap-[2cqw] px-[5cqw] pt-[4cqw]">
          <div className="min-w-0 flex-1">
            {kind ? (
              <span className={`inline-block rounded-full px-[3cqw] text-[7cqw] font-bold leading-[1.5] text-white ${trainer ? "bg-trainer-ink" : "bg-slate-700"}`}>{kind}</span>
            ) : null}
            <p className="line-clamp-2 text-[9.5cqw] font-bold leading-[1.2] tracking-tight">
              {name}
              {ex ? <span className="ml-[1cqw] font-black italic text-ex">ex</span> : null}
            </p>
          </div>
          {!trainer ? (
            <div className="flex shrink-0 flex-col items-end">
              {face.hp ? (
                <span className="text-[9cqw] font-black leading-none">
                  <span className="text-[6cqw]">HP</span>
                  {face.hp}
                </span>
              ) : null}
              {element !== "unknown" ? <Emblem className={`mt-[1cqw] size-[13cqw] ${FILL[element]}`} letter={t(TYPE_MESSAGE[element]).slice(0, 1)} /> : null}
            </div>
          ) : null}
        </div>
        <div className={`relative mx-[5cqw] mt-[3cqw] grid flex-1 place-items-center overflow-hidden rounded-[3cqw] ${window}`}>
          {artwork ? (
            <SpeciesArtwork src={artwork} eager={eager} onError={() => setFailedArt(artwork)} />
          ) : (
            <Emblem className={`size-[40cqw] opacity-60 ${trainer ? "fill-trainer-frame" : FILL[element]}`} letter={trainer ? "T" : element === "unknown" ? undefined : t(TYPE_MESSAGE[element]).slice(0, 1)} />
          )}
        </div>
        <div className="flex items-end justify-between gap-[2cqw] px-[5cqw] pb-[3.5cqw] pt-[2.5cqw] text-[7cqw] leading-none">
          <span className="font-mono text-slate-600">{setNumber}</span>
          <span className="font-bold text-rarity">{displayRarity(face.rarity)}</span>
        </div>
      </div>
    </div>
  );
}

/**
 * The species' artwork inside the frame: decoration (the frame's label already names the card),
 * lazy unless the card is on the first screen (`eager`), and sized by the window so nothing shifts
 * when it arrives.
 */
function SpeciesArtwork({ src, eager, onError }: { src: string; eager: boolean; onError: () => void }) {
  const img = useRef<HTMLImageElement>(null);
  // Read at mount, not a dependency: a list passes a new callback with every render.
  const failed = useRef(onError);
  failed.current = onError;
  useEffect(() => {
    // Failed before hydration: React never heard the error event.
    const el = img.current;
    if (el && el.complete && el.naturalWidth === 0) failed.current();
  }, [src]);
  return <img ref={img} src={src} alt="" width={320} height={320} loading={eager ? "eager" : "lazy"} fetchPriority={eager ? "high" : undefined} decoding="async" onError={onError} className="h-[88%] w-[88%] object-contain drop-shadow-sm" />;
}

/** A round type mark. Drawn in SVG: it is decoration, and SVG text is not held to text contrast. */
function Emblem({ className, letter }: { className: string; letter?: string }) {
  return (
    <svg viewBox="0 0 40 40" className={className} aria-hidden="true" focusable="false">
      <circle cx="20" cy="20" r="19" stroke="white" strokeWidth="2" />
      {letter ? (
        <text x="20" y="27" textAnchor="middle" fontSize="20" fontWeight="700" fill="white">
          {letter}
        </text>
      ) : null}
    </svg>
  );
}
