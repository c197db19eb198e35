import { useId, useState } from "react";
import { CopyButton } from "#app/components/ui/copy-button.tsx";
import { useT } from "#app/lib/i18n.tsx";
import type { DeckTextFormat } from "#app/features/decks/deck-text.ts";
import { decksMessages } from "#app/features/decks/messages.ts";

/**
 * The deck as community-format text, with a copy button (a live region says whether it worked):
 * Japanese section names by default, the English format (Pokémon: / Trainer:) for tools that
 * read only that.
 */
export function DeckExport({ text, textEn }: { text: string; textEn: string }) {
  const t = useT(decksMessages);
  const id = useId();
  const [format, setFormat] = useState<DeckTextFormat>("ja");
  const shown = format === "ja" ? text : textEn;
  return (
    <section aria-labelledby={`${id}-h`} className="space-y-2">
      <h2 id={`${id}-h`} className="text-lg font-bold">
        {t("exportHeading")}
      </h2>
      <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
        <legend className="sr-only">{t("exportFormat")}</legend>
        {(["ja", "en"] as const).map((candidate) => (
          <label key={candidate} className="flex items-center gap-1.5">
            <input type="radio" name={`${id}-format`} value={candidate} checked={format === candidate} onChange={() => setFormat(candidate)} className="h-4 w-4 accent-brand-700" />
            {candidate === "ja" ? t("exportFormatJa") : t("exportFormatEn")}
          </label>
        ))}
      </fieldset>
      <label htmlFor={id} className="sr-only">
        {t("exportLabel")}
      </label>
      <textarea id={id} readOnly value={shown} lang={format} rows={8} className="block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm" />
      <CopyButton
        text={shown}
        buttonText={t("exportCopy")}
        copiedText={t("exportCopied")}
        failedText={t("exportFailed")}
        className="rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium hover:border-brand-600"
      />
    </section>
  );
}
