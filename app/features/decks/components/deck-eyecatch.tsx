import { useT } from "#app/lib/i18n.tsx";
import { displayRarity } from "#app/lib/rarity.ts";
import { ENERGY_TYPES } from "#app/features/decks/energy.ts";
import { decksMessages } from "#app/features/decks/messages.ts";
import type { KeyCard } from "#app/features/decks/types.ts";
import { EnergyIcon } from "./energy-icon";

/**
 * A deck's eyecatch at 1200×630 (the Open Graph ratio): the uploaded image, or — when there is
 * none — a designed placeholder in the deck's energy colours with its key cards fanned out.
 */
export function DeckEyecatch({
  name,
  eyecatchUrl,
  energyTypes,
  keyCards,
  eager = false,
}: {
  name: string;
  eyecatchUrl: string | null;
  energyTypes: readonly string[];
  keyCards: readonly KeyCard[];
  eager?: boolean;
}) {
  const t = useT(decksMessages);
  if (eyecatchUrl) {
    return (
      <img
        src={eyecatchUrl}
        alt={name}
        width={1200}
        height={630}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        className="aspect-[1200/630] w-full rounded-lg bg-slate-100 object-cover"
      />
    );
  }
  const colours = energyTypes.map((type) => ENERGY_TYPES.find((e) => e.value === type)?.color).filter(Boolean) as string[];
  const [from, to] = colours.length ? [colours[0], colours[colours.length - 1]] : ["#475569", "#1e293b"];
  const label = t("placeholderEyecatch", { name, cards: keyCards.map((c) => c.name).join("・") || "-" });
  return (
    <div
      role="img"
      aria-label={label}
      className="relative flex aspect-[1200/630] w-full items-center justify-center overflow-hidden rounded-lg"
      style={{ backgroundImage: `linear-gradient(135deg, ${from}, ${to})` }}
    >
      <div className="absolute inset-0 bg-[radial-gradient(circle_at_20%_20%,rgba(255,255,255,0.25),transparent_55%)]" aria-hidden="true" />
      <div className="relative flex h-[78%] items-end justify-center" aria-hidden="true">
        {keyCards.map((card, i) => {
          const middle = (keyCards.length - 1) / 2;
          const angle = (i - middle) * 9;
          return (
            <div
              key={card.cardId}
              className="-mx-[4%] flex aspect-[63/88] h-full flex-col justify-between overflow-hidden rounded-md border-2 border-white/80 bg-white/90 p-[3%] text-slate-800 shadow-lg"
              style={{ transform: `rotate(${angle}deg) translateY(${Math.abs(i - middle) * 6}%)`, zIndex: i === Math.round(middle) ? 2 : 1 }}
            >
              {card.imageUrl ? (
                <img src={card.imageUrl} alt="" className="h-full w-full rounded-sm object-cover" loading="lazy" decoding="async" />
              ) : (
                <>
                  <span className="text-[0.6rem] font-bold leading-tight sm:text-xs">{card.name}</span>
                  <span className="text-center text-[0.6rem] text-amber-600 sm:text-sm">{displayRarity(card.rarity)}</span>
                </>
              )}
            </div>
          );
        })}
      </div>
      <div className="absolute left-[3%] top-[5%] flex gap-1" aria-hidden="true">
        {energyTypes.map((type) => (
          <EnergyIcon key={type} type={type} size={22} decorative />
        ))}
      </div>
    </div>
  );
}
