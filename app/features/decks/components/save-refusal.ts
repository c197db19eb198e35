import type { PageRefusal } from "#app/lib/errors.ts";

/**
 * What the deck editor does with a save the server refused:
 * - `conflict`: someone saved since (409): say so and keep every field as typed;
 * - `confirm`: the server found the public deck illegal (422 illegal_deck) though the editor's own
 *   check did not (its card data can lag the server's) and the admin was not asked yet: open the
 *   same confirmation dialog the editor's own check opens, so the admin can still publish it;
 * - `fail`: anything else shows the server's reason.
 */
export function refusedSaveStep(status: number, refusal: Pick<PageRefusal, "code"> | undefined, askedToPublishIllegal: boolean): "conflict" | "confirm" | "fail" {
  if (status === 409 && refusal?.code === "conflict") return "conflict";
  if (status === 422 && refusal?.code === "illegal_deck" && !askedToPublishIllegal) return "confirm";
  return "fail";
}
