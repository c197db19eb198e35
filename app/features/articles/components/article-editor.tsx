import { useId, useMemo, useState, type FormEvent } from "react";
import { send } from "#app/lib/send.ts";
import { recordWithId } from "#app/lib/answers.ts";
import { TabList } from "#app/components/ui/tabs.tsx";
import { FormField, SelectField } from "#app/components/ui/form-field.tsx";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import type { PackOption } from "#app/features/content/components/card-picker.tsx";
import { ContentEditor } from "#app/features/content/components/content-editor.tsx";
import { DraftNotice } from "#app/features/content/components/draft-notice.tsx";
import { SeoFields } from "#app/features/content/components/seo-fields.tsx";
import { useLocalDraft } from "#app/features/content/components/use-local-draft.ts";
import { ImageUploadButton } from "#app/features/uploads/components/image-upload-button.tsx";
import { ArticleCreateSchema, ArticleUpdateSchema, articleFieldErrors, SLUG_MAX, THUMBNAIL_MAX, TITLE_MAX, type ArticleField } from "#app/features/articles/articles.schema.ts";
import { ARTICLE_CATEGORIES, categoryLabel, type ArticleCategory } from "#app/features/articles/categories.ts";
import { articlesMessages, type ArticlesMessageKey } from "#app/features/articles/messages.ts";
import type { ArticleForEditor } from "#app/features/articles/types.ts";
import { articleRelatedSource, deckRelatedSource } from "#app/features/content/components/related-sources.ts";

type Values = {
  title: string;
  category: ArticleCategory | "";
  isPublic: boolean;
  thumbnailUrl: string;
  slug: string;
  content: string;
  keywords: string;
  metaDescription: string;
};

// docs/product-rules.md §4 / docs/decisions/012: a new article starts 非公開 (the list shows it so).
const EMPTY: Values = { title: "", category: "", isPublic: false, thumbnailUrl: "", slug: "", content: "", keywords: "", metaDescription: "" };

function valuesOf(article: ArticleForEditor | null): Values {
  if (!article) return EMPTY;
  return {
    title: article.title,
    category: article.category,
    isPublic: article.isPublic,
    thumbnailUrl: article.thumbnailUrl ?? "",
    slug: article.slug,
    content: article.content,
    keywords: article.keywords,
    metaDescription: article.metaDescription,
  };
}

type Tab = "basic" | "content" | "seo";
const TAB_OF: Record<ArticleField, Tab> = {
  title: "basic",
  category: "basic",
  isPublic: "basic",
  thumbnailUrl: "basic",
  slug: "basic",
  revision: "basic",
  content: "content",
  keywords: "seo",
  metaDescription: "seo",
};

export type SaveOutcome = { kind: "created" | "updated"; article: ArticleForEditor };

/**
 * The article editor (docs/product-rules.md §2): 基本設定 (title, category, public flag, thumbnail upload or URL,
 * slug), 本文 (the shared content editor: toolbar, dialogs, 編集 / プレビュー) and SEO (keywords, meta
 * description, 提案). Saves with POST / PATCH /api/admin/articles; unsaved input is kept as a local
 * draft; a save against a changed article is refused and says so.
 */
