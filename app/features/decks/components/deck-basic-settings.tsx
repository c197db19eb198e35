import { useId, useState } from "react";
import { FormField, SelectField } from "#app/components/ui/form-field.tsx";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { ImageUploadButton } from "#app/features/uploads/components/image-upload-button.tsx";
import { CATEGORY_LABELS } from "#app/features/decks/categories.ts";
import { ENERGY_TYPES } from "#app/features/decks/energy.ts";
import { deckEditorMessages } from "#app/features/decks/editor-messages.ts";
import { decksMessages } from "#app/features/decks/messages.ts";
import { DECK_CATEGORIES, NAME_MAX, SLUG_MAX, TIERS } from "#app/features/decks/rules.ts";
import type { DeckOption } from "#app/features/decks/types.ts";
import { EnergyIcon } from "./energy-icon";

/** The editor's form values (strings where an input holds them). */
export type DeckFormValues = {
  name: string;
  tier: string;
  category: string;
  description: string;
  energyTypes: string[];
  eyecatchUrl: string;
  slug: string;
  isPublic: boolean;
  keywords: string;
  metaDescription: string;
  relatedDeckIds: string[];
  featuredOrder: string;
};

type Props = {
  values: DeckFormValues;
  set: <K extends keyof DeckFormValues>(key: K, value: DeckFormValues[K]) => void;
  errors: Record<string, string>;
  deckOptions: DeckOption[];
  deckId: string | null;
  /** The admin left a required field: its docs/product-rules.md §5 message shows at once when it is empty. */
  onLeave?: (field: "name" | "tier" | "category") => void;
};

