/**
 * SEO keywords are typed comma separated; Japanese input gives 、 or ， too. Stored as "a, b, c"
 * (each once, spaces collapsed) — for the site settings and every article and deck recipe.
 */
export function normaliseKeywords(value: string): string {
  const seen = new Set<string>();
  for (const part of value.split(/[,，、]/)) {
    const keyword = part.trim().replace(/\s+/g, " ");
    if (keyword) seen.add(keyword);
  }
  return [...seen].join(", ");
}
