import { useCallback, useEffect, useState } from "react";
import { load, send } from "#app/lib/send.ts";
import { record, recordWithId } from "#app/lib/answers.ts";
import { z } from "#app/lib/zod.ts";
import { ConfirmDialog } from "#app/components/ui/modal.tsx";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import type { PackOption } from "#app/features/content/components/card-picker.tsx";
import { categoryLabel } from "#app/features/articles/categories.ts";
import { tokyoDate } from "#app/lib/tokyo-time.ts";
import { articlesMessages } from "#app/features/articles/messages.ts";
import type { AdminArticleRow, ArticleForEditor } from "#app/features/articles/types.ts";
import { ArticleEditor, type SaveOutcome } from "./article-editor";

/** What the admin route loads for this tab (features/admin/tab-data.server.ts). */
export type ArticlesTabData = { articles: AdminArticleRow[] | null; packs: PackOption[] };

type Editing = { article: ArticleForEditor | null; key: number } | null;
type Message = { kind: "ok" | "error"; text: string } | null;

/**
 * Admin 記事管理 (docs/product-rules.md §2 tab 1, the default): 新規作成, the editor, and the table of all
 * articles (title, category, 公開中 / 非公開, created date; edit, publish/unpublish in place, delete
 * after confirmation). After a save the editor closes and the list reloads (docs/product-rules.md §4).
 */
