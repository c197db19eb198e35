import { useState } from "react";
import { load, send } from "#app/lib/send.ts";
import { recordWithId } from "#app/lib/answers.ts";
import { Link, useRevalidator, useSearchParams } from "react-router";
import { BUTTON_SECONDARY, ConfirmDialog } from "#app/components/ui/modal.tsx";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { deckEditorMessages } from "#app/features/decks/editor-messages.ts";
import type { AdminDeckRow, DeckEditData, DeckOption } from "#app/features/decks/types.ts";
import type { PackChoice } from "./deck-card-list";
import { DeckEditor, type DeckSaved } from "./deck-editor";
import { tokyoMediumDateTime } from "#app/lib/tokyo-time.ts";

/** What the admin route loads for this tab (features/admin/tab-data.server.ts). */
export type DecksTabData = { decks: AdminDeckRow[]; packs: PackChoice[]; deckOptions: DeckOption[] } | { loadError: true };

type Panel = { key: string; title: string; deck: DeckEditData | null } | { key: string; title: string; failed: true };
type Message = { kind: "ok" | "error"; text: string } | null;


/**
 * Admin デッキ管理 (docs/product-rules.md §2 item 3): open deck editor panels (closable), the deck list newest
 * first (name, 公開/非公開, total cards, created date-time, 編集, 削除 with a confirmation) and the
 * new-deck button to /admin/deck-recipes/new. After a save in a panel it closes and the list reloads.
 */
