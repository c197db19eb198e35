import { createHash } from "node:crypto";
import { CsvError, parse } from "csv-parse/sync";
import { inArray } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { cards, packs } from "#app/db/schema/index.ts";
import { rarityFromCode, rarityFromSpelling } from "#app/lib/rarity.ts";
import { z } from "#app/lib/zod.ts";
import { flattenSets, type CatalogueSource, type SourceCard, type SourceSet } from "./catalogue-source.server";
import { cardSearchText, readCatalogue, setNameJaOf, slug, type Catalogue, type CatalogueCardRow, type CataloguePack } from "./catalogue.server";
import { applyCatalogueUpdate, planCatalogueUpdate, type ApplyHooks, type CataloguePlan } from "./catalogue-update.server";
import type { AbstractCardFacts } from "./catalogue-facts.server";
import { CardError } from "./errors";
import { TYPE_SPELLINGS } from "./import.server";
import { translate, type Locale } from "#app/lib/i18n.tsx";
import { cardAdminMessages } from "./admin-messages";

/**
 * The admin's カタログ更新: a newer copy of the catalogue package's files (sets.json + cards.json,
 * optionally cards.extra.json, rarities.json and the facts), or a CSV of prints, read into the same
 * Catalogue that `npm run cards:update` reads from a folder and planned / applied by the same
 * applier (catalogue-update.server.ts). Nothing is stored between preview and apply: the browser
 * sends the files again with the preview's digest, and the apply is refused when the plan it would
 * write is not the one previewed.
 */
export type CatalogueUpload = { files: { name: string; text: string }[] };

/** A file the upload refuses, with the reason in both languages. */
function invalid(file: string, reason: (locale: Locale) => string): CardError {
  return new CardError("catalogue_file_invalid", { file, reason: reason("ja") });
}

const reason =
  (key: "reasonJson" | "reasonShape" | "reasonRarity" | "reasonEmpty", params: Record<string, string | number> = {}) =>
  (locale: Locale) =>
    translate(cardAdminMessages, locale, key, params);

const SetSchema = z.looseObject({
  code: z.string().min(1).max(20),
  releaseDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  name: z.record(z.string(), z.string().optional()),
  packs: z.array(z.string().max(60)),
});
const CardSchema = z.looseObject({
  set: z.string().min(1).max(20),
  number: z.number().int().positive().max(999_999),
  rarity: z.string().min(1).max(10),
  name: z.string().min(1).max(100),
  image: z.string().max(200).optional(),
  packs: z.array(z.string()).optional(),
});
const FactsSchema = z.array(z.looseObject({ name: z.string(), kind: z.string(), prints: z.array(z.string()) }));

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    throw invalid(file, reason("reasonJson"));
  }
}

function checked<T>(file: string, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const [index, ...field] = issue.path;
  const where = typeof index === "number" ? `${index + 1}件目` : file;
  throw invalid(file, reason("reasonShape", { where, field: field.join(".") || String(index ?? "") }));
}

const isFacts = (value: unknown): boolean => Array.isArray(value) && value.length > 0 && typeof value[0] === "object" && value[0] !== null && "prints" in value[0];

/** The package's files, by name; ptcgp-data's compacted cards.json is told from the package's by its content. */
function sourceOfFiles(files: CatalogueUpload["files"]): CatalogueSource {
  const parsed = new Map<string, unknown>();
  let facts: AbstractCardFacts[] = [];
  for (const file of files) {
    const name = file.name.split(/[\\/]/).pop()!.toLowerCase();
    const value = parseJson(file.name, file.text);
    if (name === "facts.json" || (name === "cards.json" && isFacts(value))) facts = checked(file.name, FactsSchema, value) as unknown as AbstractCardFacts[];
    else parsed.set(name, value);
  }
  if (!parsed.has("sets.json") || !parsed.has("cards.json")) throw new CardError("catalogue_files_missing");
  const rawSets = parsed.get("sets.json");
  const sets = checked("sets.json", z.array(SetSchema), Array.isArray(rawSets) ? rawSets : flattenSets((rawSets ?? {}) as Record<string, SourceSet[]>)) as SourceSet[];
  const cardList = checked("cards.json", z.array(CardSchema), parsed.get("cards.json")) as SourceCard[];
  if (!cardList.length) throw invalid("cards.json", reason("reasonEmpty"));
  cardList.forEach((card, i) => {
    if (!card.set.startsWith("PROMO") && !rarityFromCode(card.rarity)) throw invalid("cards.json", reason("reasonRarity", { where: `${i + 1}件目`, value: card.rarity }));
  });
  const extra = parsed.has("cards.extra.json") ? (checked("cards.extra.json", z.array(CardSchema.partial()), parsed.get("cards.extra.json")) as SourceCard[]) : [];
  const rarities = parsed.has("rarities.json") ? (checked("rarities.json", z.record(z.string(), z.looseObject({ tradePrice: z.number().nullable().optional() })), parsed.get("rarities.json")) as CatalogueSource["rarities"]) : {};
  return { sets, cards: cardList, extra, rarities, facts };
}

