import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { TabList } from "#app/components/ui/tabs.tsx";
import { useT } from "#app/lib/i18n.tsx";
import { ImageUploadButton } from "#app/features/uploads/components/image-upload-button.tsx";
import type { UploadFolder } from "#app/features/uploads/rules.ts";
import type { ContentRefs } from "#app/features/content/blocks.ts";
import type { CardFace } from "#app/lib/card-face.ts";
import { ContentHtml } from "./content-body";
import { insertBlock, insertCode, insertInline, markdownImage, markdownLink, prefixLines, wrapSelection, type TextEdit } from "#app/features/content/editing.ts";
import { contentRefIds, formatContent, type ContentRefIds } from "#app/features/content/format.ts";
import { contentMessages, type ContentMessageKey } from "#app/features/content/messages.ts";
import { fetchContentRefs } from "#app/features/content/preview-refs.ts";
import { CardPicker, type PackOption } from "./card-picker";
import { LinkDialog } from "./link-dialog";
import { RelatedPicker, type RelatedSource } from "./related-picker";

/** A view shown before 編集 / プレビュー (the deck editor's card list). */
export type EditorView = { id: string; label: string; content: ReactNode };

export type ContentEditorProps = {
  /** The textarea's id (labels) and form name (default "content"). */
  id: string;
  name?: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** Where scroll and cursor are remembered (sessionStorage), e.g. "article:<id>" or "deck:new". */
  memoryKey: string;
  /** The card picker's packs, and the one selected first (the deck editor: dialga). */
  packs: PackOption[];
  defaultPackId?: string;
  /** The related picker's sources (articles, deck recipes). Pass a stable array. */
  relatedSources: RelatedSource[];
  /** Upload folder of images inserted from the toolbar. */
  imageFolder?: UploadFolder;
  rows?: number;
  /** How the preview looks blocks up (default: POST /api/admin/content/refs). */
  resolveRefs?: (ids: ContentRefIds, signal: AbortSignal) => Promise<ContentRefs>;
  extraViews?: EditorView[];
};

type Memory = { scrollTop: number; selectionStart: number; selectionEnd: number; previewScrollTop: number };
type Dialog = { kind: "link"; start: number; end: number } | { kind: "card" } | { kind: "related" } | null;

const MEMORY_PREFIX = "torepoke:editor:";

function readMemory(key: string): Memory | null {
  try {
    const raw = window.sessionStorage.getItem(MEMORY_PREFIX + key);
    return raw ? (JSON.parse(raw) as Memory) : null;
  } catch {
    return null;
  }
}

function writeMemory(key: string, memory: Memory) {
  try {
    window.sessionStorage.setItem(MEMORY_PREFIX + key, JSON.stringify(memory));
  } catch {
    // storage disabled: positions are simply not kept
  }
}

/**
 * The content editor of articles and deck recipes (docs/product-rules.md §2): a plain textarea (Japanese IME
 * input stays reliable) with a formatting toolbar — headings, bold, italic, code, list, link
 * (hyperlink dialog), image (upload, inserted at the cursor), card (card picker), related
 * (related picker) — and 編集 / プレビュー. The preview is the one formatter with the same
 * lookups the server uses, so it shows what readers will get. Switching to the preview and back
 * restores the scroll and cursor position, kept in sessionStorage under `memoryKey`.
 */
