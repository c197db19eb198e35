/** docs/product-rules.md §3 "Energy types" (value, label): the 8 energy types a deck's energy zone may hold. */
export const ENERGY_TYPES = [
  { value: "grass", ja: "草", en: "Grass", color: "#3f9c35" },
  { value: "fire", ja: "炎", en: "Fire", color: "#d9482b" },
  { value: "water", ja: "水", en: "Water", color: "#2f7fd6" },
  { value: "electric", ja: "雷", en: "Lightning", color: "#c99400" },
  { value: "psychic", ja: "エスパー", en: "Psychic", color: "#8e4bb5" },
  { value: "fighting", ja: "闘", en: "Fighting", color: "#a0522d" },
  { value: "dark", ja: "悪", en: "Darkness", color: "#2f3b4a" },
  { value: "steel", ja: "鋼", en: "Metal", color: "#6b7785" },
] as const;

export type EnergyType = (typeof ENERGY_TYPES)[number]["value"];
export const ENERGY_VALUES: readonly string[] = ENERGY_TYPES.map((e) => e.value);
export const isEnergyType = (value: string): value is EnergyType => ENERGY_VALUES.includes(value);

export function energyLabel(value: string, locale: "ja" | "en"): string {
  const energy = ENERGY_TYPES.find((e) => e.value === value);
  return energy ? energy[locale] : value;
}