// The CSV's columns (headers compared like the card import's: trimmed, case and "_"/"-"/spaces ignored).
const CSV_COLUMNS: Record<string, string> = {
  set: "set",
  setcode: "set",
  number: "number",
  no: "number",
  name: "name",
  nameen: "name",
  nameja: "nameJa",
  日本語名: "nameJa",
  rarity: "rarity",
  type: "type",
  element: "type",
  hp: "hp",
  retreat: "retreat",
  weakness: "weakness",
  pack: "pack",
};
const CARD_KINDS = new Set(["pokemon", "supporter", "item", "tool", "fossil", "stadium"]);
const pad = (n: number) => String(n).padStart(3, "0");

/**
 * A CSV of prints (`set, number, name, name_ja, rarity` + optional `type, hp, retreat, weakness,
 * pack`) as a Catalogue: a print the database has keeps every fact the file does not name, so the
 * plan counts only what the file changes; a set the database lacks becomes a new set (named by its
 * code until a verified Japanese name is added, tradeable from today unless the admin holds it).
 */
async function catalogueOfCsv(db: Db, file: string, text: string): Promise<Catalogue> {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, to: 20_002 }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) throw invalid(file, reason("reasonShape", { where: file, field: `${typeof error.lines === "number" ? error.lines : "?"}行目` }));
    throw error;
  }
  const [header, ...rows] = records;
  const columns = new Map<string, number>();
  (header ?? []).forEach((cell, i) => {
    const column = CSV_COLUMNS[cell.replace(/^\uFEFF/, "").normalize("NFKC").replace(/[\s_-]+/g, "").toLowerCase()];
    if (column && !columns.has(column)) columns.set(column, i);
  });
  if (!["set", "number", "name", "rarity"].every((c) => columns.has(c))) throw new CardError("catalogue_files_missing");
  const body = rows.filter((r) => r.some((cell) => cell.trim()));
  if (!body.length) throw invalid(file, reason("reasonEmpty"));

  const storedPacks = await db.select().from(packs);
  const packsBySet = new Map<string, typeof storedPacks>();
  for (const pack of storedPacks) packsBySet.set(pack.setCode, [...(packsBySet.get(pack.setCode) ?? []), pack]);
  const newPacks: CataloguePack[] = [];
  const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);
  let sortOrder = Math.min(0, ...storedPacks.map((p) => p.sortOrder));

  const parsed = body.map((record, i) => {
    const line = i + 2;
    const cell = (column: string) => (columns.has(column) ? (record[columns.get(column)!] ?? "").replace(/\u0000/g, "").trim() : "");
    const fail = (field: string): never => {
      throw invalid(file, reason("reasonShape", { where: `${line}行目`, field }));
    };
    const set = cell("set");
    if (!/^[A-Za-z0-9-]{1,20}$/.test(set)) fail("set");
    const numberCell = cell("number").normalize("NFKC");
    if (!/^\d{1,6}$/.test(numberCell) || Number(numberCell) === 0) fail("number");
    const name = cell("name");
    if (!name || name.length > 100) fail("name");
    const nameJa = cell("nameJa");
    if (nameJa.length > 100) fail("name_ja");
    const rarity = set.startsWith("PROMO") ? "PROMO" : rarityFromSpelling(cell("rarity"));
    if (!rarity) throw invalid(file, reason("reasonRarity", { where: `${line}行目`, value: cell("rarity").slice(0, 20) }));
    const typeCell = cell("type").normalize("NFKC").toLowerCase();
    const element = typeCell && !CARD_KINDS.has(typeCell) ? (TYPE_SPELLINGS.get(typeCell.replace(/タイプ$/, "")) ?? fail("type")) : null;
    const hpCell = cell("hp").normalize("NFKC");
    const hp = hpCell ? (/^\d{2,3}$/.test(hpCell) && Number(hpCell) % 10 === 0 ? Number(hpCell) : fail("hp")) : null;
    const retreatCell = cell("retreat").normalize("NFKC");
    const retreat = retreatCell ? (/^[0-5]$/.test(retreatCell) ? Number(retreatCell) : fail("retreat")) : null;
    const weaknessCell = cell("weakness").normalize("NFKC").toLowerCase();
    const weakness = weaknessCell ? (TYPE_SPELLINGS.get(weaknessCell.replace(/タイプ$/, "")) ?? fail("weakness")) : null;
    return { line, set, number: Number(numberCell), name, nameJa, rarity, kind: CARD_KINDS.has(typeCell) ? typeCell : null, element, hp, retreat, weakness, pack: cell("pack") };
  });

  const ids = parsed.map((row) => `${row.set}-${pad(row.number)}`);
  const stored = new Map<string, typeof cards.$inferSelect>();
  for (let i = 0; i < ids.length; i += 1000) for (const card of await db.select().from(cards).where(inArray(cards.id, ids.slice(i, i + 1000)))) stored.set(card.id, card);

  const packFor = (set: string, packName: string): string[] => {
    let setPacks = packsBySet.get(set) ?? [];
    const wanted = packName.toLowerCase();
    const found = setPacks.filter((p) => !wanted || [p.id, p.nameJa, p.nameEn].some((n) => n.toLowerCase() === wanted) || p.nameEn.toLowerCase().endsWith(`(${wanted})`));
    if (found.length) return wanted ? [found[0].id] : found.map((p) => p.id);
    // A set (or a pack of it) the database does not have yet.
    const id = wanted ? `${slug(set)}-${slug(packName)}` : slug(set);
    const setNameJa = setNameJaOf(set);
    const pack: CataloguePack = { id, nameJa: wanted ? `${setNameJa}（${packName}）` : setNameJa, nameEn: wanted ? `${set} (${packName})` : set, setCode: set, setNameJa, setNameEn: set, releaseDate: today, sortOrder: --sortOrder };
    newPacks.push(pack);
    setPacks = [...setPacks, { ...pack, createdAt: new Date() } as (typeof storedPacks)[number]];
    packsBySet.set(set, setPacks);
    return [id];
  };

  const seen = new Map<string, number>();
  const catalogueCards: CatalogueCardRow[] = parsed.map((row, i) => {
    const id = ids[i];
    if (seen.has(id)) throw invalid(file, reason("reasonShape", { where: `${row.line}行目`, field: `${id}（${seen.get(id)}行目と同じ）` }));
    seen.set(id, row.line);
    const card = stored.get(id);
    const name = row.nameJa || card?.name || row.name;
    const reading = card && card.name === name ? card.nameReading : "";
    const packIds = row.pack || !card ? packFor(row.set, row.pack) : [];
    return {
      id,
      setCode: row.set,
      number: row.number,
      name,
      nameReading: reading,
      nameEn: row.name,
      rarity: row.rarity,
      imageUrl: card?.imageUrl ?? "",
      imageFile: card?.imageFile ?? null,
      element: row.element ?? card?.element ?? null,
      cardType: row.kind ?? card?.cardType ?? (row.element || row.hp ? "pokemon" : null),
      stage: card?.stage ?? null,
      hp: row.hp ?? card?.hp ?? null,
      weakness: row.weakness ?? card?.weakness ?? null,
      retreatCost: row.retreat ?? card?.retreatCost ?? null,
      attacks: card?.attacks ?? null,
      evolvesFrom: card?.evolvesFrom ?? null,
      searchText: cardSearchText(name, row.name, reading),
      packIds,
    };
  });
  // Facts of stored prints are carried over above, so comparing them finds only the file's changes.
  return { packs: newPacks, cards: catalogueCards, tradeCosts: new Map(), hasFacts: true };
}

