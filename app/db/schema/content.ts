import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * Every file the upload store holds (docs/architecture.md "Data"), so an admin can list and reuse recent uploads
 * and a cleanup can find files nothing refers to. `key` is the store's name of the file
 * (`<folder>/<timestamp>-<random>.webp`); pages see only its URL.
 */
export const uploads = pgTable(
  "uploads",
  {
    key: text("key").primaryKey(),
    folder: text("folder").notNull(),
    contentType: text("content_type").notNull(),
    bytes: integer("bytes").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    uploadedBy: text("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("uploads_created_idx").on(t.createdAt.desc(), t.key)],
);

/** docs/product-rules.md §3 "Site settings": one row (id 1), the five fields of the admin サイト設定 tab. */
export const siteSettings = pgTable(
  "site_settings",
  {
    id: integer("id").primaryKey().default(1),
    metaDescription: text("meta_description").notNull().default(""),
    seoKeywords: text("seo_keywords").notNull().default(""),
    ogTitle: text("og_title").notNull().default(""),
    ogDescription: text("og_description").notNull().default(""),
    ogImage: text("og_image").notNull().default(""),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("site_settings_single_row", sql`${t.id} = 1`)],
);