/** docs/product-rules.md §2 デッキ作成 基本設定: name, tier, category, energy types, eyecatch, slug, related decks, 公開する. */
export function DeckBasicSettings({ values, set, errors, deckOptions, deckId, onLeave }: Props) {
  const t = useT(deckEditorMessages);
  const td = useT(decksMessages);
  const locale = useLocale();
  const id = useId();
  const [eyecatchMode, setEyecatchMode] = useState<"upload" | "url">("upload");
  const [relatedFilter, setRelatedFilter] = useState("");
  const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
  const others = deckOptions.filter((d) => d.id !== deckId && d.name.toLowerCase().includes(relatedFilter.trim().toLowerCase()));

  return (
    <div className="space-y-5">
      <FormField id={`${id}-name`} name="name" label={t("name")} required maxLength={NAME_MAX} value={values.name} error={errors.name} onChange={(e) => set("name", e.target.value)} onBlur={() => onLeave?.("name")} autoComplete="off" />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField id={`${id}-tier`} name="tier" label={t("tier")} required value={values.tier} error={errors.tier} onChange={(e) => set("tier", e.target.value)} onBlur={() => onLeave?.("tier")}>
          <option value="">{t("choose")}</option>
          {TIERS.map((tier) => (
            <option key={tier} value={tier}>
              {td("tierBadge", { tier })}
            </option>
          ))}
        </SelectField>
        <SelectField id={`${id}-category`} name="category" label={t("category")} required value={values.category} error={errors.category} onChange={(e) => set("category", e.target.value)} onBlur={() => onLeave?.("category")}>
          <option value="">{t("choose")}</option>
          {DECK_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {td(CATEGORY_LABELS[category])}
            </option>
          ))}
        </SelectField>
      </div>

      <fieldset className="space-y-2">
        <legend className="font-medium">{t("energyTypes")}</legend>
        <p className="text-sm text-slate-600">{t("energyHint")}</p>
        <div className="flex flex-wrap gap-2">
          {ENERGY_TYPES.map((energy) => (
            <label key={energy.value} className="flex cursor-pointer items-center gap-1.5 rounded-full border border-slate-300 bg-white px-3 py-1 text-sm has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500">
              <input type="checkbox" className="sr-only" checked={values.energyTypes.includes(energy.value)} onChange={() => set("energyTypes", toggle(values.energyTypes, energy.value))} />
              <EnergyIcon type={energy.value} size={20} decorative />
              {energy[locale]}
            </label>
          ))}
        </div>
        {errors.energyTypes ? <p className="text-sm font-medium text-red-700">{errors.energyTypes}</p> : null}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="font-medium">{t("eyecatch")}</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {(["upload", "url"] as const).map((mode) => (
            <label key={mode} className="flex items-center gap-1.5">
              <input type="radio" name={`${id}-eyecatch-mode`} checked={eyecatchMode === mode} onChange={() => setEyecatchMode(mode)} />
              {t(mode === "upload" ? "eyecatchModeUpload" : "eyecatchModeUrl")}
            </label>
          ))}
        </div>
        <p className="text-sm text-slate-600">{t("eyecatchHint")}</p>
        {eyecatchMode === "upload" ? (
          <ImageUploadButton folder="eyecatches" failureKey="eyecatchUploadFailed" label={t("eyecatchUpload")} onUploaded={(result) => set("eyecatchUrl", result.eyecatch?.url ?? result.url)} />
        ) : (
          <FormField id={`${id}-eyecatch`} name="eyecatchUrl" label={t("eyecatchUrl")} type="url" inputMode="url" value={values.eyecatchUrl} error={errors.eyecatchUrl} onChange={(e) => set("eyecatchUrl", e.target.value)} />
        )}
        {errors.eyecatchUrl && eyecatchMode === "upload" ? <p className="text-sm font-medium text-red-700">{errors.eyecatchUrl}</p> : null}
        {values.eyecatchUrl ? (
          <div className="flex items-end gap-3">
            <img src={values.eyecatchUrl} alt={t("eyecatchPreview")} width={240} height={126} className="aspect-[1200/630] w-60 rounded-md border border-slate-200 object-cover" />
            <button type="button" onClick={() => set("eyecatchUrl", "")} className="text-sm text-red-700 underline">
              {t("eyecatchRemove")}
            </button>
          </div>
        ) : null}
      </fieldset>

      <div className="space-y-1">
        <label htmlFor={`${id}-slug`} className="block font-medium">
          {t("slug")}
        </label>
        <div className="flex items-center gap-1">
          <span className="shrink-0 whitespace-nowrap text-slate-600" aria-hidden="true">
            /deck-recipes/
          </span>
          <input
            id={`${id}-slug`}
            name="slug"
            value={values.slug}
            maxLength={SLUG_MAX}
            onChange={(e) => set("slug", e.target.value)}
            aria-invalid={errors.slug ? true : undefined}
            aria-describedby={`${id}-slug-hint${errors.slug ? ` ${id}-slug-error` : ""}`}
            autoComplete="off"
            className="block w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 aria-[invalid=true]:border-red-600"
          />
        </div>
        <p id={`${id}-slug-hint`} className="text-sm text-slate-600">
          {t("slugHint")}
        </p>
        {errors.slug ? (
          <p id={`${id}-slug-error`} role="alert" className="text-sm font-medium text-red-700">
            {errors.slug}
          </p>
        ) : null}
      </div>

      <fieldset className="space-y-2">
        <legend className="font-medium">{t("related")}</legend>
        <input type="search" aria-label={t("relatedFilter")} placeholder={t("relatedFilter")} value={relatedFilter} onChange={(e) => setRelatedFilter(e.target.value)} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm" />
        {others.length === 0 ? (
          <p className="text-sm text-slate-600">{t("relatedNone")}</p>
        ) : (
          <ul className="max-h-48 space-y-1 overflow-y-auto rounded-md border border-slate-200 bg-white p-2 text-sm">
            {others.map((deck) => (
              <li key={deck.id}>
                <label className="flex items-center gap-2">
                  <input type="checkbox" checked={values.relatedDeckIds.includes(deck.id)} onChange={() => set("relatedDeckIds", toggle(values.relatedDeckIds, deck.id))} />
                  {deck.name}
                  {deck.isPublic ? null : <span className="text-xs text-slate-600">（{t("private")}）</span>}
                </label>
              </li>
            ))}
          </ul>
        )}
        {errors.relatedDeckIds ? <p className="text-sm font-medium text-red-700">{errors.relatedDeckIds}</p> : null}
      </fieldset>

      <FormField id={`${id}-featured`} name="featuredOrder" label={t("featuredOrder")} hint={t("featuredHint")} type="number" min={1} max={999} inputMode="numeric" value={values.featuredOrder} error={errors.featuredOrder} onChange={(e) => set("featuredOrder", e.target.value)} />

      <label className="flex items-center gap-2 font-medium">
        <input type="checkbox" name="isPublic" checked={values.isPublic} onChange={(e) => set("isPublic", e.target.checked)} className="h-4 w-4" />
        {t("isPublic")}
      </label>
    </div>
  );
}
