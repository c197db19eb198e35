import { useLocale, useT } from "#app/lib/i18n.tsx";
import { tokyoShortDateTime } from "#app/lib/tokyo-time.ts";
import { contentMessages } from "#app/features/content/messages.ts";

/** The offer of a kept draft (useLocalDraft): when it was typed, 復元する / 破棄する. */
export function DraftNotice({ savedAt, onRestore, onDiscard }: { savedAt: string; onRestore: () => void; onDiscard: () => void }) {
  const t = useT(contentMessages);
  const locale = useLocale();
  const time = tokyoShortDateTime(savedAt, locale);
  return (
    <div role="status" className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3">
      <p className="font-medium text-amber-900">{t("draftFound", { time })}</p>
      <div className="flex gap-2">
        <button type="button" onClick={onRestore} className="rounded-md bg-amber-700 px-3 py-1.5 text-sm font-bold text-white hover:bg-amber-800">
          {t("draftRestore")}
        </button>
        <button type="button" onClick={onDiscard} className="rounded-md border border-amber-700 bg-white px-3 py-1.5 text-sm font-medium text-amber-900">
          {t("draftDiscard")}
        </button>
      </div>
    </div>
  );
}
