import { Fragment } from "react";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import type { CardFace } from "#app/lib/card-face.ts";
import { cardName } from "#app/lib/card-name.ts";
import { cardPrint } from "#app/lib/card-print.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import { StoredHtmlBlock, type StoredHtml } from "#app/lib/stored-html.tsx";
import { CardImage } from "#app/features/cards/components/card-image.tsx";
import { splitCardBlocks } from "#app/features/content/card-blocks.ts";
import { contentMessages } from "#app/features/content/messages.ts";
import type { ContentCards } from "#app/features/content/types.ts";

export type { ContentCards } from "#app/features/content/types.ts";


/**
 * A card block ([[card:…]]) as every other list draws a card: the card face (art, or the frame in
 * the type's colour with the species' artwork), then name, rarity and set + number, linking to the
 * card page. Links in formatted text open in a new tab (docs/product-rules.md §2).
 */
export function ContentCardBlock({ face }: { face: CardFace }) {
  const t = useT(contentMessages);
  const locale = useLocale();
  const name = cardName(face, locale);
  const print = cardPrint(face);
  return (
    <aside className="content-card" aria-label={t("cardBlockLabel", { name })} data-content-card={face.id}>
      <a className="content-card-link" href={`/cards/${encodeURIComponent(face.id)}`} target="_blank" rel="noopener noreferrer">
        <CardImage face={face} sizes="160px" />
        <span className="content-card-name">{name}</span>
        <span className="content-card-meta">
          <span className="content-card-rarity">{displayRarity(face.rarity)}</span>
          {print ? <span className="content-card-print">{print}</span> : null}
        </span>
      </a>
    </aside>
  );
}

/** Stored formatted HTML (an article's body, a deck's description) with its card blocks drawn as card faces. */
export function StoredContent({ value, cards, className = "content-body" }: { value: StoredHtml; cards: ContentCards; className?: string }) {
  const shown = (id: string) => id in cards.faces;
  return (
    <StoredHtmlBlock
      className={className}
      value={value}
      islands={{ split: (html) => splitCardBlocks(html, shown).parts, nodes: cards.ids.map((id, i) => <ContentCardBlock key={`${i}:${id}`} face={cards.faces[id]!} />) }}
    />
  );
}

/** Formatted HTML made in the browser (the editors' preview), its card blocks drawn as on the page. */
export function ContentHtml({ html, faces, className = "content-body" }: { html: string; faces: Record<string, CardFace>; className?: string }) {
  const { parts, cardIds } = splitCardBlocks(html, (id) => id in faces);
  return (
    <div className={className}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          <div className="stored-html-part" dangerouslySetInnerHTML={{ __html: part }} />
          {i < cardIds.length ? <ContentCardBlock face={faces[cardIds[i]!]!} /> : null}
        </Fragment>
      ))}
    </div>
  );
}
