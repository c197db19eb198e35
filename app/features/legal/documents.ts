import type { Locale } from "#app/lib/i18n.tsx";

/**
 * The privacy policy and terms of use (docs/product-rules.md §2), written for a trade board: what is stored,
 * cookies, no real-money trading, no personal contact details in posts, reporting, deleting an
 * account. Japanese is the binding text; the English one is a full translation.
 */
export type LegalDocument = {
  title: string;
  description: string;
  updatedLabel: string;
  updated: string;
  intro: string;
  sections: Array<{ heading: string; paragraphs: string[]; items?: string[] }>;
};

const UPDATED = "2026-12-06";

const privacyJa: LegalDocument = {
  title: "プライバシーポリシー",
  description: "トレポケが取得する情報、Cookieの利用、情報の管理と削除についての方針です。",
  updatedLabel: "最終更新日",
  updated: UPDATED,
  intro:
    "トレポケ（以下「本サービス」）は、ポケポケ（Pokémon TCG Pocket）のプレイヤー同士がカードのトレード相手を探すための非公式コミュニティサイトです。本サービスは、利用者の情報を以下の方針に従って取り扱います。",
  sections: [
    {
      heading: "1. 取得する情報",
      paragraphs: ["本サービスは、次の情報を取得・保存します。"],
      items: [
        "アカウント情報：メールアドレス、パスワード（復元できない形式でハッシュ化して保存し、平文では保存しません）、表示名、登録日時",
        "LINEでログインした場合にLINEから受け取る情報：LINEのユーザー識別子（本サービス用の内部ID。連携の記録として保存します）、LINEの表示名（登録時の表示名として使い、あとから変更できます）、メールアドレス（LINEが提供し、あなたが同意した場合のみ。アカウントのメールアドレスとして保存します）。プロフィール画像、友だち情報、LINEのアクセストークンなどは保存せず、ログインのあとLINEの機能を使うこともありません。",
        "プロフィール情報：ポケポケのフレンドID（任意）、成立したトレードの件数、最終利用日時",
        "投稿内容：トレード募集の内容（譲るカード・求めるカード・コメント）、チャットのメッセージ、通報とブロックの記録",
        "ログイン状態の管理に必要な情報：セッションの識別子、ログイン時のIPアドレスとブラウザの種類（User-Agent）",
        "不正利用の防止に必要な情報：IPアドレスごと・アカウントごとのログイン失敗などの試行回数、アクセスログ（日時、URL、IPアドレス、応答結果）",
        "メールの送信記録：送信するメールの宛先・件名・本文と、送信の結果",
        "通知の設定と端末：お知らせの種類ごとの受け取り方、おやすみ時間、言語、まとめメールの送信日時、プッシュ通知を登録した端末の送信先URL・暗号鍵・ブラウザの種類・言語・登録日時と最後に届いた日時",
      ],
    },
    {
      heading: "2. 利用目的",
      paragraphs: ["取得した情報は、次の目的にのみ利用します。"],
      items: [
        "アカウントの作成、ログインの維持、本人確認",
        "トレード掲示板・チャットなど本サービスの機能の提供",
        "不正ログイン、スパム、規約違反行為の防止と対応（通報の確認を含みます）",
        "障害対応、セキュリティの確保、サービスの改善のための統計（個人を特定しない形に限ります）",
      ],
    },
    {
      heading: "3. 他の利用者に表示される情報",
      paragraphs: [
        "表示名、トレード募集の内容、成立したトレードの件数は、他の利用者に公開されます。フレンドIDは、トレードを進めるためにチャットの相手に表示されることがあります。メールアドレスは他の利用者に表示されません。",
        "投稿やチャットに、メールアドレス・電話番号・LINE ID・SNSアカウントなどの連絡先や個人を特定できる情報を書かないでください（利用規約で禁止しています）。",
      ],
    },
    {
      heading: "4. Cookieについて",
      paragraphs: ["本サービスが使用するCookieは、次のものだけです。広告や行動追跡のためのCookie、外部の解析ツールは使用していません。"],
      items: [
        "ログイン状態を保つためのCookie（torepoke.session_token）：JavaScriptから読み取れない設定（HttpOnly）で、他サイトからのリクエストには送られない設定（SameSite=Lax）です。ログアウトすると削除されます。有効期限は最長30日です。",
        "表示言語を記憶するCookie（lang）：日本語・英語の切り替えを記憶します。有効期限は1年です。",
        "LINEでログインするときだけ使うCookie（torepoke.state）：LINEから戻ってきたのが同じブラウザであることを確かめるためのもので、有効期限は5分です。",
      ],
    },
    {
      heading: "5. 第三者への提供",
      paragraphs: [
        "法令に基づく場合を除き、本人の同意なく個人情報を第三者に提供・販売することはありません。本サービスから外部サイト（動画チャンネルなど）へのリンク先での情報の取り扱いは、各サイトの方針に従います。",
      ],
    },
    {
      heading: "6. 保存期間と安全管理",
      paragraphs: [
        "アカウント情報と投稿内容は、アカウントが削除されるまで保存します。セッションは最後の利用から30日で失効し、失効したものは削除します。ログインなどの試行回数の記録は1日以内に不要となり削除します。パスワード再設定のリンクは1時間（その間にパスワードが変更されると、それより前のリンクはすぐに）、メールアドレス確認のリンクは24時間、メールアドレス変更のお知らせにある「これは私ではありません」のリンクは7日間で無効になります。",
        "メールの送信記録は、送信済みのものは送信から7日後、送信できなかったものは30日後に削除します。アクセスログは障害対応と不正防止に必要な期間に限って保存します。",
        "通信の暗号化（HTTPSで運用する場合）、パスワードのハッシュ化、アクセス権限の制限などにより、情報の漏えい・改ざんの防止に努めます。",
      ],
    },
    {
      heading: "6-2. 本サービスが送るメール",
      paragraphs: [
        "本サービスは、アカウントの管理に必要なメールと、あなたが受け取る設定にしたお知らせのメールだけを、登録されたメールアドレスに送ります。広告や宣伝のメールは送りません。",
      ],
      items: [
        "登録時のメールアドレス確認",
        "パスワード再設定のリンク（ご依頼があったときのみ）と、パスワード変更・再設定の完了のお知らせ",
        "メールアドレス変更の確認（新しいアドレス宛て。表示名など申請者が入力した内容は含めず、1アカウント1日3回まで）と、変更手続きがあったことのお知らせ（変更前のアドレス宛て。心当たりがないときに使う「これは私ではありません」のリンク付き）",
        "退会手続き完了のお知らせ",
        "お知らせのメール（確認済みのアドレスにのみ）：チャットの新着などのお知らせが一定時間未読のままで、サイトを開いていないときのメール、または1日1回のまとめメール。プロフィールの通知設定で種類ごとに止められ、各メールの配信停止リンクからログインなしで止めることもできます",
      ],
    },
    {
      heading: "7. 通報とアカウントの停止",
      paragraphs: [
        "規約に違反する投稿や利用者は、トレード募集やチャットの通報機能から運営に知らせることができます。通報の内容は運営のみが確認し、通報者の情報が通報された利用者に知らされることはありません。違反が確認された場合、投稿の削除やアカウントの利用停止を行うことがあります。",
      ],
    },
    {
      heading: "8. 情報の確認・訂正・削除",
      paragraphs: [
        "表示名とフレンドIDは、プロフィールページからいつでも変更・削除できます。",
        "メールアドレスとパスワードの変更、ログイン中の端末の確認とログアウトは、プロフィールの「アカウント設定」から行えます。",
        "心当たりのないメールアドレスの変更手続きがあったときは、変更前のアドレスに届くお知らせの「これは私ではありません」を押してください。ログインしていなくても、変更の取り消し（変更済みなら元のアドレスへの復帰）、すべての端末からのログアウト、パスワードの無効化を一度に行い、パスワード再設定のメールをお送りします。",
        "プッシュ通知の登録は、登録したときのログインに結びついています。その端末でログアウトするか、「アカウント設定」でそのログインを終了すると、ブラウザからの解除が届かなくても登録は削除されます。そのログインが有効な間、ほかのアカウントがその端末の通知を自分のものにすることはできません。",
        "本サービスが保存しているあなたの情報（アカウント、プロフィール、ログイン中の端末、トレード募集、チャットとそのメッセージと既読の位置、あなたが行った通報、ブロック、ほしいカード、お知らせ（メールで送った日時を含む）、通知の設定（種類ごとの受け取り方、おやすみ時間、言語、まとめメールの送信日時）、プッシュ通知を登録した端末（送信先URL、ブラウザ、言語、登録日時と最後に届いた日時）、あなた宛てのメールの記録、ログイン失敗と操作回数の記録、あなたのアカウントに結びついた利用状況の記録、運営者として作成した記事・デッキ・画像・トレードルールの変更）は、「アカウント設定」の「データのダウンロード」からいつでもJSON形式で取得できます。他の利用者の情報は、表示名と、チャットで条件合意した相手のフレンドIDだけが含まれます。",
        "「アカウント設定」から、パスワードを入力して（パスワードのないアカウントはLINEでログインしてから10分以内に）いつでも退会（アカウントの削除）ができます。退会すると、すべてのセッション、パスワード、LINEとの連携、メールアドレス、表示名、フレンドID、ブロック、既読の記録、試行回数の記録、あなた宛てのメールの記録が直ちに削除され、募集中・交渉中のトレード募集は終了します。",
        "退会後も、次のものは残ります：チャットの相手がやり取りを確認できるよう、あなたが送ったチャットのメッセージと終了したトレード募集（送信者は「退会したユーザー」と表示され、あなたを特定する情報は残りません）、運営が対応するための通報の記録（通報者は特定できない形になります）、退会完了のお知らせメール（送信後7日で削除）。",
        "法令により保存が必要な情報は、必要な期間に限り保存することがあります。",
      ],
    },
    {
      heading: "9. 改定",
      paragraphs: ["本ポリシーは、必要に応じて改定することがあります。重要な変更がある場合は、本サービス上でお知らせします。"],
    },
    {
      heading: "10. アクセス解析（利用状況の計測）",
      paragraphs: [
        "本サービスは、どのページがどれだけ読まれ、トレードがどこで止まっているかを知ってサービスを改善するために、自前のアクセス解析を行っています。計測の仕組みは本サービスのプログラムの一部で、計測データは本サービスのサーバーだけに保存し、外部の解析サービスや広告事業者には送りません。計測のためのCookieやブラウザ内の保存領域（localStorageなど）は使用しません。",
        "ページを開いたときと、ページを閉じたり別のタブに切り替えたりしたときに、次の情報を本サービスのサーバーに送信します：開いたページのURL（パスとUTMパラメータ）、直前に見ていた外部サイトのURL（保存するのはドメイン名のみ）、画面の幅、ページを表示していた時間、ブラウザが自動操作されているかどうか。サーバーは受け取った通信のIPアドレスとブラウザの種類（User-Agent）から、ブラウザ名・OS名・端末の種類（スマートフォン・タブレット・パソコン）だけを取り出し、IPアドレスとUser-Agentそのものは保存しません。",
        "同じ日の訪問をまとめて数えるため、その日だけ有効な乱数とIPアドレス・User-Agentを組み合わせて一方向に変換した値（元に戻せない値）を使います。この乱数は日本時間の1日ごとに作り直し、2日後に削除するため、翌々日以降は同じ人かどうかを誰も判別できません。",
        "ブラウザが「Global Privacy Control（Sec-GPC）」または「Do Not Track」を送っている場合は、計測を行いません。検索エンジンのクローラーなどの自動プログラムも計測しません。",
        "ログイン中の利用者については、その日の訪問と利用者アカウントを結びつける記録を2日間だけ保存し、記事やデッキレシピがトレードにつながったかを日ごとの件数として集計します。また、トレード募集の出品・交渉の開始・条件合意・フレンド申請・ゲーム内トレード申請・取引完了・キャンセルの記録を、対象の募集と操作した利用者とともに保存し、トレードがどの段階で止まりやすいかの分析に使います。これらの記録（計測データ全般）は90日を目安に削除し、それ以降は個人と結びつかない日ごとの集計だけを残します。",
      ],
    },
    {
      heading: "11. 外部送信について（電気通信事業法第27条の12に基づく公表）",
      paragraphs: [
        "本サービスのページは、利用者の端末から本サービス以外の事業者へ情報を送信させるプログラム（外部の解析ツール、広告タグ、SNSの埋め込みなど）を含んでいません。利用者の端末から送信される情報の送信先は本サービスのサーバーのみで、その内容と利用目的は前項に記載したとおりです。",
        "アップロード画像の保存先として外部のストレージを使う設定で運用する場合、画像はそのストレージから配信されます。その際に送信されるのは画像の取得に通常必要な情報（IPアドレス、User-Agentなど）に限られ、運営がその情報を解析に利用することはありません。",
      ],
    },
  ],
};

