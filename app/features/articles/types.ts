import type { ArticleCategory } from "./categories";

// Shapes the article service returns; shared by the server, the routes and the browser components.

/** An article as lists show it: thumbnail (or placeholder), category, date (JST) and title. */
export type ArticleListItem = {
  id: string;
  slug: string;
  title: string;
  category: ArticleCategory;
  thumbnailUrl: string | null;
  publishedAt: string;
  updatedAt: string;
};

export type ArticleDetail = ArticleListItem & {
  html: string;
  keywords: string;
  metaDescription: string;
  isPublic: boolean;
  createdAt: string;
  /** The previous (older) and next (newer) public article of the same category. */
  previous: ArticleListItem | null;
  next: ArticleListItem | null;
  /** Other public articles of the category, newest first. */
  related: ArticleListItem[];
};

/** What the editor loads: the text as typed, and the revision a save must name. */
export type ArticleForEditor = {
  id: string;
  slug: string;
  title: string;
  category: ArticleCategory;
  content: string;
  isPublic: boolean;
  thumbnailUrl: string | null;
  keywords: string;
  metaDescription: string;
  revision: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
};

/** A row of the admin 記事管理 table (and of the related picker). */
export type AdminArticleRow = {
  id: string;
  slug: string;
  title: string;
  category: ArticleCategory;
  isPublic: boolean;
  thumbnailUrl: string | null;
  revision: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
};
