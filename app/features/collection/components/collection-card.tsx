import { useEffect, useRef, useState, type FormEvent, type PointerEvent } from "react";
import { CardImage } from "#app/features/cards/components/card-image.tsx";
import { cardName } from "#app/lib/card-name.ts";
import { cardPrint } from "#app/lib/card-print.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { parseTypedCount, steppedCount } from "#app/features/collection/collection-filter.ts";
import { collectionMessages } from "#app/features/collection/messages.ts";
import type { CollectionCard } from "#app/features/collection/collection.server.ts";

type Props = {
  card: Omit<CollectionCard, "count">;
  count: number;
  eager: boolean;
  onChange: (count: number) => void;
};

/** A press on the card face held this long opens the number field instead of adding one. */
export const LONG_PRESS_MS = 500;
/** A finger that moves further than this (px) is scrolling the grid, not pressing. */
const PRESS_SLOP_PX = 10;

/**
 * One print of the grid: the card face is the + button (one tap adds one; a long press, about half
 * a second, opens the number field as the count does, with no context menu or text selection), −
 * takes one away, the count opens a number field (docs/decisions/040). Keyboard users have the
 * count button. Names, number and rarity under the face.
 */
export function CollectionCardTile({ card, count, eager, onChange }: Props) {
  const t = useT(collectionMessages);
  const locale = useLocale();
  const name = cardName(card, locale);
  const [editing, setEditing] = useState(false);
  const [typed, setTyped] = useState("");
  const [invalid, setInvalid] = useState(false);
  const fieldId = `count-${card.id}`;
  const press = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number } | null>(null);
  // Set when a long press opened the field: the click that ends the press adds nothing.
  const pressedLong = useRef(false);
  const openField = () => {
    setTyped(String(count));
    setInvalid(false);
    setEditing(true);
  };
  const endPress = () => {
    if (press.current) clearTimeout(press.current.timer);
    press.current = null;
  };
  useEffect(() => endPress, []);
  const startPress = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0) return;
    endPress();
    pressedLong.current = false;
    press.current = {
      x: event.clientX,
      y: event.clientY,
      timer: setTimeout(() => {
        press.current = null;
        pressedLong.current = true;
        openField();
      }, LONG_PRESS_MS),
    };
  };
  const movePress = (event: PointerEvent<HTMLButtonElement>) => {
    if (press.current && Math.hypot(event.clientX - press.current.x, event.clientY - press.current.y) > PRESS_SLOP_PX) endPress();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = parseTypedCount(typed);
    if (value === null) {
      setInvalid(true);
      return;
    }
    setEditing(false);
    setInvalid(false);
    if (value !== count) onChange(value);
  };
  return (
    <li className={`relative flex flex-col rounded-lg border bg-white p-1.5 ${count > 0 ? "border-brand-500" : "border-slate-200"}`} data-card-id={card.id} data-count={count}>
      <button
        type="button"
        className="relative block touch-manipulation select-none rounded-card [-webkit-touch-callout:none] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        aria-label={t("addOne", { name })}
        onPointerDown={startPress}
        onPointerMove={movePress}
        onPointerUp={endPress}
        onPointerCancel={endPress}
        onPointerLeave={endPress}
        // A long press is ours: no context menu, no "save image" sheet over the grid.
        onContextMenu={(event) => event.preventDefault()}
        onClick={(event) => {
          // The click a pointer sends at the end of a long press (a key's click has detail 0).
          const endOfLongPress = pressedLong.current && event.detail !== 0;
          pressedLong.current = false;
          if (!endOfLongPress && count < 99) onChange(steppedCount(count, 1));
        }}
      >
        <CardImage face={card} eager={eager} decorative className={count > 0 ? "" : "opacity-60"} sizes="(min-width: 768px) 14vw, (min-width: 640px) 22vw, 30vw" />
      </button>
      {/* Outside the + button, so its visible text stays its name; the count button below reads it out. */}
      {count > 0 ? (
        <span aria-hidden="true" className="pointer-events-none absolute right-2.5 top-2.5 rounded-full bg-brand-700 px-2 py-0.5 text-sm font-bold text-white shadow">
          ×{count}
        </span>
      ) : null}
      <p className="mt-1 truncate text-xs font-bold text-slate-900" title={name}>
        {name}
      </p>
      <p className="text-xs text-slate-700">
        {cardPrint(card) ?? ""} {displayRarity(card.rarity)}
      </p>
      {editing ? (
        <form onSubmit={submit} className="mt-1 flex items-center gap-1">
          <label htmlFor={fieldId} className="sr-only">
            {t("editCount", { name })}
          </label>
          <input
            id={fieldId}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            autoFocus
            maxLength={2}
            value={typed}
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? `${fieldId}-error` : undefined}
            onChange={(event) => setTyped(event.target.value)}
            className="w-12 rounded border border-slate-400 px-1 py-1 text-center text-sm"
          />
          <button type="submit" className="rounded bg-brand-700 px-2 py-1 text-xs font-bold text-white">
            {t("saveCount")}
          </button>
          <button type="button" className="rounded border border-slate-300 px-1.5 py-1 text-xs" onClick={() => setEditing(false)}>
            {t("cancel")}
          </button>
          {invalid ? (
            <span id={`${fieldId}-error`} role="alert" className="sr-only">
              {t("errorCountOutOfRange")}
            </span>
          ) : null}
        </form>
      ) : (
        <div className="mt-1 flex items-center justify-between gap-1">
          <button
            type="button"
            className="h-9 w-9 rounded-md border border-slate-400 text-lg font-bold leading-none text-slate-800 disabled:opacity-40"
            aria-label={t("removeOne", { name })}
            disabled={count === 0}
            onClick={() => onChange(steppedCount(count, -1))}
          >
            −
          </button>
          <button
            type="button"
            className="h-9 min-w-12 flex-1 rounded-md border border-slate-300 text-sm font-bold text-slate-900"
            aria-label={`${t("countLabel", { name })}: ${t("countOf", { count })}`}
            onClick={openField}
          >
            {t("countOf", { count })}
          </button>
        </div>
      )}
      {invalid && editing ? <p className="mt-0.5 text-xs text-red-700">{t("errorCountOutOfRange")}</p> : null}
    </li>
  );
}
