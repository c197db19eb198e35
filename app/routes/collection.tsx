import { useCallback, useRef, useState, type FormEvent } from "react";
import { Form, Link, useNavigation, useRevalidator, useSubmit } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { RouteError } from "#app/components/ui/route-error.tsx";
import { SelectField, FormField } from "#app/components/ui/form-field.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { countChangeAnswer, importAnswer, settingsAnswer, WANT_MODES, type CollectionSettingsValues } from "#app/features/collection/answers.ts";
import { CollectionPageQuerySchema } from "#app/features/collection/collection.schema.ts";
import { collectionPage } from "#app/features/collection/collection.server.ts";
import { CollectionCardTile } from "#app/features/collection/components/collection-card.tsx";
import { ProgressList } from "#app/features/collection/components/collection-progress.tsx";
import { useCountSaver } from "#app/features/collection/components/use-count-saver.ts";
import { collectionMessages } from "#app/features/collection/messages.ts";
import { packChoiceMessages } from "#app/features/collection/pack-messages.ts";
import { cardsMessages } from "#app/features/cards/messages.ts";
import { requireViewer } from "#app/features/users/session.server.ts";
import { withPageErrors } from "#app/lib/api.server.ts";
import { ELEMENTS, TYPE_MESSAGE } from "#app/lib/card-face.ts";
import { queryOf } from "#app/lib/input.server.ts";
import { translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { displayRarity } from "#app/lib/rarity.ts";
import { send } from "#app/lib/send.ts";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/collection";

const FILTER_LABEL = "block text-sm font-medium";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  return seoMeta(args, { title: translate(collectionMessages, locale, "title"), description: translate(collectionMessages, locale, "description"), noindex: true });
};

/** /collection (signed in; signed out → /login and back): one set's prints with the player's counts. */
export const loader = withPageErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const query = CollectionPageQuerySchema.parse(queryOf(request));
  const page = await collectionPage(context.db, viewer.id, query);
  return { ...page, userId: viewer.id };
});

type Undo = { restore: { cardId: string; count: number }[]; label: string };

function pageUrl(filter: Route.ComponentProps["loaderData"]["filter"], page: number): string {
  const search = new URLSearchParams({ set: filter.set });
  if (filter.pack) search.set("pack", filter.pack);
  if (filter.rarity) search.set("rarity", filter.rarity);
  if (filter.type) search.set("type", filter.type);
  if (filter.owned) search.set("owned", filter.owned);
  if (filter.q) search.set("q", filter.q);
  if (page > 1) search.set("page", String(page));
  return `/collection?${search}`;
}

