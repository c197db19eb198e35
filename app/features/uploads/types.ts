/** What `POST /api/admin/uploads` answers (shared by the service and the upload button). */
export type UploadedImage = { url: string; width: number; height: number };
/** `eyecatch` (1200×630) only for the wide folders (eyecatches, og). */
export type UploadResult = UploadedImage & { eyecatch?: UploadedImage };
