import { useId, useRef, useState, type FormEvent } from "react";
import { send } from "#app/lib/send.ts";
import { z } from "#app/lib/zod.ts";
import { FormField } from "#app/components/ui/form-field.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { useT } from "#app/lib/i18n.tsx";
import { decodeCsvBytes } from "#app/features/cards/csv-encoding.ts";
import { cardAdminMessages } from "#app/features/cards/admin-messages.ts";
import { tokyoDay } from "#app/lib/tokyo-time.ts";
import { OutcomeLine, type Outcome } from "#app/components/ui/outcome-line.tsx";

const PlanSchema = z.looseObject({
  newSets: z.array(z.object({ code: z.string(), nameJa: z.string(), releaseDate: z.string(), cards: z.number() })),
  newCards: z.number(),
  renamed: z.array(z.object({ id: z.string(), from: z.string(), to: z.string() })),
  correctionsKept: z.array(z.object({ id: z.string(), name: z.string() })),
  rarityChanged: z.array(z.unknown()),
  otherChanged: z.number(),
  removed: z.number(),
  kept: z.number(),
  changes: z.boolean(),
});
type Plan = z.infer<typeof PlanSchema>;
const PreviewAnswer = z.object({ plan: PlanSchema, digest: z.string() });
const ApplyAnswer = z.object({ plan: PlanSchema });


/** カタログ更新 (カード管理): choose files → プレビュー (nothing written) → 適用 the previewed plan. */
export function CatalogueUpdatePanel() {
  const t = useT(cardAdminMessages);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<{ name: string; text: string }[] | null>(null);
  const [preview, setPreview] = useState<{ plan: Plan; digest: string } | null>(null);
  const [holds, setHolds] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function readFiles(): Promise<{ name: string; text: string }[]> {
    const chosen = [...(input.current?.files ?? [])];
    return Promise.all(
      chosen.map(async (file) => {
        const bytes = new Uint8Array(await file.arrayBuffer());
        // A CSV may come from Excel in Shift_JIS; the JSON files are UTF-8.
        return { name: file.name, text: /\.csv$/i.test(file.name) ? decodeCsvBytes(bytes) : new TextDecoder().decode(bytes) };
      }),
    );
  }

  async function onPreview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    setPreview(null);
    try {
      const read = await readFiles();
      const sent = await send("/api/admin/cards/catalogue", { json: { step: "preview", files: read } }, PreviewAnswer);
      if (!sent.ok) throw new Error(sent.refusal?.message || t("importUploadFailed"));
      setFiles(read);
      setPreview(sent.data);
      const today = tokyoDay();
      // A set released later than today (in Japan, as the server counts) is held until its release date unless the admin says otherwise.
      setHolds(Object.fromEntries(sent.data.plan.newSets.map((set) => [set.code, set.releaseDate > today ? set.releaseDate : null])));
      if (!sent.data.plan.changes) setOutcome({ kind: "success", text: t("catalogueNoChange") });
    } catch (error) {
      setOutcome({ kind: "error", text: error instanceof Error && error.message ? error.message : t("importUnknownError") });
    } finally {
      setBusy(false);
    }
  }

  async function onApply() {
    if (!files || !preview) return;
    setBusy(true);
    setOutcome(null);
    try {
      const chosenHolds = Object.entries(holds).flatMap(([setCode, until]) => (until ? [{ setCode, until }] : []));
      const sent = await send("/api/admin/cards/catalogue", { json: { step: "apply", files, digest: preview.digest, holds: chosenHolds } }, ApplyAnswer);
      if (!sent.ok) throw new Error(sent.refusal?.message || t("importUploadFailed"));
      const plan = sent.data.plan;
      setOutcome({ kind: "success", text: plan.changes ? t("catalogueApplied", { cards: plan.newCards, renamed: plan.renamed.length }) : t("catalogueNoChange") });
      setPreview(null);
    } catch (error) {
      setOutcome({ kind: "error", text: error instanceof Error && error.message ? error.message : t("importUnknownError") });
    } finally {
      setBusy(false);
    }
  }

  const plan = preview?.plan;
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-bold">
        {t("catalogueHeading")}
      </h2>
      <form onSubmit={onPreview} noValidate className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <FormField
          id={`${id}-files`}
          ref={input}
          name="catalogue"
          type="file"
          multiple
          accept=".json,.csv,application/json,text/csv"
          label={t("catalogueFiles")}
          hint={t("catalogueHelp")}
          className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-400 file:bg-white file:px-3 file:py-1.5 file:font-medium hover:file:border-brand-600"
        />
        <SubmitButton pending={busy && !preview} pendingText={t("importBusy")}>
          {t("cataloguePreview")}
        </SubmitButton>
      </form>
      {plan && plan.changes ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void onApply();
          }}
          noValidate
          className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
          data-testid="catalogue-preview"
        >
          <p className="font-bold">{t("catalogueSummary", { sets: plan.newSets.length, cards: plan.newCards, renamed: plan.renamed.length, rarity: plan.rarityChanged.length, removed: plan.removed })}</p>
          <p className="text-sm text-slate-700">{t("catalogueOther", { other: plan.otherChanged, kept: plan.kept })}</p>
          {plan.newSets.map((set) => (
            <fieldset key={set.code} className="space-y-2 rounded-md border border-slate-200 p-3">
              <legend className="px-1 font-medium">{t("catalogueNewSet", { code: set.code, name: set.nameJa, date: set.releaseDate, cards: set.cards })}</legend>
              <label className="flex items-center gap-2">
                <input type="checkbox" checked={holds[set.code] != null} onChange={(e) => setHolds({ ...holds, [set.code]: e.target.checked ? set.releaseDate : null })} />
                {t("catalogueHold", { date: holds[set.code] ?? set.releaseDate })}
              </label>
              {holds[set.code] != null ? (
                <FormField id={`${id}-hold-${set.code}`} name={`hold-${set.code}`} type="date" label={t("catalogueHoldDate", { code: set.code })} value={holds[set.code] ?? ""} onChange={(e) => setHolds({ ...holds, [set.code]: e.target.value })} />
              ) : null}
            </fieldset>
          ))}
          {plan.renamed.length ? (
            <ul className="list-disc pl-5 text-sm">
              {plan.renamed.slice(0, 20).map((r) => (
                <li key={r.id}>
                  {r.id}: {r.from} → {r.to}
                </li>
              ))}
            </ul>
          ) : null}
          {plan.correctionsKept.map((c) => (
            <p key={c.id} className="text-sm text-slate-700">
              {t("catalogueKeptName", { id: c.id, name: c.name })}
            </p>
          ))}
          <SubmitButton pending={busy} pendingText={t("importBusy")}>
            {t("catalogueApply")}
          </SubmitButton>
        </form>
      ) : null}
      <OutcomeLine outcome={outcome} />
    </section>
  );
}

