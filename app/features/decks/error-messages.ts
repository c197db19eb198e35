import { defineMessages } from "#app/lib/i18n.tsx";

/**
 * Why a deck save or request was refused: the editor's field messages (decks.schema.ts) and the
 * API's errors. Apart from the deck pages' catalogue (messages.ts), which every deck list carries.
 */
export const deckErrorMessages = defineMessages({
  ja: {
    errInvalidRequest: "リクエストの形式が正しくありません",
    errNotFound: "デッキが見つかりません",
    errSlugTaken: "このスラッグは既に使われています",
    errConflict: "このデッキは開いた後に別の管理者が更新しました。入力内容は下書きとして残っています。最新の内容を読み込んでから保存し直してください",
    errRevision: "読み込んだデッキの版が指定されていません。ページを読み込み直してください",
    errIllegalDeck: "このデッキはこのままでは構築できません。ルールを満たさないデッキを公開するには、公開してよいか確認してから保存してください",
    errSlugInvalid: "スラッグは半角英数字・ハイフン・アンダースコアで入力してください",
    errUnknownCard: "カードが見つかりません：{cardId}",
    errInvalidCursor: "ページの指定が正しくありません",
    errNoCollection: "マイコレクションにカードを登録すると、足りないカードをほしいカードに追加できます",
    errRelatedUnknown: "関連デッキが見つかりません",
    nameRequired: "デッキ名を入力してください。",
    tierRequired: "Tierを選択してください。",
    categoryRequired: "カテゴリーを選択してください。",
    errNameTooLong: "デッキ名は{max}文字以内で入力してください",
    errMetaTooLong: "メタディスクリプションは{max}文字以内で入力してください",
    errKeywordsTooLong: "キーワードは{max}文字以内で入力してください",
    errDescriptionTooLong: "本文は{max}文字以内で入力してください",
    errEnergyInvalid: "エネルギータイプが正しくありません",
    errCopies: "枚数は0〜4枚で指定してください",
    errTooManyCards: "カードは{max}種類までです",
    errEyecatch: "アイキャッチ画像のURLが正しくありません",
    errFeatured: "表示順は1〜999の数字で入力してください",
  },
  en: {
    errInvalidRequest: "The request is not valid",
    errNotFound: "Deck not found",
    errSlugTaken: "This slug is already used",
    errConflict: "Another administrator updated this deck after you opened it. Your changes are kept as a draft. Load the latest version and save again",
    errIllegalDeck: "This deck cannot be built as it is. To publish a deck that breaks the rules, confirm that it should be public and save again",
    errRevision: "The save does not name the version of the deck it was made from. Reload the page",
    errSlugInvalid: "Use letters, digits, hyphens and underscores for the slug",
    errUnknownCard: "Card not found: {cardId}",
    errInvalidCursor: "The page is not valid",
    errNoCollection: "Add cards to My collection first: then the missing cards can go on your want list",
    errRelatedUnknown: "Related deck not found",
    nameRequired: "Enter a deck name.",
    tierRequired: "Choose a tier.",
    categoryRequired: "Choose a category.",
    errNameTooLong: "The deck name is at most {max} characters",
    errMetaTooLong: "The meta description is at most {max} characters",
    errKeywordsTooLong: "Keywords are at most {max} characters",
    errDescriptionTooLong: "The text is at most {max} characters",
    errEnergyInvalid: "Unknown energy type",
    errCopies: "Copies are 0 to 4",
    errTooManyCards: "At most {max} different cards",
    errEyecatch: "The eyecatch URL is not valid",
    errFeatured: "The order is a number from 1 to 999",
  },
});

export type DeckErrorMessageKey = keyof (typeof deckErrorMessages)["ja"];
