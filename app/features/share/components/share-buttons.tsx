import { useRouteLoaderData } from "react-router";
import { CopyButton } from "#app/components/ui/copy-button.tsx";
import { useT } from "#app/lib/i18n.tsx";
import type { loader as rootLoader } from "#app/root.tsx";
import { shareMessages } from "#app/features/share/messages.ts";
import { shareLinks } from "#app/features/share/share-links.ts";

const pill = "inline-flex items-center rounded-full border px-3 py-1.5 text-sm font-bold";

/**
 * Share an offer, a deck recipe or an article: X and LINE through their plain intent links (no
 * script of theirs loads) and a copy-link button that says コピーしました where it was pressed.
 */
export function ShareButtons({ path, text }: { path: string; text: string }) {
  const t = useT(shareMessages);
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const links = shareLinks(root?.site.url ?? "", path, text);
  return (
    <section aria-labelledby="share-buttons-h" className="space-y-2" data-share-buttons>
      <h2 id="share-buttons-h" className="text-sm font-bold text-slate-700">
        {t("shareHeading")}
      </h2>
      <div className="flex flex-wrap items-center gap-2">
        <a href={links.x} target="_blank" rel="noopener noreferrer" className={`${pill} border-slate-900 bg-slate-900 text-white hover:bg-slate-700`}>
          {t("shareX")}
          <span className="sr-only">{t("newTab")}</span>
        </a>
        <a href={links.line} target="_blank" rel="noopener noreferrer" className={`${pill} border-emerald-800 bg-emerald-800 text-white hover:bg-emerald-700`}>
          {t("shareLine")}
          <span className="sr-only">{t("newTab")}</span>
        </a>
        <CopyButton
          text={links.url}
          buttonText={t("copyLink")}
          ariaLabel={t("copyLinkLabel")}
          copiedText={t("copied")}
          failedText={t("copyFailed")}
          className={`${pill} border-slate-400 bg-white text-slate-800 hover:border-brand-600`}
        />
      </div>
    </section>
  );
}