export function ContentEditor(props: ContentEditorProps) {
  const { id, name = "content", label, value, onChange, error, memoryKey, packs, defaultPackId, relatedSources, imageFolder = "images", rows = 20, extraViews = [] } = props;
  const t = useT(contentMessages);
  const uid = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const preview = useRef<HTMLDivElement>(null);
  const selection = useRef({ start: value.length, end: value.length });
  const pendingSelection = useRef<{ start: number; end: number } | null>(null);
  const [view, setView] = useState<string>("edit");
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const resolveRefs = props.resolveRefs ?? fetchContentRefs;

  const remember = useCallback(() => {
    const el = textarea.current;
    const kept = readMemory(memoryKey);
    writeMemory(memoryKey, {
      scrollTop: el ? el.scrollTop : (kept?.scrollTop ?? 0),
      selectionStart: el ? el.selectionStart : (kept?.selectionStart ?? 0),
      selectionEnd: el ? el.selectionEnd : (kept?.selectionEnd ?? 0),
      previewScrollTop: preview.current ? preview.current.scrollTop : (kept?.previewScrollTop ?? 0),
    });
  }, [memoryKey]);

  // Back in 編集 (or mounted again): scroll and cursor where they were.
  useLayoutEffect(() => {
    const el = textarea.current;
    if (view !== "edit" || !el) return;
    const kept = readMemory(memoryKey);
    if (!kept) return;
    const max = el.value.length;
    el.setSelectionRange(Math.min(kept.selectionStart, max), Math.min(kept.selectionEnd, max));
    selection.current = { start: el.selectionStart, end: el.selectionEnd };
    el.scrollTop = kept.scrollTop;
  }, [view, memoryKey]);

  // After a toolbar edit, the selection goes where the edit says.
  useLayoutEffect(() => {
    const wanted = pendingSelection.current;
    const el = textarea.current;
    if (!wanted || !el) return;
    pendingSelection.current = null;
    el.focus();
    el.setSelectionRange(wanted.start, wanted.end);
    selection.current = wanted;
  }, [value]);

  const apply = (edit: TextEdit) => {
    pendingSelection.current = { start: edit.selectionStart, end: edit.selectionEnd };
    setNotice(null);
    onChange(edit.text);
  };
  const current = () => {
    const el = textarea.current;
    return el && document.activeElement === el ? { start: el.selectionStart, end: el.selectionEnd } : selection.current;
  };
  const edit = (make: (text: string, start: number, end: number) => TextEdit) => () => {
    const { start, end } = current();
    apply(make(value, start, end));
  };

  const switchTo = (next: string) => {
    if (next === view) return;
    remember();
    setView(next);
  };

  const tools: { key: string; text: ContentMessageKey; label?: ContentMessageKey; run: () => void }[] = [
    { key: "h2", text: "heading2", label: "heading2Label", run: edit((text, s, e) => prefixLines(text, s, e, "## ")) },
    { key: "h3", text: "heading3", label: "heading3Label", run: edit((text, s, e) => prefixLines(text, s, e, "### ")) },
    { key: "bold", text: "bold", run: edit((text, s, e) => wrapSelection(text, s, e, "**", "**", t("placeholderBold"))) },
    { key: "italic", text: "italic", run: edit((text, s, e) => wrapSelection(text, s, e, "*", "*", t("placeholderItalic"))) },
    { key: "code", text: "code", run: edit((text, s, e) => insertCode(text, s, e, t("placeholderCode"))) },
    { key: "list", text: "list", run: edit((text, s, e) => prefixLines(text, s, e, "- ")) },
    {
      key: "link",
      text: "link",
      run: () => {
        const { start, end } = current();
        if (start === end || !value.slice(start, end).trim()) setNotice(t("linkNeedsSelection"));
        else setDialog({ kind: "link", start, end });
      },
    },
    { key: "card", text: "card", run: () => setDialog({ kind: "card" }) },
    { key: "related", text: "related", run: () => setDialog({ kind: "related" }) },
  ];

  const views = [...extraViews.map((v) => ({ id: v.id, label: v.label })), { id: "edit", label: t("edit") }, { id: "preview", label: t("preview") }];
  const tabId = (viewId: string) => `${uid}-view-${viewId}`;

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <label htmlFor={id} className="block font-medium">
          {label}
        </label>
        <TabList
          label={t("viewsLabel")}
          tabs={views}
          selected={view}
          onSelect={switchTo}
          tabId={tabId}
          panelId={() => `${uid}-panel`}
          className="flex gap-1"
          tabClassName={(selected) => `rounded-md px-3 py-1 text-sm font-bold ${selected ? "bg-brand-700 text-white" : "border border-slate-300 bg-white text-slate-700"}`}
        />
      </div>
      <div id={`${uid}-panel`} role="tabpanel" aria-labelledby={tabId(view)}>
        {view === "edit" ? (
          <div className="space-y-2">
            <div role="toolbar" aria-label={t("toolbarLabel")} aria-controls={id} className="flex flex-wrap items-start gap-1 rounded-md border border-slate-200 bg-slate-50 p-1">
              {tools.map((tool) => (
                <button
                  key={tool.key}
                  type="button"
                  aria-label={tool.label ? t(tool.label) : undefined}
                  // Keep the textarea's selection: the toolbar acts on it.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={tool.run}
                  className="rounded border border-slate-300 bg-white px-2.5 py-1 text-sm font-medium hover:border-brand-600"
                >
                  {t(tool.text)}
                </button>
              ))}
              <ImageUploadButton
                folder={imageFolder}
                label={t("image")}
                onUploaded={(result) => {
                  const { start, end } = selection.current;
                  const alt = value.slice(start, end).trim() || t("imageAlt");
                  apply(insertInline(value, start, end, markdownImage(alt, result.url)));
                }}
              />
            </div>
            {notice ? (
              <p role="alert" className="text-sm font-medium text-red-700">
                {notice}
              </p>
            ) : null}
            <textarea
              ref={textarea}
              id={id}
              name={name}
              rows={rows}
              value={value}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => {
                setNotice(null);
                onChange(event.target.value);
              }}
              onSelect={(event) => {
                selection.current = { start: event.currentTarget.selectionStart, end: event.currentTarget.selectionEnd };
              }}
              className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-base leading-relaxed focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-500/40 aria-[invalid=true]:border-red-600"
            />
          </div>
        ) : view === "preview" ? (
          <Preview source={value} resolveRefs={resolveRefs} container={preview} memoryKey={memoryKey} onScroll={remember} />
        ) : (
          extraViews.find((candidate) => candidate.id === view)?.content
        )}
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {dialog?.kind === "link" ? (
        <LinkDialog
          selectedText={value.slice(dialog.start, dialog.end)}
          onClose={() => setDialog(null)}
          onAdd={(url) => {
            setDialog(null);
            apply(insertInline(value, dialog.start, dialog.end, markdownLink(value.slice(dialog.start, dialog.end), url)));
          }}
        />
      ) : dialog?.kind === "card" ? (
        <CardPicker
          packs={packs}
          defaultPackId={defaultPackId}
          onClose={() => setDialog(null)}
          onInsert={(card) => {
            setDialog(null);
            const { start, end } = selection.current;
            apply(insertBlock(value, start, end, `[[card:${card.id}]]`));
          }}
        />
      ) : dialog?.kind === "related" ? (
        <RelatedPicker
          sources={relatedSources}
          onClose={() => setDialog(null)}
          onChoose={(item) => {
            setDialog(null);
            const { start, end } = selection.current;
            apply(insertBlock(value, start, end, `[[${item.kind}:${item.ref}]]`));
          }}
        />
      ) : null}
    </div>
  );
}