export function ArticleEditor({
  article,
  packs,
  onSaved,
  onCancel,
  onReloadLatest,
}: {
  article: ArticleForEditor | null;
  packs: PackOption[];
  onSaved: (outcome: SaveOutcome) => void;
  onCancel: () => void;
  onReloadLatest: () => void;
}) {
  const t = useT(articlesMessages);
  const locale = useLocale();
  const id = useId();
  const pristine = useMemo(() => valuesOf(article), [article]);
  const [values, setValues] = useState<Values>(pristine);
  const [tab, setTab] = useState<Tab>("basic");
  const [errors, setErrors] = useState<Partial<Record<ArticleField, string>>>({});
  const [failure, setFailure] = useState<{ text: string; conflict: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const draftKey = `article:${article?.id ?? "new"}`;
  const draft = useLocalDraft(draftKey, values, pristine);
  const relatedSources = useMemo(() => [articleRelatedSource(article?.id ?? null), deckRelatedSource], [article?.id]);

  const set = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    // Editing is the next action: a banner about the last save attempt no longer applies.
    setFailure((current) => (current?.conflict ? current : null));
  };
  const translateKey = (key: ArticlesMessageKey, params?: { max: number }) => t(key, params);
  const showErrors = (fields: Partial<Record<ArticleField, string>>) => {
    setErrors(fields);
    const first = (Object.keys(fields) as ArticleField[])[0];
    if (first) setTab(TAB_OF[first] ?? "basic");
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const payload = { ...values, category: values.category || undefined, thumbnailUrl: values.thumbnailUrl || null, slug: values.slug || null };
    const checked = article ? ArticleUpdateSchema.safeParse({ ...payload, revision: article.revision }) : ArticleCreateSchema.safeParse(payload);
    if (!checked.success) {
      // A plain validation failure: each problem at its field, and a summary that says so.
      showErrors(articleFieldErrors(checked.error, translateKey));
      setFailure({ text: t("fixFields"), conflict: false });
      return;
    }
    setBusy(true);
    try {
      const sent = await send(
        article ? `/api/admin/articles/${article.id}` : "/api/admin/articles",
        { method: article ? "PATCH" : "POST", json: article ? { ...payload, revision: article.revision } : payload },
        recordWithId<ArticleForEditor>(),
      );
      if (sent.ok) {
        draft.clear();
        onSaved({ kind: article ? "updated" : "created", article: sent.data });
        return;
      }
      const { refusal } = sent;
      if (refusal?.code === "conflict") {
        setFailure({ text: refusal.message, conflict: true });
        return;
      }
      const fields = refusal?.code === "slug_taken" ? { slug: refusal.message } : (refusal?.fields ?? null);
      if (fields) {
        // The server found what the form could not (a slug in use): at the field, not a failure.
        showErrors(fields);
        setFailure({ text: t("fixFields"), conflict: false });
        return;
      }
      // Only a real failure (the server or the network) says the save failed.
      setFailure({ text: t("saveFailed"), conflict: false });
    } catch (error) {
      console.error(t("saveFailed"), error);
      setFailure({ text: t("saveFailed"), conflict: false });
    } finally {
      setBusy(false);
    }
  }

  const tabs: { id: Tab; label: ArticlesMessageKey }[] = [
    { id: "basic", label: "tabBasic" },
    { id: "content", label: "tabContent" },
    { id: "seo", label: "tabSeo" },
  ];
  const tabHasError = (candidate: Tab) => (Object.keys(errors) as ArticleField[]).some((field) => errors[field] && TAB_OF[field] === candidate);

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={`${id}-heading`} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h3 id={`${id}-heading`} className="text-lg font-bold">
        {article ? t("editorEdit") : t("editorNew")}
      </h3>
      {draft.offer ? (
        <DraftNotice
          savedAt={draft.offer.savedAt}
          onRestore={() => {
            const kept = draft.restore();
            if (kept) setValues({ ...EMPTY, ...kept });
          }}
          onDiscard={draft.discard}
        />
      ) : null}
      <TabList
        label={t("editorTabs")}
        tabs={tabs.map((candidate) => ({
          id: candidate.id,
          label: t(candidate.label),
          badge: tabHasError(candidate.id) ? (
            <span aria-hidden="true" className="ml-1 text-red-700">
              *
            </span>
          ) : null,
        }))}
        selected={tab}
        onSelect={setTab}
        tabId={(which) => `${id}-tab-${which}`}
        panelId={(which) => `${id}-panel-${which}`}
        className="flex gap-1 border-b border-slate-200"
        tabClassName={(selected) => `-mb-px rounded-t-md border px-4 py-2 text-sm font-bold ${selected ? "border-slate-200 border-b-white bg-white text-brand-800" : "border-transparent text-slate-600"}`}
      />

      <div id={`${id}-panel-basic`} role="tabpanel" aria-labelledby={`${id}-tab-basic`} hidden={tab !== "basic"} className="space-y-4">
        <FormField id={`${id}-title`} name="title" label={t("title")} required value={values.title} maxLength={TITLE_MAX} error={errors.title} onChange={(e) => set("title", e.target.value)} autoComplete="off" />
        <SelectField id={`${id}-category`} name="category" label={t("category")} required value={values.category} error={errors.category} onChange={(e) => set("category", e.target.value as ArticleCategory | "")}>
          <option value="">{t("categoryChoose")}</option>
          {ARTICLE_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {categoryLabel(category, locale)}
            </option>
          ))}
        </SelectField>
        <label className="flex items-center gap-2 font-medium">
          <input type="checkbox" name="isPublic" checked={values.isPublic} onChange={(e) => set("isPublic", e.target.checked)} className="h-5 w-5 accent-brand-700" />
          {t("isPublic")}
        </label>
        <FormField
          id={`${id}-thumbnail`}
          name="thumbnailUrl"
          label={t("thumbnail")}
          hint={t("thumbnailHint")}
          inputMode="url"
          value={values.thumbnailUrl}
          maxLength={THUMBNAIL_MAX}
          error={errors.thumbnailUrl}
          onChange={(e) => set("thumbnailUrl", e.target.value)}
          autoComplete="off"
        />
        <ImageUploadButton folder="thumbnails" onUploaded={(result) => set("thumbnailUrl", result.url)} />
        {values.thumbnailUrl && !errors.thumbnailUrl ? (
          <img src={values.thumbnailUrl} alt={t("thumbnailPreview")} width={240} height={126} className="aspect-[1200/630] w-60 rounded-md border border-slate-200 object-cover" />
        ) : null}
        <FormField id={`${id}-slug`} name="slug" label={t("slug")} hint={t("slugHint")} value={values.slug} maxLength={SLUG_MAX} error={errors.slug} onChange={(e) => set("slug", e.target.value)} autoComplete="off" spellCheck={false} />
      </div>

      <div id={`${id}-panel-content`} role="tabpanel" aria-labelledby={`${id}-tab-content`} hidden={tab !== "content"}>
        <ContentEditor
          id={`${id}-content`}
          label={t("content")}
          value={values.content}
          onChange={(content) => set("content", content)}
          error={errors.content}
          memoryKey={draftKey}
          packs={packs}
          relatedSources={relatedSources}
        />
      </div>

      <div id={`${id}-panel-seo`} role="tabpanel" aria-labelledby={`${id}-tab-seo`} hidden={tab !== "seo"}>
        <SeoFields
          values={{ keywords: values.keywords, metaDescription: values.metaDescription }}
          errors={{ keywords: errors.keywords, metaDescription: errors.metaDescription }}
          onChange={(seo) => {
            setValues((current) => ({ ...current, ...seo }));
            setFailure((current) => (current?.conflict ? current : null));
          }}
          suggestFrom={() => ({ title: values.title, content: values.content })}
        />
      </div>

      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
        <button type="submit" disabled={busy} className="rounded-md bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70">
          {busy ? t("saving") : t("save")}
        </button>
        <button type="button" onClick={onCancel} className="rounded-md border border-slate-400 bg-white px-4 py-2 font-medium">
          {t("cancelEdit")}
        </button>
        {failure ? (
          <div role="alert" className="space-y-2 font-medium text-red-700">
            <p>{failure.text}</p>
            {failure.conflict ? (
              <button type="button" onClick={onReloadLatest} className="rounded-md border border-red-700 bg-white px-3 py-1 text-sm">
                {t("reloadLatest")}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </form>
  );
}
