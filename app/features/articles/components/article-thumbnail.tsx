import type { ArticleCategory } from "#app/features/articles/categories.ts";

const TONES: Record<ArticleCategory, string> = {
  news: "from-sky-500 to-indigo-600",
  maintenance: "from-slate-500 to-slate-700",
  event: "from-pink-500 to-rose-600",
  guide: "from-emerald-500 to-teal-700",
  "deck-recipe": "from-amber-500 to-orange-700",
};

/**
 * An article's thumbnail at 1200:630, or a designed placeholder in the category's colours with
 * the category name, so a list without pictures still reads as a list of articles.
 */
export function ArticleThumbnail({ url, category, label, eager = false, className = "" }: { url: string | null; category: ArticleCategory; label: string; eager?: boolean; className?: string }) {
  if (url) {
    return (
      <img
        src={url}
        alt=""
        width={1200}
        height={630}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        className={`aspect-[1200/630] w-full rounded-lg bg-slate-100 object-cover ${className}`}
      />
    );
  }
  return (
    <div aria-hidden="true" className={`flex aspect-[1200/630] w-full items-center justify-center rounded-lg bg-gradient-to-br ${TONES[category]} ${className}`}>
      <span className="rounded-full bg-white/20 px-3 py-1 text-sm font-bold tracking-wider text-white">{label}</span>
    </div>
  );
}