export default function Collection({ loaderData }: Route.ComponentProps) {
  const t = useT(collectionMessages);
  const tCards = useT(cardsMessages);
  const tPacks = useT(packChoiceMessages);
  const locale = useLocale();
  const submit = useSubmit();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const { sets, set, packs, filter, rarities, cards, total, page, pages, pageSize, progress, settings, tradeRarities, userId } = loaderData;
  const revalidate = useCallback(() => void revalidator.revalidate(), [revalidator]);
  const saver = useCountSaver(userId, revalidate);
  const [undo, setUndo] = useState<Undo | null>(null);
  const [notice, setNotice] = useState("");
  const [bulkBusy, setBulkBusy] = useState(false);
  const countOf = (card: { id: string; count: number }) => saver.overrides.get(card.id) ?? card.count;
  const nameOf = (card: { name: string; nameEn: string }) => (locale === "en" && card.nameEn ? card.nameEn : card.name);

  const changeOne = (card: (typeof cards)[number], count: number) => {
    const before = countOf(card);
    saver.change([{ cardId: card.id, count }]);
    setUndo({ restore: [{ cardId: card.id, count: before }], label: t("changed", { name: nameOf(card), count }) });
    setNotice("");
  };

  const runUndo = () => {
    if (!undo) return;
    saver.change(undo.restore);
    setUndo(null);
    setNotice(t("undone"));
  };

  const runBulk = async (mode: "one" | "zero") => {
    const affected = mode === "one" ? loaderData.missingInFilter : loaderData.ownedInFilter;
    if (!window.confirm(t(mode === "one" ? "bulkOneConfirm" : "bulkZeroConfirm", { count: affected }))) return;
    setBulkBusy(true);
    try {
      const sent = await send("/api/collection/bulk", { json: { filter: { ...filter, pack: filter.pack || null, rarity: filter.rarity || null, type: filter.type || null, owned: filter.owned || null }, mode } }, countChangeAnswer);
      if (!sent.ok) {
        setNotice(t("failed", { message: sent.refusal?.message ?? t("serverFailed", { status: sent.status }) }));
        return;
      }
      saver.showSaved(sent.data.counts);
      setUndo(sent.data.previous.length ? { restore: sent.data.previous, label: t("bulkChanged", { count: sent.data.counts.length }) } : null);
      setNotice(t("bulkChanged", { count: sent.data.counts.length }));
      revalidate();
    } catch {
      setNotice(t("failed", { message: t("offline", { count: 0 }) }));
    } finally {
      setBulkBusy(false);
    }
  };

  const status = saver.state;
  const statusText =
    status.kind === "offline"
      ? t("offline", { count: status.pending })
      : status.kind === "retrying"
        ? t("retrying", { count: status.pending })
        : status.kind === "refused"
          ? t("failed", { message: status.message })
          : status.kind === "saving"
            ? t("saving")
            : notice || (undo ? undo.label : "");
  const warn = status.kind === "offline" || status.kind === "retrying" || status.kind === "refused";
  const from = (page - 1) * pageSize + 1;
  const setName = (s: { nameJa: string; nameEn: string; code: string }) => `${locale === "en" ? s.nameEn : s.nameJa}（${s.code}）`;
  const packName = (id: string) => {
    const p = packs.find((x) => x.id === id);
    return p ? (locale === "en" ? p.nameEn : p.nameJa) : id;
  };

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">{t("heading")}</h1>
        <p className="mt-1 text-sm text-slate-700">{t("intro")}</p>
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <li>
            <Link to="/collection/trades" className="font-bold text-brand-800 underline">
              {t("tradeCandidatesLink")}
            </Link>
          </li>
          <li>
            <Link to="/collection/packs" className="text-brand-700 underline">
              {tPacks("link")}
            </Link>
          </li>
        </ul>
      </div>

      <Form method="get" action="/collection" aria-label={t("filters")} className="grid grid-cols-2 items-end gap-2 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-3 sm:gap-3 sm:p-4 lg:grid-cols-[2fr_2fr_1fr_1fr_1fr_2fr_auto]">
        <SelectField id="collection-set" name="set" label={t("set")} labelClassName={FILTER_LABEL} defaultValue={set.code} key={`set-${set.code}`} onChange={(event) => {
          const form = event.currentTarget.form;
          if (!form) return;
          // Another set has other packs: its pack filter starts over.
          (form.elements.namedItem("pack") as HTMLSelectElement).value = "";
          void submit(form);
        }}>
          {sets.map((s) => (
            <option key={s.code} value={s.code}>
              {setName(s)}
            </option>
          ))}
        </SelectField>
        <SelectField id="collection-pack" name="pack" label={t("pack")} labelClassName={FILTER_LABEL} defaultValue={filter.pack ?? ""} key={`pack-${filter.pack}`} onChange={(event) => void submit(event.currentTarget.form)}>
          <option value="">{t("allPacks")}</option>
          {packs.map((p) => (
            <option key={p.id} value={p.id}>
              {locale === "en" ? p.nameEn : p.nameJa}
            </option>
          ))}
        </SelectField>
        <SelectField id="collection-rarity" name="rarity" label={t("rarity")} labelClassName={FILTER_LABEL} defaultValue={filter.rarity} key={`rarity-${filter.rarity}`} onChange={(event) => void submit(event.currentTarget.form)}>
          <option value="">{t("allRarities")}</option>
          {rarities.map((r) => (
            <option key={r} value={r}>
              {displayRarity(r)}
            </option>
          ))}
        </SelectField>
        <SelectField id="collection-type" name="type" label={t("type")} labelClassName={FILTER_LABEL} defaultValue={filter.type} key={`type-${filter.type}`} onChange={(event) => void submit(event.currentTarget.form)}>
          <option value="">{t("allTypes")}</option>
          {ELEMENTS.map((e) => (
            <option key={e} value={e}>
              {tCards(TYPE_MESSAGE[e])}
            </option>
          ))}
          <option value="trainer">{t("trainer")}</option>
        </SelectField>
        <SelectField id="collection-owned" name="owned" label={t("owned")} labelClassName={FILTER_LABEL} defaultValue={filter.owned} key={`owned-${filter.owned}`} onChange={(event) => void submit(event.currentTarget.form)}>
          <option value="">{t("ownedAll")}</option>
          <option value="have">{t("ownedHave")}</option>
          <option value="missing">{t("ownedMissing")}</option>
          <option value="duplicate">{t("ownedDuplicate")}</option>
        </SelectField>
        <FormField id="collection-q" name="q" type="search" label={t("search")} labelClassName={FILTER_LABEL} defaultValue={filter.q} key={`q-${filter.q}`} maxLength={100} placeholder={t("searchPlaceholder")} />
        <SubmitButton>{t("apply")}</SubmitButton>
      </Form>

      <div className={`sticky top-0 z-10 flex flex-wrap items-center gap-3 rounded-md bg-white/95 text-sm ${statusText || undo ? "border border-slate-200 px-3 py-2" : ""}`}>
        <p role="status" aria-live="polite" className={`flex-1 ${warn ? "font-bold text-red-800" : "text-slate-800"}`} data-save-state={status.kind}>
          {statusText}
        </p>
        {status.kind === "retrying" || status.kind === "offline" ? (
          <button type="button" className="rounded-md border border-slate-400 bg-white px-3 py-1.5 font-medium" onClick={() => void saver.retryNow()}>
            {t("retryNow")}
          </button>
        ) : null}
        {undo ? (
          <button type="button" className="rounded-md bg-slate-800 px-3 py-1.5 font-bold text-white" onClick={runUndo}>
            {t("undo")}
          </button>
        ) : null}
      </div>

      <section aria-labelledby="collection-list-heading" aria-busy={navigation.state === "loading"}>
        <h2 id="collection-list-heading" className="text-lg font-bold">
          {setName(set)}
        </h2>
        {cards.length === 0 ? (
          <p className="mt-4 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">{t("empty")}</p>
        ) : (
          <>
            <p className="mt-1 text-sm text-slate-700">{t("resultCount", { total, from, to: from + cards.length - 1 })}</p>
            <ul className="mt-3 grid grid-cols-3 gap-2 sm:grid-cols-4 md:grid-cols-6 lg:grid-cols-8" aria-label={t("cardList")}>
              {cards.map((card, i) => (
                <CollectionCardTile key={card.id} card={card} count={countOf(card)} eager={i < 6} onChange={(count) => changeOne(card, count)} />
              ))}
            </ul>
          </>
        )}
        {pages > 1 ? (
          <nav aria-label={t("pagination")} className="mt-4 flex justify-between gap-3 text-sm">
            {page > 1 ? (
              <Link to={pageUrl(filter, page - 1)} className="rounded-md border border-slate-300 bg-white px-4 py-2 hover:border-brand-500">
                {t("previousPage")}
              </Link>
            ) : (
              <span />
            )}
            <span className="self-center text-slate-700">
              {page} / {pages}
            </span>
            {page < pages ? (
              <Link to={pageUrl(filter, page + 1)} className="rounded-md bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800">
                {t("nextPage")}
              </Link>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
      </section>

      <section aria-labelledby="collection-bulk-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="collection-bulk-heading" className="text-lg font-bold">
          {t("bulkHeading")}
        </h2>
        <div className="mt-2 flex flex-wrap gap-2">
          <button type="button" disabled={bulkBusy || loaderData.missingInFilter === 0} onClick={() => void runBulk("one")} className="rounded-md border border-brand-700 bg-white px-3 py-2 text-sm font-bold text-brand-800 disabled:opacity-50">
            {t("bulkOne")}
          </button>
          <button type="button" disabled={bulkBusy || loaderData.ownedInFilter === 0} onClick={() => void runBulk("zero")} className="rounded-md border border-slate-400 bg-white px-3 py-2 text-sm font-bold text-slate-800 disabled:opacity-50">
            {t("bulkZero")}
          </button>
        </div>
      </section>

      <section aria-labelledby="collection-progress-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="collection-progress-heading" className="text-lg font-bold">
          {t("progressHeading")}
        </h2>
        <div className="mt-3 grid gap-6 md:grid-cols-3">
          <ProgressList heading={t("progressSets")} rows={sets.flatMap((s) => {
            const row = progress.sets.find((r) => r.key === s.code);
            return row ? [{ key: s.code, label: setName(s), row }] : [];
          })} />
          <ProgressList heading={t("progressPacks")} rows={progress.packs.map((row) => ({ key: row.key, label: packName(row.key), row }))} />
          <ProgressList heading={t("progressRarities")} rows={[...progress.rarities].sort((a, b) => rarities.indexOf(a.key) - rarities.indexOf(b.key)).map((row) => ({ key: row.key, label: displayRarity(row.key), row }))} />
        </div>
      </section>

      <CsvTools onImported={revalidate} />
      <CollectionSettingsForm initial={settings} sets={sets.map((s) => ({ code: s.code, name: setName(s) }))} rarityChoices={tradeRarities.map((r) => ({ code: r.code, label: displayRarity(r.code) }))} />
    </div>
  );
}

function CsvTools({ onImported }: { onImported: () => void }) {
  const t = useT(collectionMessages);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setMessage({ ok: false, text: t("errorCsvMissing") });
      return;
    }
    const form = new FormData();
    form.set("file", file);
    setBusy(true);
    try {
      const sent = await send("/api/collection/import", { form }, importAnswer);
      if (sent.ok) {
        setMessage({ ok: true, text: t("csvImported", { count: sent.data.count }) });
        onImported();
      } else setMessage({ ok: false, text: sent.refusal?.message ?? t("serverFailed", { status: sent.status }) });
    } catch {
      setMessage({ ok: false, text: t("networkFailed") });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="collection-csv-heading" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="collection-csv-heading" className="text-lg font-bold">
        {t("csvHeading")}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t("csvHelp")}</p>
      <div className="mt-3 flex flex-wrap items-end gap-4">
        <a href="/api/collection/export.csv" download className="rounded-md border border-brand-700 px-3 py-2 text-sm font-bold text-brand-800">
          {t("csvExport")}
        </a>
        <form onSubmit={(event) => void onSubmit(event)} className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor="collection-csv" className="block text-sm font-medium">
              {t("csvFile")}
            </label>
            <input ref={fileRef} id="collection-csv" name="file" type="file" accept=".csv,text/csv" className="mt-1 block max-w-full text-sm" />
          </div>
          <button type="submit" disabled={busy} className="rounded-md bg-brand-700 px-3 py-2 text-sm font-bold text-white disabled:opacity-50">
            {t("csvImport")}
          </button>
        </form>
      </div>
      {message ? (
        <p role={message.ok ? "status" : "alert"} className={`mt-2 text-sm ${message.ok ? "text-green-800" : "font-bold text-red-800"}`}>
          {message.text}
        </p>
      ) : null}
    </section>
  );
}

type SettingsValues = CollectionSettingsValues;

const WANT_MODE_LABEL = { missing: "wantModeMissing", wants: "wantModeWants", both: "wantModeBoth" } as const;

/** A list setting: nothing chosen means every one (null). */
function toggled(list: string[] | null, value: string, on: boolean): string[] | null {
  const next = new Set(list ?? []);
  if (on) next.add(value);
  else next.delete(value);
  return next.size ? [...next] : null;
}

function CollectionSettingsForm({ initial, sets, rarityChoices }: { initial: SettingsValues; sets: { code: string; name: string }[]; rarityChoices: { code: string; label: string }[] }) {
  const t = useT(collectionMessages);
  const [values, setValues] = useState(initial);
  const [keep, setKeep] = useState(String(initial.keepCount));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const keepCount = /^\d{1,2}$/.test(keep.trim()) ? Number(keep.trim()) : NaN;
    if (!Number.isInteger(keepCount)) {
      setMessage({ ok: false, text: t("errorKeepCount") });
      return;
    }
    try {
      const sent = await send("/api/collection/settings", { method: "PUT", json: { ...values, keepCount } }, settingsAnswer);
      if (sent.ok) setValues(sent.data);
      setMessage(sent.ok ? { ok: true, text: t("settingsSaved") } : { ok: false, text: sent.refusal?.message ?? t("serverFailed", { status: sent.status }) });
    } catch {
      setMessage({ ok: false, text: t("networkFailed") });
    }
  };
  return (
    <section id="collection-settings" aria-labelledby="collection-settings-heading" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="collection-settings-heading" className="text-lg font-bold">
        {t("settingsHeading")}
      </h2>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-2 space-y-2">
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-1 h-4 w-4" checked={values.showProgress} onChange={(event) => setValues({ ...values, showProgress: event.target.checked })} />
          <span>{t("showProgress")}</span>
        </label>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-1 h-4 w-4" checked={values.useForTrades} aria-describedby="collection-trades-help" onChange={(event) => setValues({ ...values, useForTrades: event.target.checked })} />
          <span>{t("useForTrades")}</span>
        </label>
        <p id="collection-trades-help" className="text-xs text-slate-700">
          {t("useForTradesHelp")}
        </p>
        <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-sm font-bold">{t("tradeSettingsHeading")}</legend>
          <div className="max-w-xs">
            <FormField id="collection-keep-count" label={t("keepCount")} hint={t("keepCountHelp")} type="number" inputMode="numeric" min={0} max={99} value={keep} onChange={(event) => setKeep(event.target.value)} />
          </div>
          <fieldset>
            <legend className="text-sm font-medium">{t("tradeRarities")}</legend>
            <p className="text-xs text-slate-700">{t("tradeRaritiesHelp")}</p>
            <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              {rarityChoices.map((r) => (
                <label key={r.code} className="flex items-center gap-1 text-sm">
                  <input type="checkbox" className="h-4 w-4" checked={values.tradeRarities?.includes(r.code) ?? false} onChange={(event) => setValues({ ...values, tradeRarities: toggled(values.tradeRarities, r.code, event.target.checked) })} />
                  <span>{r.label}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className="text-sm font-medium">{t("wantMode")}</legend>
            <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              {WANT_MODES.map((mode) => (
                <label key={mode} className="flex items-center gap-1 text-sm">
                  <input type="radio" name="wantMode" className="h-4 w-4" checked={values.wantMode === mode} onChange={() => setValues({ ...values, wantMode: mode })} />
                  <span>{t(WANT_MODE_LABEL[mode])}</span>
                </label>
              ))}
            </div>
          </fieldset>
          {values.wantMode !== "wants" ? (
            <fieldset>
              <legend className="text-sm font-medium">{t("wantSets")}</legend>
              <p className="text-xs text-slate-700">{t("wantSetsHelp")}</p>
              <div className="mt-1 grid gap-1 sm:grid-cols-2">
                {sets.map((s) => (
                  <label key={s.code} className="flex items-center gap-1 text-sm">
                    <input type="checkbox" className="h-4 w-4" checked={values.wantSets?.includes(s.code) ?? false} onChange={(event) => setValues({ ...values, wantSets: toggled(values.wantSets, s.code, event.target.checked) })} />
                    <span>{s.name}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          ) : null}
        </fieldset>
        <button type="submit" className="rounded-md bg-brand-700 px-3 py-2 text-sm font-bold text-white">
          {t("settingsSave")}
        </button>
        {message ? (
          <p role={message.ok ? "status" : "alert"} className={`text-sm ${message.ok ? "text-green-800" : "font-bold text-red-800"}`}>
            {message.text}
          </p>
        ) : null}
      </form>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
