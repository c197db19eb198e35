import { Transform } from "node:stream";

const MODULE_PRELOAD = Buffer.from('<link rel="modulepreload"');
const LOW_PRIORITY_MODULE_PRELOAD = Buffer.from('<link rel="modulepreload" fetchpriority="low"');

/**
 * The page's module preloads (React Router's `<Scripts>` writes one per module the page hydrates
 * with, 20–30 of them) asked for at low priority: a browser otherwise fetches them at high
 * priority beside the stylesheet and the first screen's images, and on a slow phone connection
 * they share its bandwidth before the first paint (Lighthouse counts high-priority scripts as
 * render-blocking). The scripts still load before the page hydrates; only their turn changes.
 */
function lowPriorityModulePreloads(html: Buffer): Buffer {
  let at = html.indexOf(MODULE_PRELOAD);
  if (at < 0) return html;
  const parts: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(html.subarray(from, at), LOW_PRIORITY_MODULE_PRELOAD);
    from = at + MODULE_PRELOAD.length;
    at = html.indexOf(MODULE_PRELOAD, from);
  }
  parts.push(html.subarray(from));
  return Buffer.concat(parts);
}

/** Where `html` can be cut with no tag left open: before its last `<` when no `>` follows it. */
function wholeTagsEnd(html: Buffer): number {
  const open = html.lastIndexOf(0x3c);
  return open >= 0 && html.indexOf(0x3e, open) < 0 ? open : html.length;
}

/**
 * A page's body stream that sends the pieces written in one turn of the event loop as one piece,
 * on the next turn. React writes its HTML in 4 KB pieces, and React Router's Node adapter flushes
 * the response after each piece it reads, which the compression middleware turns into a
 * compressor flush on the thread pool: the trade board's 130 KB of HTML paid some 30 flushes and
 * took 19.6 ms to serve compressed against 13.3 ms uncompressed (14.8 ms in one piece), and
 * /terms cost 11-18 ms of CPU per request instead of 5-6 ms. A piece ends after a whole tag (an
 * unfinished one waits for the next piece), and module preloads are marked low priority (above);
 * otherwise the bytes and their order are unchanged, and a part React streams later (a Suspense
 * boundary that resolves) still leaves as soon as it is written.
 * `onEnd` runs when everything has been written.
 */
export function coalescedBody(onEnd: () => void = () => {}): Transform {
  let pending: Buffer[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const send = (stream: Transform, last = false) => {
    scheduled = undefined;
    if (pending.length === 0 || stream.destroyed) return;
    const joined = pending.length === 1 ? pending[0] : Buffer.concat(pending);
    const cut = last ? joined.length : wholeTagsEnd(joined);
    pending = cut < joined.length ? [joined.subarray(cut)] : [];
    if (cut > 0) stream.push(lowPriorityModulePreloads(joined.subarray(0, cut)));
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      scheduled ??= setImmediate(send, this);
      callback();
    },
    flush(callback) {
      onEnd();
      if (scheduled) clearImmediate(scheduled);
      send(this, true);
      callback();
    },
  });
}
