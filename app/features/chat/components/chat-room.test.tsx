import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { LocaleContext, type Locale } from "#app/lib/i18n.tsx";
import type { RoomState } from "#app/features/chat/protocol.ts";
import { ChatRoom, type ChatRoomProps } from "./chat-room";

const progress = (agreed: boolean): RoomState["progress"] => ({
  ownerAgreed: agreed,
  partnerAgreed: agreed,
  agreed,
  friendRequested: false,
  gameTradeRequested: false,
  ownerCompleted: false,
  partnerCompleted: false,
  completed: false,
  cancelled: false,
});

const card = (cardId: string, name: string, nameEn: string, side: "give" | "want") => ({
  cardId,
  name,
  nameEn,
  rarity: "◆◆",
  side,
  count: 1,
  imageUrl: "",
  imageFile: null,
  storedImage: null,
  speciesArt: null,
  element: null,
  cardType: null,
  stage: null,
  hp: null,
  setCode: "A1",
  number: 1,
});

function render(state: Partial<RoomState>, locale: Locale = "ja", offer: Partial<ChatRoomProps["offer"]> = {}, role: ChatRoomProps["role"] = "partner", anyChoices: ChatRoomProps["anyChoices"] = null) {
  const props: ChatRoomProps = {
    roomId: "room-1",
    role,
    me: { id: "me", displayName: "サトシ", hasFriendId: true },
    partner: { id: "owner", displayName: "カスミ", completedTrades: 2 },
    offer: { id: "offer-1", status: "open", comment: "", giveAny: false, wantAny: false, cards: [card("A1-094", "ピカチュウ", "Pikachu", "give"), card("A1-095", "ライチュウ", "Raichu", "want")], ...offer },
    initialMessages: [],
    initialState: { roomId: "room-1", progress: progress(false), offerStatus: "open", blockerIds: [], friendIds: null, ruleClosedCards: [], chosenCard: null, ...state },
    lastSeq: 0,
    anyChoices,
  };
  return renderToStaticMarkup(
    <LocaleContext.Provider value={locale}>
      <MemoryRouter>
        <ChatRoom {...props} />
      </MemoryRouter>
    </LocaleContext.Provider>,
  );
}

/** The four step buttons (条件合意 … 取引完了) and whether each can be pressed. */
const stepButtons = (html: string) =>
  [...html.matchAll(/<li><button type="button"( disabled="")?[^>]*>([^<]*)<\/button><\/li>/g)].map((m) => ({ label: m[2], enabled: !m[1] }));

describe("the chat room when a trade-rule change closed a card of its offer", () => {
  it("says so in Japanese, names the card and its reopening date, links to the rules and offers no step", () => {
    const open = render({});
    expect(stepButtons(open).find((b) => b.label === "条件合意")).toEqual({ label: "条件合意", enabled: true });
    expect(open).not.toContain('data-testid="room-rule-closed"');

    const html = render({ ruleClosedCards: [{ cardId: "A1-094", name: "ピカチュウ", until: "2099-04-01T01:00:00.000Z" }] });
    expect(html).toContain("ルールの変更により、ピカチュウは今はトレードできません。トレードの手続きは止まっていますが、チャットは続けられます。");
    expect(html).toContain("2099/04/01 10:00からまたトレードできる予定です。");
    expect(html).toMatch(/<a [^>]*href="\/trade-rules"[^>]*>トレードできるカードのルール<\/a>/);
    expect(html).toContain("次：手続き停止中");
    expect(stepButtons(html)).toHaveLength(4);
    expect(stepButtons(html).filter((b) => b.enabled)).toEqual([]);
    // Chatting goes on: the input and 送信 are still there.
    expect(html).toContain('id="chat-input"');
    expect(html).toContain(">送信</button>");
  });

  it("in English too, with the English card name; no date when none is on the books", () => {
    const html = render({ ruleClosedCards: [{ cardId: "A1-094", name: "ピカチュウ", until: null }] }, "en");
    expect(html).toContain("After a rule change, Pikachu cannot be traded for now. The trade steps are paused, but you can keep chatting.");
    expect(html).not.toContain("due to open again");
    expect(html).toMatch(/<a [^>]*href="\/trade-rules"[^>]*>Which cards can be traded<\/a>/);
  });

  it("keeps friend IDs already shown when both had agreed before the change", () => {
    const html = render({ progress: progress(true), friendIds: { me: "1111222233334444", owner: "5555666677778888" }, ruleClosedCards: [{ cardId: "A1-095", name: "ライチュウ", until: null }] });
    expect(html).toContain("5555-6666-7777-8888");
    expect(html).toContain("ライチュウは今はトレードできません");
    expect(stepButtons(html).filter((b) => b.enabled)).toEqual([]);
  });
});

