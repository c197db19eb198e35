import { defineMessages } from "#app/lib/i18n.tsx";

/** Image uploads (docs/product-rules.md §7 image upload, §8 upload messages). */
export const uploadsMessages = defineMessages({
  ja: {
    uploadFailed: "画像のアップロードに失敗しました",
    eyecatchUploadFailed: "アイキャッチ画像のアップロードに失敗しました",
    unknownError: "不明なエラー",
    errNoFile: "画像ファイルを選択してください",
    errBadFolder: "保存先フォルダが正しくありません",
    errTooLarge: "画像ファイルが大きすぎます（{maxMb}MBまで）",
    errTooManyPixels: "画像の画素数が大きすぎます（{maxManPixels}万画素まで）",
    errUnsupportedType: "この形式のファイルはアップロードできません（JPEG・PNG・WebP・GIF・AVIFの画像のみ）",
    errUnreadable: "画像を読み込めませんでした。壊れていない画像ファイルを選んでください",
    errRateLimited: "画像のアップロードが多すぎます。しばらく待ってからもう一度お試しください",
    errBusy: "ただいま画像の処理が混み合っています。少し待ってからもう一度お試しください",
    uploadButton: "画像をアップロード",
    uploading: "アップロード中...",
  },
  en: {
    uploadFailed: "The image could not be uploaded",
    eyecatchUploadFailed: "The eyecatch image could not be uploaded",
    unknownError: "Unknown error",
    errNoFile: "Choose an image file",
    errBadFolder: "The destination folder is not valid",
    errTooLarge: "The image file is too large (up to {maxMb} MB)",
    errTooManyPixels: "The image has too many pixels (up to {maxMegapixels} megapixels)",
    errUnsupportedType: "This kind of file cannot be uploaded (JPEG, PNG, WebP, GIF or AVIF images only)",
    errUnreadable: "The image could not be read. Choose an image file that is not damaged",
    errRateLimited: "Too many images were uploaded. Wait a little and try again",
    errBusy: "Images are being processed for others right now. Wait a moment and try again",
    uploadButton: "Upload an image",
    uploading: "Uploading...",
  },
});
