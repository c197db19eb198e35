import { useCallback, useEffect, useRef, useState } from "react";

/** What is kept in localStorage for one editor: the unsaved values and when they were typed. */
type StoredDraft<T> = { value: T; savedAt: string };

const PREFIX = "torepoke:draft:";
const WRITE_DELAY_MS = 400;

function read<T>(key: string): StoredDraft<T> | null {
  try {
    const raw = window.localStorage.getItem(PREFIX + key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as StoredDraft<T>;
    return parsed && typeof parsed === "object" && "value" in parsed && typeof parsed.savedAt === "string" ? parsed : null;
  } catch {
    return null;
  }
}

function remove(key: string) {
  try {
    window.localStorage.removeItem(PREFIX + key);
  } catch {
    // storage disabled: nothing was kept
  }
}

/**
 * Nothing typed is lost: the editor's values are written to localStorage (per `key`, e.g.
 * "article:new" or "article:<id>") while they differ from `pristine` (what was loaded or empty),
 * and on the next open — after a reload, a crash, a closed tab — a kept draft that differs is
 * offered back. While the offer stands nothing is written over it; `restore` hands the values
 * back, `discard` forgets them, `clear` is called after a successful save.
 */
export function useLocalDraft<T>(key: string, current: T, pristine: T) {
  const [offer, setOffer] = useState<StoredDraft<T> | null>(null);
  const [checked, setChecked] = useState<string | null>(null);
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const pristineRef = useRef(pristine);
  pristineRef.current = pristine;

  // On open (and when the editor switches to another article): is there something to offer?
  useEffect(() => {
    const kept = read<T>(key);
    setOffer(kept && !same(kept.value, pristineRef.current) ? kept : null);
    if (kept && same(kept.value, pristineRef.current)) remove(key);
    setChecked(key);
  }, [key]);

  useEffect(() => {
    if (checked !== key || offer) return;
    const timer = setTimeout(() => {
      try {
        if (same(current, pristineRef.current)) window.localStorage.removeItem(PREFIX + key);
        else window.localStorage.setItem(PREFIX + key, JSON.stringify({ value: current, savedAt: new Date().toISOString() }));
      } catch {
        // storage full or disabled: the editor still works, only without the safety net
      }
    }, WRITE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, current, checked, offer]);

  const restore = useCallback((): T | null => {
    const value = offer?.value ?? null;
    setOffer(null);
    return value;
  }, [offer]);
  const discard = useCallback(() => {
    remove(key);
    setOffer(null);
  }, [key]);
  const clear = useCallback((which: string = key) => remove(which), [key]);

  return { offer, restore, discard, clear };
}
