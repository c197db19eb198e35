import { useId, useState } from "react";
import { send } from "#app/lib/send.ts";
import { z } from "#app/lib/zod.ts";
import { FormField, TextareaField } from "#app/components/ui/form-field.tsx";
import { useT } from "#app/lib/i18n.tsx";
import { contentMessages } from "#app/features/content/messages.ts";

/** docs/product-rules.md §5/§9: a meta description is at most 200 characters. */
/** The suggestion API's answer: keywords and a meta description (either may be missing). */
const SuggestionAnswer = z.object({
  keywords: z.array(z.unknown()).catch([]),
  metaDescription: z.string().catch(""),
});

export const META_DESCRIPTION_MAX = 200;
export const KEYWORDS_MAX = 500;

export type SeoValues = { keywords: string; metaDescription: string };

/**
 * The editors' SEO tab (docs/product-rules.md §2): keywords (comma separated) and a meta description with a
 * counter (at most 200), plus 提案, which asks POST /api/admin/seo/suggest for both from the
 * title and text of `suggestFrom()` and fills them in. A failure shows docs/product-rules.md §8's message.
 */
export function SeoFields({
  values,
  onChange,
  suggestFrom,
  errors = {},
}: {
  values: SeoValues;
  onChange: (values: SeoValues) => void;
  suggestFrom: () => { title: string; content: string };
  errors?: Partial<Record<keyof SeoValues, string>>;
}) {
  const t = useT(contentMessages);
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function suggest() {
    setBusy(true);
    setFailed(false);
    try {
      const sent = await send("/api/admin/seo/suggest", { json: suggestFrom() }, SuggestionAnswer);
      if (!sent.ok) throw new Error(sent.refusal?.message ?? `HTTP ${sent.status}`);
      const keywords = sent.data.keywords.filter((k): k is string => typeof k === "string");
      const metaDescription = sent.data.metaDescription.slice(0, META_DESCRIPTION_MAX);
      onChange({ keywords: keywords.join(", ") || values.keywords, metaDescription: metaDescription || values.metaDescription });
    } catch (error) {
      console.error(t("seoSuggestFailed"), error);
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4">
      <FormField
        id={`${id}-keywords`}
        name="keywords"
        label={t("seoKeywords")}
        hint={t("seoKeywordsHint")}
        error={errors.keywords}
        value={values.keywords}
        maxLength={KEYWORDS_MAX}
        autoComplete="off"
        onChange={(event) => onChange({ ...values, keywords: event.target.value })}
      />
      <TextareaField
        id={`${id}-description`}
        name="metaDescription"
        label={t("seoMetaDescription")}
        hint={t("seoMetaDescriptionHint", { max: META_DESCRIPTION_MAX })}
        error={errors.metaDescription}
        rows={4}
        maxLength={META_DESCRIPTION_MAX}
        value={values.metaDescription}
        onChange={(event) => onChange({ ...values, metaDescription: event.target.value })}
      />
      <div className="space-y-1">
        <button
          type="button"
          onClick={suggest}
          disabled={busy}
          aria-describedby={`${id}-suggest-hint`}
          className="rounded-md border border-brand-700 bg-white px-4 py-2 font-bold text-brand-800 hover:bg-brand-50 disabled:cursor-wait disabled:opacity-70"
        >
          {busy ? t("seoSuggesting") : t("seoSuggest")}
        </button>
        <p id={`${id}-suggest-hint`} className="text-sm text-slate-600">
          {t("seoSuggestLabel")}
        </p>
        {failed ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {t("seoSuggestFailed")}
          </p>
        ) : null}
      </div>
    </div>
  );
}