const privacyEn: LegalDocument = {
  title: "Privacy policy",
  description: "What Torepoke stores, how it uses cookies, and how your information is kept and deleted.",
  updatedLabel: "Last updated",
  updated: UPDATED,
  intro:
    "Torepoke (“the service”) is an unofficial community site where Pokémon TCG Pocket players find trading partners for their cards. The service handles your information as described below. The Japanese version of this policy is the binding one.",
  sections: [
    {
      heading: "1. What we store",
      paragraphs: ["The service collects and stores the following information."],
      items: [
        "Account: e-mail address, password (stored only as a one-way hash, never in plain text), display name, date of registration",
        "What we receive from LINE when you log in with LINE: your LINE user identifier (an ID for this service only, kept as the record of the link), your LINE display name (used as your display name when you sign up; you can change it) and your e-mail address (only when LINE provides it and you agree; kept as the account's address). Your profile picture, friends, LINE access tokens and the like are not stored, and the service uses nothing of LINE after the log-in.",
        "Profile: your Pokémon TCG Pocket friend ID (optional), the number of completed trades, when you were last active",
        "What you post: trade offers (cards offered and wanted, comments), chat messages, reports and blocks",
        "What keeps you logged in: a session identifier, and the IP address and browser type (User-Agent) of the log-in",
        "What prevents abuse: counts of log-in and sign-up attempts per IP address and of failed log-ins per account, and access logs (time, URL, IP address, response)",
        "Mail records: the address, subject and body of each mail we send, and whether it was delivered",
        "Notification settings and devices: how you receive each kind of notification, quiet hours, language, when the last digest was sent, and for each device registered for push notifications its push endpoint, encryption keys, browser type, language, when it was registered and last reached",
      ],
    },
    {
      heading: "2. Why we use it",
      paragraphs: ["The information is used only to:"],
      items: [
        "create your account, keep you logged in and identify you",
        "provide the service's features such as the trade board and chat",
        "prevent and handle unauthorised log-ins, spam and breaches of the terms (including reviewing reports)",
        "fix faults, keep the service secure, and improve it with statistics that do not identify anyone",
      ],
    },
    {
      heading: "3. What other users see",
      paragraphs: [
        "Your display name, your trade offers and your number of completed trades are public. Your friend ID may be shown to your chat partner so the two of you can complete a trade. Your e-mail address is never shown to other users.",
        "Do not write contact details or anything that identifies you — e-mail addresses, phone numbers, LINE IDs, social media accounts — in offers or chat (the terms forbid it).",
      ],
    },
    {
      heading: "4. Cookies",
      paragraphs: ["The service sets only these cookies. There are no advertising or tracking cookies and no third-party analytics."],
      items: [
        "The log-in cookie (torepoke.session_token): not readable by JavaScript (HttpOnly) and not sent with requests from other sites (SameSite=Lax). Logging out deletes it. It lasts at most 30 days.",
        "The language cookie (lang): remembers whether you chose Japanese or English. It lasts one year.",
        "A cookie used only while logging in with LINE (torepoke.state): it checks that the browser coming back from LINE is the one that left. It lasts 5 minutes.",
      ],
    },
    {
      heading: "5. Sharing with third parties",
      paragraphs: [
        "Except where the law requires it, we never give or sell personal information to third parties without your consent. Sites linked from the service (such as the video channel) handle information under their own policies.",
      ],
    },
    {
      heading: "6. Retention and security",
      paragraphs: [
        "Account information and posts are kept until the account is deleted. A session expires 30 days after it was last used, and expired ones are deleted. Counts of log-in and other attempts are deleted within a day. A password reset link is valid for one hour (and ends at once when the password is changed in the meantime), an address verification link for 24 hours, and the \"This wasn't me\" link of a change-of-address notice for 7 days.",
        "Records of mail sent are deleted 7 days after sending, or 30 days after a mail could not be delivered. Access logs are kept only as long as needed to fix faults and prevent abuse.",
        "We protect the information against leaks and tampering with encrypted connections (when served over HTTPS), hashed passwords and restricted access.",
      ],
    },
    {
      heading: "6-2. Mail we send",
      paragraphs: ["We send only the mails needed to run your account and the notification mails you chose to receive, to the address you registered. We never send advertising."],
      items: [
        "Verification of your address at sign-up",
        "A password reset link (only when you ask for one), and a notice when your password was changed or reset",
        "Confirmation of a new address (to the new address; without the display name or anything else the requester typed, at most 3 a day per account), and a notice that a change was requested (to the old address, with a \"This wasn't me\" link for a change you did not make)",
        "A notice that your account was deleted",
        "Notification mails (to a verified address only): a mail when a notification such as a new chat message stays unread for a while and you are not on the site, or one daily digest. You can turn each kind off in your notification settings, or stop them with the unsubscribe link in each mail without logging in",
      ],
    },
    {
      heading: "7. Reports and suspension",
      paragraphs: [
        "You can tell the operators about offers, messages or users that break the terms with the report function of trade offers and chat. Only the operators read reports, and the reported user is never told who reported them. When a breach is confirmed, posts may be removed and accounts suspended.",
      ],
    },
    {
      heading: "8. Seeing, correcting and deleting your information",
      paragraphs: [
        "You can change or remove your display name and friend ID at any time on your profile page.",
        "You can change your e-mail address and password, and see and log out your signed-in devices, under Account settings on your profile.",
        "If your address was changed without your knowledge, press \"This wasn't me\" in the notice sent to your old address. Without logging in, it cancels the change (or moves the account back to the old address), logs out every device and disables the password in one go, and mails you a password reset link.",
        "A device's push notifications belong to the sign-in that turned them on. Logging out on that device, or ending that sign-in from Account settings, removes the registration even if the browser's own removal never arrives; while that sign-in is valid, no other account can take the device's notifications over.",
        "Download your data (Account settings) gives you, at any time, a JSON file of everything the service keeps about you: account, profile, signed-in devices, trade offers, chats with their messages and how far you have read, reports you filed, blocks, your want list, your notifications (with when they were mailed), your notification settings (choices per kind, quiet hours, language, when the last digest was sent), the devices registered for push notifications (push endpoint, browser, language, when registered and last reached), the records of mail sent to you, failed log-ins and per-hour action counts, the usage records linked to your account, and what you created as an administrator (articles, decks, images, trade-rule changes). Of other users it holds only display names, and a partner's friend ID where you both agreed on the terms in chat.",
        "You can delete your account at any time under Account settings, entering your password (an account without a password: within 10 minutes of logging in with LINE). Deleting it removes at once every session, your password, the link with LINE, your e-mail address, display name, friend ID, blocks, read markers, attempt counts and records of mail to you, and closes your open and negotiating trade offers.",
        "What remains afterwards: the chat messages you sent and your closed trade offers, so your partners can still read the conversation (shown as from \"Deleted user\" (退会したユーザー), with nothing that identifies you); reports you filed, for moderation, without the reporter's identity; and the notice that your account was deleted, until 7 days after it was sent.",
        "Information the law requires us to keep may be kept for the required period only.",
      ],
    },
    {
      heading: "9. Changes",
      paragraphs: ["This policy may change when needed. Important changes are announced on the service."],
    },
    {
      heading: "10. Analytics (measuring how the service is used)",
      paragraphs: [
        "To learn which pages are read and where trades stall, and so improve the service, we run our own analytics. It is part of the service's own code; the data is stored only on our servers and is never sent to an analytics service or an advertiser. No cookie and no browser storage (such as localStorage) is used for it.",
        "When you open a page, and when you close it or switch to another tab, your browser sends our server: the page's URL (path and UTM parameters), the address of the external site you came from (only its domain name is kept), the screen width, how long the page was visible, and whether the browser is automated. From the connection's IP address and user agent the server keeps only the browser name, the operating system and the kind of device (phone, tablet, computer); the IP address and the user agent themselves are not stored.",
        "To count one day's visits together we combine a random value valid for that day with the IP address and user agent into a one-way value that cannot be turned back. The random value is made anew every day (Japan time) and deleted after two days, so from the day after next nobody can tell whether two visits were the same person.",
        "If your browser sends Global Privacy Control (Sec-GPC) or Do Not Track, nothing is measured. Search engine crawlers and other automated programs are not measured either.",
        "For signed-in users, a record linking the day's visit to the account is kept for two days, so that we can count per day whether articles and deck recipes led to trades. We also record when an offer is posted, answered, agreed, when friend and in-game trade requests are sent, and when a trade is completed or cancelled, with the offer and the user who acted, to see where trades stall. These records (and all raw analytics data) are deleted after about 90 days; after that only daily totals that are not linked to anyone remain.",
      ],
    },
    {
      heading: "11. Information sent from your device (disclosure under article 27-12 of Japan's Telecommunications Business Act)",
      paragraphs: [
        "The service's pages contain no program that makes your device send information to anyone other than us (no external analytics, advertising tags or social media embeds). The only recipient of what your device sends is the service's own server; what is sent and why is described in the section above.",
        "When the service is run with an external storage for uploaded images, those images are delivered from that storage. Only what fetching an image normally involves (IP address, user agent and the like) reaches it, and we do not use that information for analytics.",
      ],
    },
  ],
};

