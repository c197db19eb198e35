import { useId, useRef, useState, type FormEvent } from "react";
import { load, send, UnexpectedAnswerError } from "#app/lib/send.ts";
import { z } from "#app/lib/zod.ts";
import { FormField } from "#app/components/ui/form-field.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { useT } from "#app/lib/i18n.tsx";
import { decodeCsvBytes } from "#app/features/cards/csv-encoding.ts";
import { cardAdminMessages } from "#app/features/cards/admin-messages.ts";
import { CardNameCorrectionForm, CatalogueUpdatePanel } from "./catalogue-update-panel";
import { OutcomeLine, type Outcome } from "#app/components/ui/outcome-line.tsx";

// Same limit as the server (import.server.ts): refuse before uploading.
const MAX_FILE_BYTES = 5 * 1024 * 1024;


/**
 * Admin カード管理 tab (docs/product-rules.md §2 item 4): pack id as the title, a CSV file, and a button
 * that shows 処理中... while uploading. The file is decoded in the browser (UTF-8 or
 * Shift_JIS from Excel) and sent as text to POST /api/admin/cards/import.
 */
/** The import API's answer: how many cards it stored. */
const ImportAnswer = z.object({ count: z.number().catch(0) });

export type CardsTabData = { packs: { id: string; name: string }[] };
const NEW_PACK = "";

/** The カード管理 tab: the CSV import, カタログ更新 and 日本語名の修正. */
export function CardsAdminPanel({ data }: { data: unknown }) {
  const packs = (data as CardsTabData | null)?.packs ?? [];
  return (
    <div className="space-y-8">
      <CatalogueUpdatePanel />
      <CardNameCorrectionForm />
      <CardImportForm packs={packs} />
      <ImportedCardsList packs={packs} />
    </div>
  );
}