describe("a 何でも可 room", () => {
  it("names the 何でも可 side in the summary and the cards instead of leaving it empty: the partner of 譲 ピカチュウ / 求 何でも可 gives 何でも可", () => {
    const html = render({}, "ja", { wantAny: true, cards: [card("A1-094", "ピカチュウ", "Pikachu", "give")] });
    const summary = /data-testid="trade-panel-summary">(.*?)<\/span><\/span>/.exec(html)?.[1] ?? "";
    expect(summary.replace(/<[^>]+>/g, "")).toBe("渡す: 何でも可（同じレアリティ） ⇄ もらう: ピカチュウ◆◆");
    expect(html).toContain('data-testid="room-any-side"');
    expect(render({}, "en", { wantAny: true, cards: [card("A1-094", "ピカチュウ", "Pikachu", "give")] })).toContain("Any card (same rarity)");
  });

  const anyOffer = { wantAny: true, cards: [card("A1-094", "ピカチュウ", "Pikachu", "give")] };
  const agree = (html: string) => stepButtons(html).find((b) => b.label === "条件合意");

  it("lets the partner choose the card within the other side's rarity, and holds 条件合意 until a card is chosen", () => {
    const html = render({}, "ja", anyOffer);
    expect(html).toContain('data-testid="any-card-chooser"');
    expect(html).toContain("何でも可の側のカードをあなたが選びます（同じレアリティ ◆◆）");
    expect(html).toContain("◆◆のカードを検索");
    expect(html).toContain("まず何でも可の側のカードを選んでください。");
    expect(html).toContain("次：カードを選ぶ");
    expect(agree(html)).toEqual({ label: "条件合意", enabled: false });
  });

  it("tells the owner the partner chooses, and names the chosen card on both sides once chosen", () => {
    const owner = render({}, "ja", anyOffer, "owner");
    expect(owner).not.toContain('data-testid="any-card-chooser"');
    expect(owner).toContain("何でも可の側のカードはカスミさんが選びます。");
    expect(agree(owner)).toEqual({ label: "条件合意", enabled: false });

    const chosenCard = card("A1-096", "ゼニガメ", "Squirtle", "want");
    const chosen = render({ chosenCard }, "ja", anyOffer, "owner");
    expect(chosen).toContain("カスミさんが選んだカード");
    expect(chosen).toContain("ゼニガメ");
    const summary = /data-testid="trade-panel-summary">(.*?)<\/span><\/span>/.exec(chosen)?.[1] ?? "";
    expect(summary.replace(/<[^>]+>/g, "")).toBe("渡す: ピカチュウ◆◆ ⇄ もらう: ゼニガメ◆◆");
    expect(agree(chosen)).toEqual({ label: "条件合意", enabled: true });

    const partner = render({ chosenCard }, "ja", anyOffer);
    expect(partner).toContain("あなたが選んだカード");
    expect(partner).toContain("選び直す");
    expect(agree(partner)).toEqual({ label: "条件合意", enabled: true });
  });

  it("offers the owner's real cards as one-tap choices when the owner shares a collection, the search staying for the rest", () => {
    const { cardId: id, side: _side, count: _count, ...face } = card("A1-096", "ゼニガメ", "Squirtle", "want");
    const html = render({}, "ja", anyOffer, "partner", [{ id, ...face }]);
    const listed = /data-testid="any-card-owner-choices">(.*?)<\/ul>/.exec(html)?.[1] ?? "";
    expect(listed.replace(/<[^>]+>/g, "")).toBe("ゼニガメ ◆◆ A1 001");
    expect(html).toContain("出品者のコレクションにあるカードから選べます:");
    expect(html).toContain("◆◆のカードを検索");
    // Without a shared list, only the search.
    expect(render({}, "ja", anyOffer)).not.toContain("any-card-owner-choices");
  });
});