/** プレビュー: the formatter's output with the blocks looked up, scroll position kept. */
function Preview({
  source,
  resolveRefs,
  container,
  memoryKey,
  onScroll,
}: {
  source: string;
  resolveRefs: (ids: ContentRefIds, signal: AbortSignal) => Promise<ContentRefs>;
  container: React.RefObject<HTMLDivElement | null>;
  memoryKey: string;
  onScroll: () => void;
}) {
  const t = useT(contentMessages);
  const [html, setHtml] = useState<string | null>(null);
  // The card faces of the previewed card blocks (drawn as the page draws them).
  const [faces, setFaces] = useState<Record<string, CardFace>>({});

  useEffect(() => {
    const controller = new AbortController();
    resolveRefs(contentRefIds(source), controller.signal)
      .catch((error: unknown) => {
        // Without the lookups the blocks show as not found; the text itself still previews.
        if (!controller.signal.aborted) console.error("preview lookups failed", error);
        return {} as ContentRefs;
      })
      .then((refs) => {
        if (controller.signal.aborted) return;
        const found: Record<string, CardFace> = {};
        for (const [id, card] of refs.cards ?? []) if (card.face) found[id] = card.face;
        setFaces(found);
        setHtml(formatContent(source, refs));
      });
    return () => controller.abort();
  }, [source, resolveRefs]);

  useLayoutEffect(() => {
    if (html === null || !container.current) return;
    container.current.scrollTop = readMemory(memoryKey)?.previewScrollTop ?? 0;
  }, [html, container, memoryKey]);

  return (
    <div
      ref={container}
      onScroll={onScroll}
      tabIndex={0}
      aria-busy={html === null}
      className="max-h-[70vh] min-h-[12rem] overflow-y-auto rounded-md border border-slate-300 bg-white px-4 py-3"
      data-testid="content-preview"
    >
      {html === null ? (
        <p className="text-slate-600">{t("previewLoading")}</p>
      ) : html.trim() === "" ? (
        <p className="text-slate-600">{t("previewEmpty")}</p>
      ) : (
        <ContentHtml html={html} faces={faces} />
      )}
    </div>
  );
}
