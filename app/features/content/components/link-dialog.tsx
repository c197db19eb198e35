import { useId, useState } from "react";
import { BUTTON_PRIMARY, BUTTON_SECONDARY, Modal } from "#app/components/ui/modal.tsx";
import { useT } from "#app/lib/i18n.tsx";
import { normaliseLinkUrl } from "#app/features/content/editing.ts";
import { contentMessages } from "#app/features/content/messages.ts";

/**
 * docs/product-rules.md §2/§5 hyperlink dialog: shows the selected text and a URL field; 追加 is disabled while
 * the URL is blank. The editor opens it only with a selection (otherwise it says
 * リンクにするテキストを選択してください). Every link opens in a new tab with noopener (the
 * formatter adds target and rel to every link).
 */
export function LinkDialog({ selectedText, onAdd, onClose }: { selectedText: string; onAdd: (url: string) => void; onClose: () => void }) {
  const t = useT(contentMessages);
  const id = useId();
  const [url, setUrl] = useState("");
  const [error, setError] = useState<string | null>(null);

  // No <form> here: the dialog sits inside the editor's form, and a nested submit would save the article.
  const submit = () => {
    if (url.trim() === "") return;
    const normalised = normaliseLinkUrl(url);
    if (!normalised) {
      setError(t("linkBadUrl"));
      return;
    }
    onAdd(normalised);
  };

  return (
    <Modal
      title={t("linkTitle")}
      onClose={onClose}
      size="sm"
      initialFocus={`[id="${id}-url"]`}
      footer={
        <>
          <button type="button" className={BUTTON_SECONDARY} onClick={onClose}>
            {t("cancel")}
          </button>
          <button type="button" onClick={submit} className={BUTTON_PRIMARY} disabled={url.trim() === ""}>
            {t("linkAdd")}
          </button>
        </>
      }
    >
      <div className="space-y-3">
        <div>
          <p className="text-sm font-medium text-slate-600">{t("linkSelected")}</p>
          <p className="mt-1 rounded-md bg-slate-100 px-3 py-2" data-testid="link-selected-text">
            {selectedText}
          </p>
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-url`} className="block font-medium">
            {t("linkUrl")}
          </label>
          <input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            autoComplete="off"
            value={url}
            placeholder="https://"
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
            onChange={(event) => {
              setUrl(event.target.value);
              setError(null);
            }}
            onKeyDown={(event) => {
              if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
              event.preventDefault();
              submit();
            }}
            className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-500/40 aria-[invalid=true]:border-red-600"
          />
          <p id={`${id}-hint`} className="text-sm text-slate-600">
            {t("linkNewTab")}
          </p>
          {error ? (
            <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">
              {error}
            </p>
          ) : null}
        </div>
      </div>
    </Modal>
  );
}