export function ArticlesPanel({ data }: { data: unknown }) {
  const t = useT(articlesMessages);
  const locale = useLocale();
  const tabData = data as ArticlesTabData | null;
  const [rows, setRows] = useState<AdminArticleRow[] | null>(tabData?.articles ?? null);
  const [loadFailed, setLoadFailed] = useState(!tabData?.articles);
  const [editing, setEditing] = useState<Editing>(null);
  const [message, setMessage] = useState<Message>(null);
  const [busyRow, setBusyRow] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<AdminArticleRow | null>(null);
  const packs = tabData?.packs ?? [];

  const reload = useCallback(async () => {
    try {
      setRows((await load("/api/admin/articles", z.object({ articles: z.array(record<AdminArticleRow>()) }))).articles);
      setLoadFailed(false);
    } catch (error) {
      console.error(t("loadFailed"), error);
      setLoadFailed(true);
    }
  }, [t]);

  useEffect(() => {
    if (!tabData?.articles) void reload();
  }, [tabData, reload]);

  const openEditor = async (id: string | null) => {
    setMessage(null);
    if (!id) {
      setEditing({ article: null, key: Date.now() });
      window.scrollTo({ top: 0 });
      return;
    }
    try {
      setEditing({ article: await load(`/api/admin/articles/${id}`, recordWithId<ArticleForEditor>()), key: Date.now() });
      // docs/product-rules.md §2: editing an existing article scrolls to the top.
      window.scrollTo({ top: 0 });
    } catch (error) {
      console.error(t("loadFailed"), error);
      setMessage({ kind: "error", text: t("loadFailed") });
    }
  };

  const onSaved = (outcome: SaveOutcome) => {
    setEditing(null);
    setMessage({ kind: "ok", text: outcome.kind === "created" ? t("created") : t("updatedMessage") });
    void reload();
  };

  const toggle = async (row: AdminArticleRow) => {
    setBusyRow(row.id);
    setMessage(null);
    try {
      const sent = await send(`/api/admin/articles/${row.id}/visibility`, { json: { isPublic: !row.isPublic } }, recordWithId<AdminArticleRow>());
      if (!sent.ok) {
        console.error(t("toggleFailed"), sent.status);
        setMessage({ kind: "error", text: sent.refusal ? `${t("toggleFailed")}: ${sent.refusal.message}` : t("toggleFailed") });
        return;
      }
      const updated = sent.data;
      setRows((current) => current?.map((r) => (r.id === updated.id ? updated : r)) ?? null);
    } catch (error) {
      console.error(t("toggleFailed"), error);
      setMessage({ kind: "error", text: t("toggleFailed") });
    } finally {
      setBusyRow(null);
    }
  };

  const remove = async (row: AdminArticleRow) => {
    setConfirming(null);
    setBusyRow(row.id);
    setMessage(null);
    try {
      const sent = await send(`/api/admin/articles/${row.id}`, { method: "DELETE" });
      if (!sent.ok) {
        console.error(t("deleteFailed"), sent.status);
        setMessage({ kind: "error", text: sent.refusal ? `${t("deleteFailed")}: ${sent.refusal.message}` : t("deleteFailed") });
        return;
      }
      setRows((current) => current?.filter((r) => r.id !== row.id) ?? null);
      if (editing?.article?.id === row.id) setEditing(null);
      setMessage({ kind: "ok", text: t("deleted") });
    } catch (error) {
      console.error(t("deleteFailed"), error);
      setMessage({ kind: "error", text: t("deleteFailed") });
    } finally {
      setBusyRow(null);
    }
  };

  const action = "rounded-md border px-3 py-1 text-sm font-medium disabled:opacity-60";
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-4">
        <button type="button" onClick={() => void openEditor(null)} className="rounded-md bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800">
          {t("newArticle")}
        </button>
        <div aria-live="polite">
          {message ? (
            <p role={message.kind === "error" ? "alert" : "status"} className={`font-medium ${message.kind === "error" ? "text-red-700" : "text-green-800"}`}>
              {message.text}
            </p>
          ) : null}
        </div>
      </div>

      {editing ? (
        <ArticleEditor
          key={editing.key}
          article={editing.article}
          packs={packs}
          onSaved={onSaved}
          onCancel={() => {
            setMessage(null);
            setEditing(null);
          }}
          onReloadLatest={() => void openEditor(editing.article?.id ?? null)}
        />
      ) : null}

      {loadFailed ? (
        <p role="alert" className="rounded-md bg-red-50 px-4 py-3 font-medium text-red-700">
          {t("loadFailed")}
        </p>
      ) : rows && rows.length === 0 ? (
        <p className="text-slate-600">{t("noArticles")}</p>
      ) : rows ? (
        <div className="overflow-x-auto sm:rounded-lg sm:border sm:border-slate-200 sm:bg-white">
          <table role="table" className="card-table w-full text-left text-sm">
            <caption className="sr-only">{t("tableCaption")}</caption>
            <thead role="rowgroup" className="bg-slate-50 text-slate-700">
              <tr role="row">
                <th role="columnheader" scope="col" className="px-3 py-2">{t("colTitle")}</th>
                <th role="columnheader" scope="col" className="px-3 py-2">{t("colCategory")}</th>
                <th role="columnheader" scope="col" className="px-3 py-2">{t("colStatus")}</th>
                <th role="columnheader" scope="col" className="px-3 py-2">{t("colCreated")}</th>
                <th role="columnheader" scope="col" className="px-3 py-2">{t("colActions")}</th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {rows.map((row) => (
                <tr role="row" key={row.id} className="border-t border-slate-100" data-article-id={row.id}>
                  <th role="rowheader" scope="row" className="px-3 py-2 font-medium">
                    {row.title}
                  </th>
                  <td role="cell" className="px-3 py-2" data-label={t("colCategory")}>{categoryLabel(row.category, locale)}</td>
                  <td role="cell" className="px-3 py-2" data-label={t("colStatus")}>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${row.isPublic ? "bg-green-100 text-green-900" : "bg-slate-200 text-slate-800"}`}>
                      {row.isPublic ? t("statusPublic") : t("statusPrivate")}
                    </span>
                  </td>
                  <td role="cell" className="px-3 py-2" data-label={t("colCreated")}>
                    <time dateTime={row.createdAt}>{tokyoDate(row.createdAt, locale)}</time>
                  </td>
                  <td role="cell" className="px-3 py-2" data-label={t("colActions")}>
                    <div className="flex flex-wrap gap-1">
                      <button type="button" className={`${action} border-slate-400 bg-white`} onClick={() => void openEditor(row.id)} aria-label={`${t("edit")}: ${row.title}`}>
                        {t("edit")}
                      </button>
                      <button
                        type="button"
                        className={`${action} border-brand-700 bg-white text-brand-800`}
                        disabled={busyRow === row.id}
                        onClick={() => void toggle(row)}
                        aria-label={`${row.isPublic ? t("unpublish") : t("publish")}: ${row.title}`}
                      >
                        {row.isPublic ? t("unpublish") : t("publish")}
                      </button>
                      <button
                        type="button"
                        className={`${action} border-red-700 bg-white text-red-700`}
                        disabled={busyRow === row.id}
                        onClick={() => {
                          setMessage(null);
                          setConfirming(row);
                        }}
                        aria-label={`${t("delete")}: ${row.title}`}
                      >
                        {t("delete")}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {confirming ? (
        <ConfirmDialog
          title={t("deleteConfirmTitle")}
          confirmLabel={t("deleteConfirm")}
          cancelLabel={t("cancel")}
          onConfirm={() => void remove(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <p>{t("deleteConfirmText", { title: confirming.title })}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
