import { useT } from "#app/lib/i18n.tsx";
import { shareMessages } from "#app/features/share/messages.ts";

/** The page's share image, shown small, with a link that downloads it (for posting on X or LINE by hand). */
export function ShareImageDownload({ src, fileName, alt }: { src: string; fileName: string; alt: string }) {
  const t = useT(shareMessages);
  return (
    <section aria-labelledby="share-image-h" className="space-y-2" data-share-image>
      <h2 id="share-image-h" className="text-lg font-bold">
        {t("download")}
      </h2>
      <img src={src} alt={alt} width={1200} height={630} loading="lazy" decoding="async" className="w-full max-w-md rounded-lg border border-slate-200 shadow-card" />
      <p className="text-sm text-slate-600">{t("downloadHint")}</p>
      <a href={src} download={fileName} className="inline-block rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium hover:border-brand-600">
        {t("download")}
      </a>
    </section>
  );
}