async function catalogueOfUpload(db: Db, upload: CatalogueUpload): Promise<{ catalogue: Catalogue; source: string }> {
  const files = [...upload.files].sort((a, b) => a.name.localeCompare(b.name));
  const hash = createHash("sha256");
  for (const file of files) hash.update(`${file.name}\u0000${file.text}\u0000`);
  const source = hash.digest("hex");
  const csv = files.find((f) => /\.csv$/i.test(f.name));
  if (csv) return { catalogue: await catalogueOfCsv(db, csv.name, csv.text), source };
  return { catalogue: readCatalogue(sourceOfFiles(files)), source };
}

/** What the preview promises: the uploaded files and the plan they make on today's database. */
const digestOf = (source: string, plan: CataloguePlan) => createHash("sha256").update(source).update(JSON.stringify(plan)).digest("hex").slice(0, 32);

export type CataloguePreview = { plan: CataloguePlan; digest: string };

/** The plan of an uploaded catalogue and its digest; writes nothing. */
export async function previewCatalogueUpload(db: Db, upload: CatalogueUpload): Promise<CataloguePreview> {
  const { catalogue, source } = await catalogueOfUpload(db, upload);
  const plan = await planCatalogueUpdate(db, catalogue);
  return { plan, digest: digestOf(source, plan) };
}

/**
 * Applies exactly the previewed plan, all or nothing: when the files or the database changed since
 * the preview (another admin applied, a card was corrected), the digest differs and nothing is
 * written (409). `afterWrite` writes in the same transaction (the new sets' trade rules).
 */
export async function applyCatalogueUpload(db: Db, upload: CatalogueUpload, digest: string, afterWrite?: ApplyHooks["afterWrite"]): Promise<CataloguePlan> {
  const { catalogue, source } = await catalogueOfUpload(db, upload);
  return applyCatalogueUpdate(db, catalogue, "update", {
    check: (plan) => {
      if (digestOf(source, plan) !== digest) throw new CardError("catalogue_stale");
    },
    afterWrite,
  });
}
