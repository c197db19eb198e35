import { useEffect, useId, useState, type FormEvent } from "react";
import { send } from "#app/lib/send.ts";
import { z } from "#app/lib/zod.ts";
import { useT } from "#app/lib/i18n.tsx";
import { ImageUploadButton } from "#app/features/uploads/components/image-upload-button.tsx";
import { FormField, TextareaField } from "#app/components/ui/form-field.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { settingsMessages, type SettingsMessageKey } from "#app/features/settings/messages.ts";
import { EMPTY_SITE_SETTINGS, FIELD_MAX, settingsFieldErrors, SiteSettingsSchema, type SiteSettings, type SiteSettingsField } from "#app/features/settings/settings.schema.ts";

/** What the admin route loads for this tab (features/admin/tab-data.server.ts). */
/** The settings API's answer: the settings as stored, each a text. */
const SettingsAnswer = z.record(z.string(), z.unknown()).transform((answer): Partial<SiteSettings> =>
  Object.fromEntries(Object.entries(answer).filter(([key, value]) => key in EMPTY_SITE_SETTINGS && typeof value === "string")),
);

export type SettingsTabData = { settings: SiteSettings } | { loadError: true };

// docs/product-rules.md §9: the success message clears after 3000 ms.
const SAVED_MESSAGE_MS = 3000;

type Outcome = { kind: "saved" } | { kind: "error"; text: string } | null;

/**
 * Admin サイト設定 tab (docs/product-rules.md §2 item 5): an SEO section (meta description, keywords comma
 * separated) and a social-share section (OG title, OG description, OG image URL with an upload
 * button), saved with PUT /api/admin/settings. The button shows 保存中... while saving.
 */
export function SettingsPanel({ data }: { data: unknown }) {
  const t = useT(settingsMessages);
  const id = useId();
  const tabData = data as SettingsTabData | null;
  const loadError = !tabData || "loadError" in tabData;
  const [values, setValues] = useState<SiteSettings>(tabData && "settings" in tabData ? tabData.settings : EMPTY_SITE_SETTINGS);
  const [errors, setErrors] = useState<Partial<Record<SiteSettingsField, string>>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  useEffect(() => {
    if (outcome?.kind !== "saved") return;
    const timer = setTimeout(() => setOutcome(null), SAVED_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  const set = (field: SiteSettingsField) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const translateKey = (key: SettingsMessageKey, params?: { max: number }) => t(key, params);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = SiteSettingsSchema.safeParse(values);
    if (!checked.success) {
      setErrors(settingsFieldErrors(checked.error, translateKey));
      setOutcome(null);
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const sent = await send("/api/admin/settings", { method: "PUT", json: checked.data }, SettingsAnswer);
      if (!sent.ok && (sent.status === 401 || sent.status === 403)) {
        setOutcome({ kind: "error", text: t("forbidden") });
      } else if (!sent.ok && sent.status === 400 && sent.refusal?.fields) {
        setErrors(sent.refusal.fields);
        setOutcome({ kind: "error", text: t("saveFailed") });
      } else if (!sent.ok) {
        setOutcome({ kind: "error", text: t("saveFailed") });
      } else {
        setValues({ ...EMPTY_SITE_SETTINGS, ...sent.data });
        setErrors({});
        setOutcome({ kind: "saved" });
      }
    } catch {
      setOutcome({ kind: "error", text: t("saveFailed") });
    } finally {
      setBusy(false);
    }
  }

  const field = (name: SiteSettingsField, label: SettingsMessageKey, hint?: SettingsMessageKey) => (
    <FormField
      id={`${id}-${name}`}
      name={name}
      label={t(label)}
      hint={hint ? t(hint) : undefined}
      error={errors[name]}
      value={values[name]}
      maxLength={FIELD_MAX[name]}
      onChange={(event) => set(name)(event.target.value)}
      autoComplete="off"
    />
  );

  const textarea = (name: "metaDescription" | "ogDescription", label: SettingsMessageKey, hint?: SettingsMessageKey) => (
    <TextareaField
      id={`${id}-${name}`}
      name={name}
      label={t(label)}
      hint={hint ? t(hint) : undefined}
      error={errors[name]}
      rows={3}
      value={values[name]}
      maxLength={FIELD_MAX[name]}
      onChange={(event) => set(name)(event.target.value)}
    />
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      {loadError ? (
        <p role="alert" className="rounded-md bg-red-50 px-4 py-3 font-medium text-red-700">
          {t("loadFailed")}
        </p>
      ) : null}
      <fieldset className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <legend className="px-1 text-lg font-bold">{t("seoHeading")}</legend>
        {textarea("metaDescription", "metaDescription", "metaDescriptionHint")}
        {field("seoKeywords", "seoKeywords", "seoKeywordsHint")}
      </fieldset>
      <fieldset className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <legend className="px-1 text-lg font-bold">{t("socialHeading")}</legend>
        {field("ogTitle", "ogTitle")}
        {textarea("ogDescription", "ogDescription")}
        {field("ogImage", "ogImage", "ogImageHint")}
        <ImageUploadButton folder="og" onUploaded={(result) => set("ogImage")(result.eyecatch?.url ?? result.url)} />
        {values.ogImage && !errors.ogImage ? (
          <img src={values.ogImage} alt={t("ogImagePreview")} width={300} height={158} className="rounded-md border border-slate-200 object-cover" />
        ) : null}
      </fieldset>
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton pending={busy} pendingText={t("saving")}>
          {t("save")}
        </SubmitButton>
        <div aria-live="polite">
          {outcome?.kind === "saved" ? (
            <p role="status" className="font-medium text-green-800">
              {t("saved")}
            </p>
          ) : outcome?.kind === "error" ? (
            <p role="alert" className="font-medium text-red-700">
              {outcome.text}
            </p>
          ) : null}
        </div>
      </div>
    </form>
  );
}
