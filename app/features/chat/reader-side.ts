/**
 * An offer lists what its owner gives (譲) and wants (求). In a room each reader sees the trade
 * from their own side: the owner gives the 譲 cards, the partner receives them, and the other
 * way round for 求. Rooms, the room list and their summaries all label cards through this.
 */
export type ReaderSide = "youGive" | "youReceive";

export function readerSide(side: "give" | "want", role: "owner" | "partner"): ReaderSide {
  return (side === "give") === (role === "owner") ? "youGive" : "youReceive";
}

/** The offer's side that holds what this reader gives, then what they receive. */
export function sidesForReader(role: "owner" | "partner"): readonly ["give" | "want", "give" | "want"] {
  return role === "owner" ? ["give", "want"] : ["want", "give"];
}
