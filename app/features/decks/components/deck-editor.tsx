import { useId, useMemo, useState } from "react";
import { send } from "#app/lib/send.ts";
import { z } from "#app/lib/zod.ts";
import { TabList } from "#app/components/ui/tabs.tsx";
import { BUTTON_PRIMARY, BUTTON_SECONDARY, Modal } from "#app/components/ui/modal.tsx";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { ContentEditor } from "#app/features/content/components/content-editor.tsx";
import { DraftNotice } from "#app/features/content/components/draft-notice.tsx";
import { SeoFields } from "#app/features/content/components/seo-fields.tsx";
import { useLocalDraft } from "#app/features/content/components/use-local-draft.ts";
import { deckFieldErrors, DeckInputSchema } from "#app/features/decks/decks.schema.ts";
import { deckEditorMessages } from "#app/features/decks/editor-messages.ts";
import { deckErrorMessages, type DeckErrorMessageKey } from "#app/features/decks/error-messages.ts";
import { decksMessages } from "#app/features/decks/messages.ts";
import { articleRelatedSource, deckRelatedSource } from "#app/features/content/components/related-sources.ts";
import { checkDeck, DECK_SIZE, DEFAULT_PACK_ID, EDITOR_ROWS } from "#app/features/decks/rules.ts";
import type { DeckCardView, DeckEditData, DeckOption } from "#app/features/decks/types.ts";
import { DeckBasicSettings, type DeckFormValues } from "./deck-basic-settings";
import { DeckCardList, type PackChoice } from "./deck-card-list";
import { useProblemText } from "./legality-panel";
import { refusedSaveStep } from "./save-refusal";

type Draft = DeckFormValues & { cards: DeckCardView[] };
type Tab = "basic" | "content" | "seo";

const EMPTY: Draft = {
  name: "",
  tier: "",
  category: "",
  description: "",
  energyTypes: [],
  eyecatchUrl: "",
  slug: "",
  isPublic: false,
  keywords: "",
  metaDescription: "",
  relatedDeckIds: [],
  featuredOrder: "",
  cards: [],
};

function draftOf(deck: DeckEditData | null): Draft {
  if (!deck) return EMPTY;
  return {
    name: deck.name,
    tier: String(deck.tier),
    category: deck.category,
    description: deck.description,
    energyTypes: deck.energyTypes,
    eyecatchUrl: deck.eyecatchUrl ?? "",
    slug: deck.slug,
    isPublic: deck.isPublic,
    keywords: deck.keywords,
    metaDescription: deck.metaDescription,
    relatedDeckIds: deck.relatedDeckIds,
    featuredOrder: deck.featuredOrder === null ? "" : String(deck.featuredOrder),
    cards: deck.cards,
  };
}

function payloadOf(draft: Draft) {
  return {
    name: draft.name,
    tier: draft.tier === "" ? undefined : Number(draft.tier),
    category: draft.category === "" ? undefined : draft.category,
    description: draft.description,
    energyTypes: draft.energyTypes,
    eyecatchUrl: draft.eyecatchUrl.trim() || null,
    slug: draft.slug.trim() || null,
    isPublic: draft.isPublic,
    keywords: draft.keywords,
    metaDescription: draft.metaDescription,
    relatedDeckIds: draft.relatedDeckIds,
    featuredOrder: draft.featuredOrder.trim() === "" ? null : draft.featuredOrder.trim(),
    cards: draft.cards.map((card) => ({ cardId: card.cardId, packId: card.packId, count: card.count })),
  };
}

/** The deck API's answer to a save: the deck's id, slug and new revision. */
const DeckSavedAnswer = z.object({ id: z.string().min(1), slug: z.string().min(1), revision: z.number().optional() });

export type DeckSaved = { id: string; slug: string; updated: boolean };

/**
 * The deck recipe editor デッキ作成 (docs/product-rules.md §2): 基本設定, コンテンツ編集 (カードリスト / 編集 /
 * プレビュー) and SEO設定, with a live n/20 counter and the rule problems in words. Save creates
 * without an id and updates with one (docs/product-rules.md §4); a missing name, tier or category is named at
 * its field when the admin leaves it or tries to save (§5). Nothing typed is lost: a local draft is kept until it is saved.
 */