const termsJa: LegalDocument = {
  title: "利用規約",
  description: "トレポケのトレード掲示板・チャットを利用する際のルール（リアルマネートレード禁止、連絡先の投稿禁止など）です。",
  updatedLabel: "最終更新日",
  updated: UPDATED,
  intro:
    "この利用規約（以下「本規約」）は、トレポケ（以下「本サービス」）の利用条件を定めるものです。本サービスを利用した時点で、本規約に同意したものとみなします。",
  sections: [
    {
      heading: "第1条（本サービスについて）",
      paragraphs: [
        "本サービスは、ポケポケ（Pokémon TCG Pocket）のプレイヤーが、カードのトレード相手を探し、ゲーム内のトレード機能で交換するための情報交換の場です。カードの受け渡しはゲーム内の公式機能で行われ、本サービスはカードやアカウントを預かったり仲介したりしません。",
        "本サービスは非公式のファンサイトであり、株式会社ポケモン、株式会社クリーチャーズ、株式会社ゲームフリーク、株式会社ディー・エヌ・エー、任天堂株式会社とは関係ありません。ポケモンおよび関連する名称は各権利者の商標です。",
      ],
    },
    {
      heading: "第2条（アカウント）",
      paragraphs: [
        "利用者は、正確なメールアドレスで登録し、パスワードを自己の責任で管理するものとします。アカウントを他人に譲渡・貸与・共有することはできません。1人が複数のアカウントを使って評価や募集を操作することを禁止します。",
      ],
    },
    {
      heading: "第3条（禁止事項）",
      paragraphs: ["利用者は、次の行為をしてはなりません。"],
      items: [
        "現金、電子マネー、ギフトカード、ゲーム内通貨の代行購入など、金銭や財産的価値のあるものとカード・アカウントを交換する行為（リアルマネートレード）、またはその勧誘",
        "アカウントの売買・譲渡、代行プレイの依頼や募集",
        "トレード募集・チャット・表示名に、メールアドレス、電話番号、住所、LINE ID、SNSアカウント、外部サービスへの誘導など、連絡先や個人を特定できる情報を書くこと",
        "約束したトレードを意図的に行わない、虚偽の募集をするなどの詐欺的な行為",
        "他の利用者への誹謗中傷、嫌がらせ、差別的な表現、つきまとい",
        "同じ内容の連続投稿、宣伝、スパム",
        "不正アクセス、過度な負荷をかける行為、脆弱性を悪用する行為、自動化ツールによる大量の操作",
        "法令、公序良俗、ゲームの利用規約に違反する行為、その他運営が不適切と判断する行為",
      ],
    },
    {
      heading: "第4条（通報）",
      paragraphs: [
        "禁止事項に当たる投稿や利用者を見つけた場合は、トレード募集やチャットの通報機能から運営に知らせてください。相手をブロックすると、その相手とのチャットは行えなくなります。トラブルの際は、無理にやり取りを続けず通報してください。",
      ],
    },
    {
      heading: "第5条（投稿の削除と利用停止）",
      paragraphs: [
        "運営は、本規約に違反する、または違反のおそれがあると判断した場合、事前の通知なく投稿の削除、アカウントの利用停止その他必要な措置を行うことができます。利用停止中のアカウントは、トレードとチャットを利用できません。",
      ],
    },
    {
      heading: "第6条（利用者間のトレード）",
      paragraphs: [
        "トレードは利用者同士の合意と責任において行われます。運営は、トレードが成立すること、相手が約束を守ることを保証せず、利用者間のトラブルについて責任を負いません。ただし、通報を受けた違反行為には本規約に従って対応します。",
      ],
    },
    {
      heading: "第7条（アカウントの削除）",
      paragraphs: [
        "利用者は、プロフィールの「アカウント設定」からいつでもアカウントを削除（退会）できます。削除される情報と残る情報は、プライバシーポリシーに定めます。",
      ],
    },
    {
      heading: "第8条（免責）",
      paragraphs: [
        "本サービスは現状のまま提供されます。カードデータベースや記事の内容の正確性、サービスの継続性について保証しません。運営は、本サービスの変更・中断・終了によって生じた損害について、運営の故意または重大な過失による場合を除き、責任を負いません。",
      ],
    },
    {
      heading: "第9条（規約の変更・準拠法）",
      paragraphs: [
        "運営は、必要に応じて本規約を変更できます。重要な変更は本サービス上でお知らせし、変更後に利用した時点で同意したものとみなします。本規約は日本法に準拠し、本サービスに関する紛争は、運営者の所在地を管轄する地方裁判所を第一審の専属的合意管轄裁判所とします。",
      ],
    },
  ],
};

