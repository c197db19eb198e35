/**
 * /robots.txt: private areas (account, chat, admin, APIs) are not for crawlers; everything else
 * is, and the sitemap says where it is. Sign-in pages also carry robots noindex (lib/seo.ts).
 */
export function robotsTxt(siteUrl: string): string {
  const disallow = ["/admin", "/api/", "/chat/", "/profile", "/login", "/signup", "/logout", "/language", "/trades/new"];
  return ["User-agent: *", ...disallow.map((path) => `Disallow: ${path}`), "", `Sitemap: ${siteUrl}/sitemap.xml`, ""].join("\n");
}