export function DeckEditor({ deck, packs, deckOptions, onSaved }: { deck: DeckEditData | null; packs: PackChoice[]; deckOptions: DeckOption[]; onSaved: (saved: DeckSaved) => void }) {
  const t = useT(deckEditorMessages);
  const locale = useLocale();
  const td = useT(decksMessages);
  const te = useT(deckErrorMessages);
  const id = useId();
  const pristine = useMemo(() => draftOf(deck), [deck]);
  const [draft, setDraft] = useState<Draft>(pristine);
  const [tab, setTab] = useState<Tab>("basic");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Saving a public deck that breaks the game's rules waits for the admin's yes (docs/product-rules.md §5 rules).
  const [confirmingPublish, setConfirmingPublish] = useState(false);
  // The server's reason when it, not this editor's own check, found the deck illegal.
  const [publishReason, setPublishReason] = useState<string | null>(null);
  // The revision this editor last loaded or saved: a save names it, so a stale one is refused (409).
  const [revision, setRevision] = useState(deck?.revision ?? null);
  const draftKey = `deck:${deck?.id ?? "new"}`;
  const localDraft = useLocalDraft(draftKey, draft, pristine);
  const problemText = useProblemText();

  const set = <K extends keyof DeckFormValues>(key: K, value: DeckFormValues[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: "" }));
  };
  const legality = checkDeck(draft.cards, draft.energyTypes);
  // SPEC.md §5: 保存 is disabled unless name, tier and category are set, and the missing ones are named beside it.
  const missing = (["name", "tier", "category"] as const).filter((field) => draft[field].trim() === "");
  // docs/product-rules.md §5: a required field left empty says so at the field as soon as the admin leaves it.
  const checkField = (field: "name" | "tier" | "category") => {
    const checked = DeckInputSchema.safeParse(payloadOf(draft));
    const message = checked.success ? "" : (deckFieldErrors(checked.error, (key: DeckErrorMessageKey, params) => te(key, params))[field] ?? "");
    setErrors((current) => ({ ...current, [field]: message }));
  };

  async function save(options: { publishIllegal?: boolean } = {}) {
    setFailure(null);
    setConfirmingPublish(false);
    const payload = payloadOf(draft);
    const checked = DeckInputSchema.safeParse(payload);
    if (!checked.success) {
      const fields = deckFieldErrors(checked.error, (key: DeckErrorMessageKey, params) => te(key, params));
      setErrors(fields);
      setTab(fields.name || fields.tier || fields.category || fields.slug || fields.eyecatchUrl || fields.energyTypes ? "basic" : fields.metaDescription || fields.keywords ? "seo" : "content");
      return;
    }
    // A deck the game would refuse (このままでは構築できません) goes public only when the admin says so.
    if (draft.isPublic && legality.status === "illegal" && !options.publishIllegal) {
      setPublishReason(null);
      setConfirmingPublish(true);
      return;
    }
    setBusy(true);
    try {
      // The server refuses an illegal public deck unless the admin confirmed it in the dialog above.
      const body = { ...payload, ...(options.publishIllegal ? { publishIllegal: true } : {}), ...(deck ? { revision } : {}) };
      const sent = await send(deck ? `/api/admin/decks/${deck.id}` : "/api/admin/decks", { method: deck ? "PATCH" : "POST", json: body }, DeckSavedAnswer);
      const step = sent.ok ? null : refusedSaveStep(sent.status, sent.refusal, Boolean(options.publishIllegal));
      if (!sent.ok && step === "conflict") {
        // Someone else saved first: say so, keep every field as typed (the local draft stays too).
        setFailure(sent.refusal?.message ?? t("saveFailed"));
        return;
      }
      if (!sent.ok && step === "confirm") {
        // The server's rules found the deck illegal where this editor's check did not: ask the admin
        // in the same dialog, with the server's reason, instead of leaving them stuck on the refusal.
        setPublishReason(sent.refusal?.message ?? null);
        setConfirmingPublish(true);
        return;
      }
      if (!sent.ok) {
        if (sent.refusal?.fields) setErrors(sent.refusal.fields);
        throw new Error(sent.refusal?.message || `HTTP ${sent.status}`);
      }
      const answer = sent.data;
      if (answer.revision) setRevision(answer.revision);
      localDraft.clear();
      onSaved({ id: answer.id, slug: answer.slug, updated: Boolean(deck) });
    } catch (error) {
      console.error(t("saveFailed"), error);
      setFailure(error instanceof Error && error.message && !error.message.startsWith("HTTP") ? `${t("saveFailed")}: ${error.message}` : t("saveFailed"));
    } finally {
      setBusy(false);
    }
  }

  const tabs: { id: Tab; label: string }[] = [
    { id: "basic", label: t("tabBasic") },
    { id: "content", label: t("tabContent") },
    { id: "seo", label: t("tabSeo") },
  ];
  const tabId = (which: Tab) => `${id}-tab-${which}`;
  const total = legality.total;

  return (
    <div className="space-y-4">
      {localDraft.offer ? (
        <DraftNotice
          savedAt={localDraft.offer.savedAt}
          onRestore={() => {
            const restored = localDraft.restore();
            if (restored) setDraft({ ...EMPTY, ...restored });
          }}
          onDiscard={localDraft.discard}
        />
      ) : null}
      <div className="sticky top-14 z-10 flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white/95 px-3 py-2 text-sm" aria-live="polite">
        <span data-testid="deck-counter" className={`font-bold tabular-nums ${total === DECK_SIZE ? "text-green-800" : "text-red-700"}`}>
          {t("counter", { count: total })}
        </span>
        {legality.status === "legal" ? (
          <span className="font-bold text-green-800">{t("legalNow")}</span>
        ) : (
          <ul className="flex flex-wrap gap-x-3 text-red-800">
            {legality.problems.map((problem, i) => (
              <li key={i}>{problemText(problem)}</li>
            ))}
            {legality.basicUnknown ? <li className="text-amber-800">{td("probBasicUnknown")}</li> : null}
          </ul>
        )}
      </div>
      <TabList
        label={t("tabsLabel")}
        tabs={tabs}
        selected={tab}
        onSelect={setTab}
        tabId={tabId}
        panelId={() => `${id}-panel`}
        className="flex flex-wrap gap-1 border-b border-slate-200"
        tabClassName={(selected) => `-mb-px rounded-t-md border px-4 py-2 text-sm font-bold ${selected ? "border-slate-200 border-b-white bg-white text-brand-800" : "border-transparent text-slate-600 hover:text-brand-800"}`}
      />
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={tabId(tab)} className="rounded-b-lg bg-white p-1">
        {tab === "basic" ? (
          <DeckBasicSettings values={draft} set={set} errors={errors} deckOptions={deckOptions} deckId={deck?.id ?? null} onLeave={checkField} />
        ) : tab === "content" ? (
          <ContentEditor
            id={`${id}-description`}
            label={t("description")}
            value={draft.description}
            onChange={(value) => set("description", value)}
            error={errors.description || errors.cards}
            memoryKey={draftKey}
            packs={packs}
            defaultPackId={DEFAULT_PACK_ID}
            relatedSources={RELATED_SOURCES}
            imageFolder="images"
            rows={EDITOR_ROWS}
            extraViews={[
              {
                id: "cards",
                label: t("viewCards"),
                content: <DeckCardList cards={draft.cards} onChange={(update) => setDraft((current) => ({ ...current, cards: update(current.cards) }))} packs={packs} defaultPackId={DEFAULT_PACK_ID} />,
              },
            ]}
          />
        ) : (
          <SeoFields
            values={{ keywords: draft.keywords, metaDescription: draft.metaDescription }}
            onChange={(values) => setDraft((current) => ({ ...current, ...values }))}
            suggestFrom={() => ({ title: draft.name, content: draft.description })}
            errors={{ keywords: errors.keywords, metaDescription: errors.metaDescription }}
          />
        )}
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="button"
          onClick={() => void save()}
          disabled={busy || missing.length > 0}
          aria-describedby={missing.length > 0 ? `${id}-save-missing` : undefined}
          className="rounded-md bg-brand-700 px-6 py-2 font-bold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-500"
        >
          {busy ? t("saving") : t("save")}
        </button>
        {missing.length > 0 ? (
          <p id={`${id}-save-missing`} className="text-sm text-slate-700" data-testid="deck-save-missing">
            {t("saveMissing", { fields: missing.map((field) => t(field)).join(locale === "ja" ? "・" : ", ") })}
          </p>
        ) : null}
        {failure ? (
          <p role="alert" className="font-medium text-red-700">
            {failure}
          </p>
        ) : null}
      </div>
      {confirmingPublish ? (
        <Modal
          title={t("publishIllegalTitle")}
          size="sm"
          onClose={() => setConfirmingPublish(false)}
          footer={
            <>
              <button type="button" className={BUTTON_SECONDARY} onClick={() => setConfirmingPublish(false)}>
                {t("cancel")}
              </button>
              <button type="button" className={BUTTON_PRIMARY} onClick={() => void save({ publishIllegal: true })}>
                {t("publishIllegalYes")}
              </button>
            </>
          }
        >
          <p>{t("publishIllegalText")}</p>
          {publishReason && !legality.problems.length ? (
            <p role="alert" className="mt-2 text-red-800">
              {publishReason}
            </p>
          ) : null}
          <ul className="mt-2 list-disc space-y-1 pl-5 text-red-800">
            {legality.problems.map((problem, i) => (
              <li key={i}>{problemText(problem)}</li>
            ))}
          </ul>
        </Modal>
      ) : null}
    </div>
  );
}

// A stable array (the related picker re-searches when its sources change): articles and decks.
const RELATED_SOURCES = [articleRelatedSource(null), deckRelatedSource];