export function CardImportForm({ packs = [] }: { packs?: CardsTabData["packs"] }) {
  const t = useT(cardAdminMessages);
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState(packs[0]?.id ?? NEW_PACK);
  const [newPackId, setNewPackId] = useState("");
  const [newPackName, setNewPackName] = useState("");
  const isNew = title === NEW_PACK;
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    const packId = isNew ? newPackId.trim() : title;
    if (!packId || (isNew && !newPackName.trim()) || !file) {
      setOutcome({ kind: "error", text: t("importMissingInputs") });
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      setOutcome({ kind: "error", text: t("importFailed", { message: t("importFileTooLarge", { max: 5 }) }) });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const csvData = decodeCsvBytes(new Uint8Array(await file.arrayBuffer()));
      const sent = await send("/api/admin/cards/import", { json: { title: packId, csvData, ...(isNew && { newPackName: newPackName.trim() }) } }, ImportAnswer);
      if (!sent.ok) throw new Error(sent.refusal?.message || t("importUploadFailed"));
      setOutcome({ kind: "success", text: t("importSuccess", { count: sent.data.count }) });
      if (fileInput.current) fileInput.current.value = "";
    } catch (error) {
      const message = error instanceof Error && error.message && !(error instanceof UnexpectedAnswerError) ? error.message : t("importUnknownError");
      setOutcome({ kind: "error", text: t("importFailed", { message }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-bold">
        {t("importHeading")}
      </h2>
      <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <div className="space-y-1">
          <label htmlFor={`${id}-title`} className="block font-medium">
            {t("importPack")}
          </label>
          <select id={`${id}-title`} name="title" value={title} onChange={(event) => setTitle(event.target.value)} className="block w-full max-w-md rounded-md border border-slate-400 bg-white px-3 py-2">
            {packs.map((pack) => (
              <option key={pack.id} value={pack.id}>
                {pack.name}（{pack.id}）
              </option>
            ))}
            <option value={NEW_PACK}>{t("importNewPack")}</option>
          </select>
        </div>
        {isNew ? (
          <>
            <FormField id={`${id}-new-id`} name="newPackId" type="text" label={t("importNewPackId")} value={newPackId} onChange={(event) => setNewPackId(event.target.value)} autoComplete="off" />
            <FormField id={`${id}-new-name`} name="newPackName" type="text" label={t("importNewPackName")} value={newPackName} onChange={(event) => setNewPackName(event.target.value)} autoComplete="off" />
          </>
        ) : null}
        <FormField
          id={`${id}-file`}
          ref={fileInput}
          name="csv"
          type="file"
          accept=".csv,text/csv"
          label={t("importFile")}
          hint={t("importHelp")}
          className="block text-sm file:mr-3 file:rounded-md file:border file:border-slate-400 file:bg-white file:px-3 file:py-1.5 file:font-medium hover:file:border-brand-600"
        />
        <SubmitButton pending={busy} pendingText={t("importBusy")}>
          {t("importSubmit")}
        </SubmitButton>
        <OutcomeLine outcome={outcome} multiline />
      </form>
    </section>
  );
}

const ImportedList = z.object({ cards: z.array(z.object({ id: z.string(), name: z.string(), nameEn: z.string(), rarity: z.string(), imageUrl: z.string() })) });
type Imported = z.infer<typeof ImportedList>["cards"][number];

/** 取り込んだカード: the pack's cards from the CSV import, renamed or deleted (refused while something refers to one). */
function ImportedCardsList({ packs }: { packs: CardsTabData["packs"] }) {
  const t = useT(cardAdminMessages);
  const id = useId();
  const [packId, setPackId] = useState(packs[0]?.id ?? "");
  const [list, setList] = useState<Imported[] | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function show() {
    setOutcome(null);
    const loaded = await load(`/api/admin/cards/imported?pack=${encodeURIComponent(packId)}`, ImportedList).catch(() => null);
    if (loaded) setList(loaded.cards);
    else setOutcome({ kind: "error", text: t("importUnknownError") });
  }

  async function save(card: Imported, name: string) {
    const sent = await send(`/api/admin/cards/imported/${encodeURIComponent(card.id)}`, { method: "PATCH", json: { name, nameEn: card.nameEn, rarity: card.rarity, imageUrl: card.imageUrl } }).catch(() => null);
    setOutcome(sent?.ok ? { kind: "success", text: t("importedSaved", { name }) } : { kind: "error", text: (sent && !sent.ok && sent.refusal?.message) || t("importUnknownError") });
  }

  async function remove(card: Imported) {
    const sent = await send(`/api/admin/cards/imported/${encodeURIComponent(card.id)}`, { method: "DELETE" }).catch(() => null);
    if (sent?.ok) {
      setList((current) => current?.filter((c) => c.id !== card.id) ?? null);
      setOutcome({ kind: "success", text: t("importedDeleted", { name: card.name }) });
    } else setOutcome({ kind: "error", text: (sent && !sent.ok && sent.refusal?.message) || t("importUnknownError") });
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-bold">
        {t("importedHeading")}
      </h2>
      <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <label htmlFor={`${id}-pack`} className="block font-medium">
          {t("importPack")}
        </label>
        <select id={`${id}-pack`} value={packId} onChange={(event) => setPackId(event.target.value)} className="block w-full max-w-md rounded-md border border-slate-400 bg-white px-3 py-2">
          {packs.map((pack) => (
            <option key={pack.id} value={pack.id}>
              {pack.name}（{pack.id}）
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void show()} className="rounded-md border border-slate-400 px-3 py-1.5 font-medium hover:border-brand-600">
          {t("importedShow")}
        </button>
        {list && !list.length ? <p>{t("importedNone")}</p> : null}
        <ul className="space-y-2">
          {list?.map((card) => (
            <li key={card.id} className="flex flex-wrap items-center gap-2">
              <input aria-label={`${card.name}（${card.rarity}）`} defaultValue={card.name} id={`${id}-${card.id}`} className="min-w-0 flex-1 rounded-md border border-slate-400 px-2 py-1" />
              <span>{card.rarity}</span>
              <button type="button" onClick={() => void save(card, (document.getElementById(`${id}-${card.id}`) as HTMLInputElement).value.trim())} className="rounded-md border border-slate-400 px-2 py-1">
                {t("importedSave")}
              </button>
              <button type="button" onClick={() => void remove(card)} className="rounded-md border border-red-700 px-2 py-1 text-red-700">
                {t("importedDelete")}
              </button>
            </li>
          ))}
        </ul>
        <OutcomeLine outcome={outcome} />
      </div>
    </section>
  );
}
