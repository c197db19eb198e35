import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { ReactNode } from "react";
import satori from "satori";
import sharp from "sharp";

const require = createRequire(import.meta.url);

/** Open Graph's size: what X, LINE, Discord and Facebook crop their large previews from. */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

type SatoriFont = { name: string; data: Buffer; weight: 400 | 700; style: "normal" };
let fonts: Promise<SatoriFont[]> | null = null;

/**
 * Noto Sans JP from an npm package (TTF: satori reads TTF, OTF and WOFF, not WOFF2), read once
 * per process; the glyphs become paths in the SVG, so the raster step needs no system font.
 */
function loadFonts(): Promise<SatoriFont[]> {
  fonts ??= Promise.all([
    readFile(require.resolve("@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf")).then((data) => ({ name: "Noto Sans JP", data, weight: 400 as const, style: "normal" as const })),
    readFile(require.resolve("@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf")).then((data) => ({ name: "Noto Sans JP", data, weight: 700 as const, style: "normal" as const })),
  ]).catch((error: unknown) => {
    fonts = null;
    throw error;
  });
  return fonts;
}

/** A share image drawn from a React tree (satori's flexbox subset) as a 1200×630 WebP, without a browser. */
export async function renderShareImage(tree: ReactNode): Promise<Buffer> {
  const svg = await satori(tree, { ...SHARE_IMAGE_SIZE, fonts: await loadFonts() });
  // sharp (already used for uploads) rasterises the SVG; text is paths already.
  return sharp(Buffer.from(svg)).webp({ quality: 86 }).toBuffer();
}
