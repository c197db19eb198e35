import { z } from "#app/lib/zod.ts";
import { isPlainLine, safeString } from "#app/lib/text.ts";
import { NAME_MAX_LENGTH } from "./import.server";

/** Uploaded catalogue files: the package's JSON files or one CSV, at most a few MB in all. */
export const CATALOGUE_UPLOAD_MAX_BYTES = 12 * 1024 * 1024;

const plainLine = (max: number) => z.string().trim().min(1).max(max).refine(isPlainLine);

/** カタログ更新: `step` preview answers the plan and its digest; apply writes exactly that plan. */
export const CatalogueUpdateSchema = z.object({
  step: z.enum(["preview", "apply"]),
  files: z.array(z.object({ name: plainLine(100), text: safeString() })).min(1).max(8),
  digest: z.string().regex(/^[0-9a-f]{32}$/).optional(),
  holds: z.array(z.object({ setCode: plainLine(20), until: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) })).max(20).default([]),
});

/** 日本語名の修正: the card, its Japanese name (and kana reading) and where the name comes from. */
export const CardNameCorrectionSchema = z.object({
  cardId: plainLine(80),
  name: z.string({ message: "errNameInvalid" }).trim().min(1, { message: "errNameInvalid" }).max(NAME_MAX_LENGTH, { message: "errNameInvalid" }).refine(isPlainLine, { message: "errNameInvalid" }),
  reading: z.string().trim().max(NAME_MAX_LENGTH).refine(isPlainLine).optional(),
  note: z.string({ message: "errNameInvalid" }).trim().min(1, { message: "errNameInvalid" }).max(200, { message: "errNameInvalid" }).refine(isPlainLine, { message: "errNameInvalid" }),
});

/** An imported card's edit (カード管理 → 取り込んだカード). */
export const ImportedCardEditSchema = z.object({
  name: plainLine(NAME_MAX_LENGTH),
  nameEn: z.string().trim().max(NAME_MAX_LENGTH).refine(isPlainLine).default(""),
  rarity: plainLine(20),
  imageUrl: z.union([z.literal(""), z.string().trim().max(2048).regex(/^https?:\/\/\S+$/i)]).default(""),
});
