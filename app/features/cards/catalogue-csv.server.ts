import { readCatalogue } from "./catalogue.server";

const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/**
 * The whole real catalogue (~3,300 cards) as an import CSV (id, name, nameEn, rarity,
 * imageUrl, number), for the import's load tests and benchmarks: nothing that large is committed.
 */
export function catalogueCsv(options: { limit?: number; imageBase?: string } = {}): string {
  const rows = readCatalogue().cards.slice(0, options.limit);
  const lines = ["id,name,nameEn,rarity,imageUrl,number"];
  for (const card of rows) {
    const imageUrl = options.imageBase ? `${options.imageBase}/${card.id}.webp` : "";
    lines.push([card.id, card.name ?? "", card.nameEn ?? "", card.rarity ?? "", imageUrl, String(card.number ?? "")].map(quote).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}