/** 日本語名の修正: a card id, its Japanese name and the name's source; updates keep it. */
export function CardNameCorrectionForm() {
  const t = useT(cardAdminMessages);
  const id = useId();
  const [cardId, setCardId] = useState("");
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    const sent = await send("/api/admin/cards/names", { json: { cardId: cardId.trim(), name, note } }).catch(() => null);
    setBusy(false);
    if (sent?.ok) setOutcome({ kind: "success", text: t("namesSaved", { id: cardId.trim(), name: name.trim() }) });
    else setOutcome({ kind: "error", text: (sent && !sent.ok && sent.refusal?.message) || t("importUnknownError") });
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-bold">
        {t("namesHeading")}
      </h2>
      <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <FormField id={`${id}-card`} name="cardId" type="text" label={t("namesCardId")} value={cardId} onChange={(e) => setCardId(e.target.value)} autoComplete="off" />
        <FormField id={`${id}-name`} name="name" type="text" label={t("namesName")} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        <FormField id={`${id}-note`} name="note" type="text" label={t("namesNote")} value={note} onChange={(e) => setNote(e.target.value)} autoComplete="off" />
        <SubmitButton pending={busy} pendingText={t("importBusy")}>
          {t("namesSubmit")}
        </SubmitButton>
        <OutcomeLine outcome={outcome} />
      </form>
    </section>
  );
}
