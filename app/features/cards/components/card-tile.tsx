import { useEffect, useRef, useState } from "react";
import { displayRarity } from "../../../lib/rarity";

type CardTileProps = {
  name: string;
  rarity: string;
  packName: string;
  imageUrl: string;
  /** Above-the-fold tiles load eagerly; the rest wait until they scroll into view. */
  eager?: boolean;
};

/**
 * A card at its printed 63:88 ratio. When the image is missing or fails to load (card images
 * are not bundled), a readable placeholder shows the name, rarity and pack instead.
 */
export function CardTile({ name, rarity, packName, imageUrl, eager = false }: CardTileProps) {
  const [failed, setFailed] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    // An image that failed before hydration fires no onError: check it once mounted.
    const el = img.current;
    if (el && el.complete && el.naturalWidth === 0) setFailed(true);
  }, []);
  const shownRarity = displayRarity(rarity);
  if (!imageUrl || failed) {
    return (
      <div
        className="flex aspect-[63/88] w-full flex-col justify-between rounded-lg border-2 border-slate-300 bg-gradient-to-b from-white to-slate-100 p-2 text-slate-800 shadow-sm"
        role="img"
        aria-label={`${name}（${shownRarity}・${packName}）`}
      >
        <span className="text-sm font-bold leading-tight">{name}</span>
        <span className="text-center text-lg text-amber-600" aria-hidden="true">
          {shownRarity}
        </span>
        <span className="text-[0.7rem] leading-tight text-slate-600">{packName}</span>
      </div>
    );
  }
  return (
    <img
      ref={img}
      src={imageUrl}
      alt={`${name}（${shownRarity}・${packName}）`}
      width={245}
      height={342}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      onError={() => setFailed(true)}
      className="aspect-[63/88] w-full rounded-lg object-cover shadow-sm"
    />
  );
}
