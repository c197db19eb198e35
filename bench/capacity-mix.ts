// The evening-peak model of `npm run bench:capacity` (bench/README.md states it and its
// assumptions): who is on the site at the peak and what each of them asks for in a minute. The
// bench offers the site a total arrival rate; each request kind gets its share of it from the
// rates below, and the number of people online follows from the same rates.
//
// One "slice" of the peak population is one signed-in player and VISITORS_PER_PLAYER anonymous
// visitors. The rates are per person per minute while they are on the site.

/** Anonymous visitors (from search and social links) per signed-in player online. */
export const VISITORS_PER_PLAYER = 2;

export type KindName =
  | "card page"
  | "offer page (visitor)"
  | "deck page"
  | "article"
  | "board"
  | "マッチ"
  | "offer page (player)"
  | "/notifications"
  | "/collection"
  | "bell count"
  | "analytics hit"
  | "collection count"
  | "want-list change"
  | "post offer"
  | "交渉する";

export type Kind = { name: KindName; who: "visitor" | "player"; perMinute: number; write?: boolean };

/** What one anonymous visitor asks for per minute: one page view a minute, and its analytics hit. */
const VISITOR: Kind[] = [
  { name: "card page", who: "visitor", perMinute: 0.4 },
  { name: "offer page (visitor)", who: "visitor", perMinute: 0.25 },
  { name: "deck page", who: "visitor", perMinute: 0.2 },
  { name: "article", who: "visitor", perMinute: 0.15 },
];

/** One signed-in player's page views per minute (two a minute in all). */
const PLAYER_PAGES: Kind[] = [
  { name: "board", who: "player", perMinute: 0.6 },
  { name: "マッチ", who: "player", perMinute: 0.4 },
  { name: "offer page (player)", who: "player", perMinute: 0.5 },
  { name: "/notifications", who: "player", perMinute: 0.2 },
  { name: "/collection", who: "player", perMinute: 0.3 },
];

/** Writes per signed-in player per minute (chat messages are sent over the socket, see CHAT_PER_PLAYER_MINUTE). */
const PLAYER_WRITES: Kind[] = [
  { name: "collection count", who: "player", perMinute: 0.5, write: true },
  { name: "want-list change", who: "player", perMinute: 0.15, write: true },
  { name: "post offer", who: "player", perMinute: 0.05, write: true },
  { name: "交渉する", who: "player", perMinute: 0.03, write: true },
];

/** Chat messages one signed-in player sends per minute in an open room (Socket.IO `chat:send`). */
export const CHAT_PER_PLAYER_MINUTE = 0.4;

const sum = (kinds: Kind[]) => kinds.reduce((a, k) => a + k.perMinute, 0);
const visitorPages = sum(VISITOR);
const playerPages = sum(PLAYER_PAGES);

/**
 * Every request kind with its rate per slice per minute. Every page view sends one analytics hit
 * (the page script's `pv`), and every signed-in page view asks for the bell's count
 * (notification-count.tsx fetches it on load and on each navigation).
 */
export const KINDS: Kind[] = [
  ...VISITOR.map((k) => ({ ...k, perMinute: k.perMinute * VISITORS_PER_PLAYER })),
  ...PLAYER_PAGES,
  { name: "bell count", who: "player", perMinute: playerPages },
  { name: "analytics hit", who: "visitor", perMinute: visitorPages * VISITORS_PER_PLAYER + playerPages },
  ...PLAYER_WRITES,
];

/** The share of analytics hits sent by signed-in players (one per page view, as every visitor's). */
export const PLAYER_HIT_SHARE = playerPages / (visitorPages * VISITORS_PER_PLAYER + playerPages);

/** HTTP requests and chat messages of one slice per minute. */
export const SLICE_PER_MINUTE = sum(KINDS) + CHAT_PER_PLAYER_MINUTE;
/** People in one slice. */
export const SLICE_PEOPLE = 1 + VISITORS_PER_PLAYER;
/** Requests (HTTP and chat messages) per person online per minute, over the whole population. */
export const PER_PERSON_MINUTE = SLICE_PER_MINUTE / SLICE_PEOPLE;

/** The population an arrival rate (requests/s, chat messages included) stands for. */
export function populationAt(rate: number): { players: number; visitors: number; people: number; chatRate: number; httpRate: number } {
  const slices = (rate * 60) / SLICE_PER_MINUTE;
  const chatRate = (slices * CHAT_PER_PLAYER_MINUTE) / 60;
  return { players: Math.round(slices), visitors: Math.round(slices * VISITORS_PER_PLAYER), people: Math.round(slices * SLICE_PEOPLE), chatRate, httpRate: rate - chatRate };
}

/** Picks kinds in proportion to their rates (a weighted draw; `random` in [0, 1)). */
export function kindPicker(): (random: number) => Kind {
  const total = sum(KINDS);
  const edges: number[] = [];
  let acc = 0;
  for (const k of KINDS) edges.push((acc += k.perMinute / total));
  return (random) => {
    const i = edges.findIndex((edge) => random < edge);
    return KINDS[i === -1 ? KINDS.length - 1 : i];
  };
}

/** A skewed index in [0, n): a few items draw most visits (the square of a uniform draw), like search traffic. */
export function skewed(n: number, random: number, power = 2): number {
  return Math.min(n - 1, Math.floor(n * random ** power));
}
