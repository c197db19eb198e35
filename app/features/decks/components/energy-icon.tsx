import { useLocale } from "#app/lib/i18n.tsx";
import { ENERGY_TYPES, energyLabel } from "#app/features/decks/energy.ts";

// Our own drawings of the 8 energy symbols (a white glyph on the type's colour), 24×24 viewBox.
const GLYPHS: Record<string, string> = {
  // a leaf with its vein
  grass: "M17.5 5.5c-6 0-10.5 3.5-10.5 9 0 1.4.4 2.7 1 3.8L6 20.5l1.2 1 2.1-2.2c1 .6 2.2.9 3.4.9 5.2 0 7.3-5.6 4.8-14.7zM9.6 17.6c1.6-3.3 3.9-5.7 6.4-7.4-2 2-3.8 4.5-5 7.8z",
  // a flame
  fire: "M12.2 3c.6 3-1.4 4.6-3 6.4C7.7 11 7 12.6 7 14.4 7 17.5 9.3 20 12.3 20s5.2-2.3 5.2-5.4c0-2.7-1.6-4.2-2.4-6.3-.5 1.3-1 2.1-1.9 2.6.4-2.8-.1-5.4-1-7.9zm.3 9.6c1.5 1.6 2.3 2.8 2.3 4 0 1.4-1.1 2.5-2.5 2.5s-2.5-1.1-2.5-2.4c0-1.5 1.2-2.5 2.7-4.1z",
  // a drop
  water: "M12 3.5c-2.6 4-5.5 7.3-5.5 10.7 0 3.3 2.5 5.8 5.5 5.8s5.5-2.5 5.5-5.8C17.5 10.8 14.6 7.5 12 3.5zm-2.6 11c.2 1.5 1.2 2.7 2.7 3-2-.1-3.4-1.5-3.4-3.4 0-.6.1-1.2.4-1.8.1.7.2 1.4.3 2.2z",
  // a lightning bolt
  electric: "M13.5 3 6.5 13.2h4.6L9.8 21l7.7-11h-4.8z",
  // an eye
  psychic: "M12 6.5c-4.2 0-7.4 3-8.5 5.5 1.1 2.5 4.3 5.5 8.5 5.5s7.4-3 8.5-5.5c-1.1-2.5-4.3-5.5-8.5-5.5zm0 9a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7zm0-5.2a1.7 1.7 0 1 0 0 3.4 1.7 1.7 0 0 0 0-3.4z",
  // a fist
  fighting: "M7 9.2c0-1 .8-1.7 1.7-1.7h.3V7c0-.8.7-1.5 1.5-1.5s1.5.7 1.5 1.5v.1c.3-.4.8-.6 1.3-.6.8 0 1.5.7 1.5 1.5v.2c.3-.3.7-.5 1.2-.5.9 0 1.5.7 1.5 1.5v4.6c0 3.2-2.5 5.7-5.7 5.7h-.5c-2.6 0-4.8-2.1-4.8-4.8V9.2zm2 1.8v2.6c0 1.5 1.3 2.8 2.8 2.8h.5c2.1 0 3.7-1.6 3.7-3.7v-1.4c-1.9.4-3.8.3-5.3-.3H9z",
  // a crescent moon with a claw mark
  dark: "M14.8 4.2A8 8 0 1 0 19.8 16 6.5 6.5 0 0 1 14.8 4.2zm-1.3 4.3-1.2 7 1.6.3 1.2-7zm-3.1 1.2-.8 5 1.5.2.8-5z",
  // a hexagon nut
  steel: "M12 3.5 19.4 7.7v8.6L12 20.5l-7.4-4.2V7.7zm0 5.1a3.4 3.4 0 1 0 0 6.8 3.4 3.4 0 0 0 0-6.8z",
};

/** One energy type's icon with its label for assistive tech (and as a tooltip). */
export function EnergyIcon({ type, size = 24, decorative = false }: { type: string; size?: number; decorative?: boolean }) {
  const locale = useLocale();
  const energy = ENERGY_TYPES.find((e) => e.value === type);
  if (!energy) return null;
  const label = energyLabel(type, locale);
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      role={decorative ? undefined : "img"}
      aria-label={decorative ? undefined : label}
      aria-hidden={decorative ? true : undefined}
      className="inline-block shrink-0"
    >
      {decorative ? null : <title>{label}</title>}
      <circle cx="12" cy="12" r="11.5" fill={energy.color} />
      <path d={GLYPHS[type]} fill="#fff" fillRule="evenodd" />
    </svg>
  );
}

export function EnergyIcons({ types, size = 20 }: { types: readonly string[]; size?: number }) {
  if (!types.length) return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      {types.map((type) => (
        <EnergyIcon key={type} type={type} size={size} />
      ))}
    </span>
  );
}
