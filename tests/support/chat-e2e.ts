import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "playwright-core";

/**
 * The path to a chat room as users take it, through the running server's own HTTP API:
 * sign up, set a friend ID on the profile, post an offer (A), press 交渉する (B).
 */
export type Participant = { id: string; name: string; email: string; friendId: string };

export async function signUp(request: APIRequestContext, baseUrl: string, name: string, friendId: string): Promise<Participant> {
  const email = `chat-${randomBytes(5).toString("hex")}@example.com`;
  const res = await request.post(`${baseUrl}/api/auth/sign-up/email`, {
    data: { email, password: "chat-password-1", name },
    headers: { origin: baseUrl },
  });
  if (!res.ok()) throw new Error(`sign-up failed: ${res.status()} ${await res.text()}`);
  const { user } = (await res.json()) as { user: { id: string } };
  const profile = await request.post(`${baseUrl}/profile`, {
    form: { displayName: name, friendId },
    headers: { origin: baseUrl },
  });
  if (!profile.ok()) throw new Error(`profile update failed: ${profile.status()}`);
  return { id: user.id, name, email, friendId };
}

/** Two catalogue cards of one tradeable rarity (◆◆◆◆) from a regular pack. */
export async function twoTradeableCards(request: APIRequestContext, baseUrl: string): Promise<[string, string]> {
  const res = await request.get(`${baseUrl}/api/cards?pack=pikachu&rarity=${encodeURIComponent("◆◆◆◆")}&limit=2`);
  if (!res.ok()) throw new Error(`card list failed: ${res.status()}`);
  const { cards } = (await res.json()) as { cards: { id: string }[] };
  if (cards.length < 2) throw new Error("the catalogue has fewer than two ◆◆◆◆ cards in the pikachu pack");
  return [cards[0].id, cards[1].id];
}

export async function postOffer(request: APIRequestContext, baseUrl: string, give: string, want: string): Promise<string> {
  const res = await request.post(`${baseUrl}/api/trades`, {
    data: { give: [{ cardId: give, count: 1 }], want: [{ cardId: want, count: 1 }], comment: "チャットのテストです" },
    headers: { origin: baseUrl },
  });
  if (res.status() !== 201) throw new Error(`offer failed: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

export async function respond(request: APIRequestContext, baseUrl: string, offerId: string): Promise<string> {
  const res = await request.post(`${baseUrl}/api/trades/${offerId}`, { data: { action: "respond" }, headers: { origin: baseUrl } });
  if (!res.ok()) throw new Error(`respond failed: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { roomId: string }).roomId;
}