const termsEn: LegalDocument = {
  title: "Terms of use",
  description: "The rules for using Torepoke's trade board and chat: no real-money trading, no contact details in posts, and more.",
  updatedLabel: "Last updated",
  updated: UPDATED,
  intro:
    "These terms of use (“the terms”) set the conditions for using Torepoke (“the service”). By using the service you agree to them. The Japanese version of the terms is the binding one.",
  sections: [
    {
      heading: "Article 1 (The service)",
      paragraphs: [
        "The service is a place where Pokémon TCG Pocket players find partners for card trades, which they then carry out with the game's own trade feature. Cards change hands only inside the game; the service never holds or brokers cards or accounts.",
        "The service is an unofficial fan site with no connection to The Pokémon Company, Creatures Inc., GAME FREAK inc., DeNA Co., Ltd. or Nintendo. Pokémon and related names are trademarks of their owners.",
      ],
    },
    {
      heading: "Article 2 (Accounts)",
      paragraphs: [
        "Register with an e-mail address that is yours and keep your password safe. An account may not be transferred, lent or shared. Using several accounts to manipulate offers or ratings is forbidden.",
      ],
    },
    {
      heading: "Article 3 (Prohibited conduct)",
      paragraphs: ["Users must not:"],
      items: [
        "exchange cards or accounts for money or anything of monetary value — cash, e-money, gift cards, buying in-game currency on someone's behalf (real-money trading) — or solicit it",
        "buy, sell or transfer accounts, or offer or request playing on someone else's behalf",
        "put contact details or anything that identifies a person — e-mail addresses, phone numbers, addresses, LINE IDs, social media accounts, invitations to outside services — in offers, chat or display names",
        "deceive others, such as deliberately not carrying out an agreed trade or posting false offers",
        "insult, harass, stalk or discriminate against other users",
        "post the same thing repeatedly, advertise or spam",
        "access the service without authorisation, overload it, exploit vulnerabilities, or operate it in bulk with automated tools",
        "break the law, public order, or the game's own terms, or do anything else the operators judge inappropriate",
      ],
    },
    {
      heading: "Article 4 (Reports)",
      paragraphs: [
        "If you find a post or user that breaks these rules, tell the operators with the report function of trade offers and chat. Blocking someone ends chat with them. When a trade goes wrong, do not keep arguing: report it.",
      ],
    },
    {
      heading: "Article 5 (Removal and suspension)",
      paragraphs: [
        "When the operators judge that the terms are or may be broken, they may remove posts, suspend accounts or take other necessary measures without notice. A suspended account cannot trade or chat.",
      ],
    },
    {
      heading: "Article 6 (Trades between users)",
      paragraphs: [
        "Trades are agreed and carried out by users on their own responsibility. The operators do not guarantee that a trade happens or that the other side keeps their word, and are not liable for disputes between users; reported breaches are handled under these terms.",
      ],
    },
    {
      heading: "Article 7 (Deleting your account)",
      paragraphs: ["You can delete your account at any time under Account settings on your profile. What is deleted and what remains is described in the privacy policy."],
    },
    {
      heading: "Article 8 (Disclaimer)",
      paragraphs: [
        "The service is provided as is. The accuracy of the card database and articles, and the continuity of the service, are not guaranteed. Except for intent or gross negligence, the operators are not liable for damage caused by changes to, interruption of, or the end of the service.",
      ],
    },
    {
      heading: "Article 9 (Changes and governing law)",
      paragraphs: [
        "The operators may change these terms when needed. Important changes are announced on the service, and using it afterwards means you accept them. These terms are governed by Japanese law; the district court with jurisdiction over the operators' location is the exclusive court of first instance for disputes about the service.",
      ],
    },
  ],
};

export const LEGAL_DOCUMENTS: Record<"privacy" | "terms", Record<Locale, LegalDocument>> = {
  privacy: { ja: privacyJa, en: privacyEn },
  terms: { ja: termsJa, en: termsEn },
};