export function DecksPanel({ data }: { data: unknown }) {
  const t = useT(deckEditorMessages);
  const locale = useLocale();
  const revalidator = useRevalidator();
  const [params, setParams] = useSearchParams();
  const tabData = data as DecksTabData | null;
  const [panels, setPanels] = useState<Panel[]>([]);
  const [message, setMessage] = useState<Message>(() => {
    const saved = params.get("saved");
    return saved === "created" ? { kind: "ok", text: t("saved") } : saved === "updated" ? { kind: "ok", text: t("updated") } : null;
  });
  const [confirming, setConfirming] = useState<AdminDeckRow | null>(null);
  const [deleting, setDeleting] = useState(false);

  if (!tabData || "loadError" in tabData) {
    return (
      <p role="alert" className="rounded-md bg-red-50 px-4 py-3 font-medium text-red-700">
        {t("listLoadFailed")}
      </p>
    );
  }
  const { decks, packs, deckOptions } = tabData;

  const dropSavedParam = () => {
    if (!params.has("saved")) return;
    const next = new URLSearchParams(params);
    next.delete("saved");
    setParams(next, { replace: true, preventScrollReset: true });
  };
  const close = (key: string) => setPanels((list) => list.filter((p) => p.key !== key));
  const openNew = () => setPanels((list) => (list.some((p) => p.key === "new") ? list : [{ key: "new", title: t("panelNew"), deck: null }, ...list]));
  async function openEdit(row: AdminDeckRow) {
    if (panels.some((p) => p.key === row.id)) return;
    const title = t("panelEdit", { name: row.name });
    try {
      const deck = await load(`/api/admin/decks/${row.id}`, recordWithId<DeckEditData>());
      setPanels((list) => [{ key: row.id, title, deck }, ...list]);
    } catch (error) {
      console.error(t("loadFailed"), error);
      setPanels((list) => [{ key: row.id, title, failed: true }, ...list]);
    }
  }
  const onSaved = (key: string) => (saved: DeckSaved) => {
    close(key);
    dropSavedParam();
    setMessage({ kind: "ok", text: saved.updated ? t("updated") : t("saved") });
    void revalidator.revalidate();
  };
  async function remove(row: AdminDeckRow) {
    setDeleting(true);
    try {
      const sent = await send(`/api/admin/decks/${row.id}`, { method: "DELETE" });
      if (!sent.ok) {
        console.error(t("deleteFailed"), sent.status);
        setMessage({ kind: "error", text: sent.refusal ? `${t("deleteFailed")}: ${sent.refusal.message}` : t("deleteFailed") });
        return;
      }
      close(row.id);
      setMessage({ kind: "ok", text: t("deleted") });
      void revalidator.revalidate();
    } catch (error) {
      console.error(t("deleteFailed"), error);
      setMessage({ kind: "error", text: t("deleteFailed") });
    } finally {
      setDeleting(false);
      setConfirming(null);
    }
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <Link to="/admin/deck-recipes/new" className="rounded-md bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800">
          {t("newDeck")}
        </Link>
        <button type="button" onClick={openNew} className={BUTTON_SECONDARY}>
          {t("openNewPanel")}
        </button>
      </div>
      <div aria-live="polite">
        {message ? (
          <p role={message.kind === "error" ? "alert" : "status"} className={`rounded-md px-4 py-2 font-medium ${message.kind === "ok" ? "bg-green-50 text-green-800" : "bg-red-50 text-red-700"}`}>
            {message.text}
          </p>
        ) : null}
      </div>

      {panels.map((panel) => (
        <section key={panel.key} aria-label={panel.title} className="space-y-3 rounded-xl border border-slate-300 bg-slate-50 p-4">
          <div className="flex items-center justify-between gap-3">
            <h3 className="text-lg font-bold">{panel.title}</h3>
            <button type="button" onClick={() => close(panel.key)} className={BUTTON_SECONDARY} aria-label={`${t("closePanel")}: ${panel.title}`}>
              {t("closePanel")}
            </button>
          </div>
          {"failed" in panel ? (
            <p role="alert" className="font-medium text-red-700">
              {t("loadFailed")}
            </p>
          ) : (
            <DeckEditor deck={panel.deck} packs={packs} deckOptions={deckOptions} onSaved={onSaved(panel.key)} />
          )}
        </section>
      ))}

      <section aria-labelledby="deck-list-heading" className="space-y-2">
        <h3 id="deck-list-heading" className="text-lg font-bold">
          {t("listHeading")}
        </h3>
        {decks.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">{t("empty")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table role="table" className="card-table w-full border-collapse text-sm sm:bg-white">
              <thead role="rowgroup">
                <tr role="row" className="border-b border-slate-300 text-left">
                  <th role="columnheader" scope="col" className="px-3 py-2">{t("colName")}</th>
                  <th role="columnheader" scope="col" className="px-3 py-2">{t("colStatus")}</th>
                  <th role="columnheader" scope="col" className="px-3 py-2">{t("colTotal")}</th>
                  <th role="columnheader" scope="col" className="px-3 py-2">{t("colCreated")}</th>
                  <th role="columnheader" scope="col" className="px-3 py-2">{t("colActions")}</th>
                </tr>
              </thead>
              <tbody role="rowgroup">
                {decks.map((row) => (
                  <tr role="row" key={row.id} className="border-b border-slate-200">
                    <th role="rowheader" scope="row" className="px-3 py-2 text-left font-medium">
                      {row.name}
                    </th>
                    <td role="cell" className="px-3 py-2" data-label={t("colStatus")}>
                      <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${row.isPublic ? "bg-green-100 text-green-900" : "bg-slate-200 text-slate-800"}`}>{row.isPublic ? t("public") : t("private")}</span>
                    </td>
                    <td role="cell" className="px-3 py-2 tabular-nums" data-label={t("colTotal")}>{t("total", { count: row.total })}</td>
                    <td role="cell" className="px-3 py-2" data-label={t("colCreated")}>
                      <time dateTime={row.createdAt}>{tokyoMediumDateTime(row.createdAt, locale)}</time>
                    </td>
                    <td role="cell" className="px-3 py-2" data-label={t("colActions")}>
                      <div className="flex flex-wrap gap-x-3 gap-y-2">
                        <Link to={`/admin/deck-recipes/edit/${row.id}`} className="text-brand-700 underline" aria-label={`${t("edit")}: ${row.name}`}>
                          {t("edit")}
                        </Link>
                        <button type="button" onClick={() => void openEdit(row)} className="text-brand-700 underline" aria-label={`${t("editHere")}: ${row.name}`}>
                          {t("editHere")}
                        </button>
                        <Link to={`/deck-recipes/${encodeURIComponent(row.slug)}`} className="text-brand-700 underline" aria-label={`${t("view")}: ${row.name}`}>
                          {t("view")}
                        </Link>
                        <button type="button" onClick={() => setConfirming(row)} className="text-red-700 underline" aria-label={`${t("delete")}: ${row.name}`}>
                          {t("delete")}
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {confirming ? (
        <ConfirmDialog
          title={t("deleteTitle")}
          confirmLabel={t("deleteYes")}
          cancelLabel={t("cancel")}
          busy={deleting}
          onConfirm={() => void remove(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <p>{t("deleteConfirm", { name: confirming.name })}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
