/**
 * Writes the home-screen icons of the web app manifest (public/icons/*.png) from the site's own
 * mark: "トレ" in the brand's dark orange on its cream card, on the brand orange, as the header
 * and the default share image draw it. Run once after the mark or colours change:
 *   npx tsx scripts/app-icons.ts
 */
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import satori from "satori";
import sharp from "sharp";

const require = createRequire(import.meta.url);
const ORANGE = "#ea580c";
const CREAM = "#fff7ed";
const INK = "#9a3412";

async function icon(size: number, options: { maskable: boolean }): Promise<Buffer> {
  const font = await readFile(require.resolve("@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf"));
  // A maskable icon keeps its mark inside the central 80% safe zone and fills the whole square.
  const card = options.maskable ? size * 0.62 : size * 0.8;
  const tree = {
    type: "div",
    props: {
      style: { width: size, height: size, display: "flex", alignItems: "center", justifyContent: "center", background: ORANGE, borderRadius: options.maskable ? 0 : size * 0.18 },
      children: {
        type: "div",
        props: {
          style: { width: card, height: card, display: "flex", alignItems: "center", justifyContent: "center", background: CREAM, borderRadius: card * 0.16, color: INK, fontSize: card * 0.42, fontWeight: 700, letterSpacing: -card * 0.02 },
          children: "トレ",
        },
      },
    },
  };
  // satori takes a React-element-shaped object; no JSX in a script.
  const svg = await satori(tree as unknown as Parameters<typeof satori>[0], { width: size, height: size, fonts: [{ name: "Noto Sans JP", data: font, weight: 700, style: "normal" }] });
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true }).toBuffer();
}

const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../public/icons");
const files: [string, number, boolean][] = [
  ["icon-192.png", 192, false],
  ["icon-512.png", 512, false],
  ["icon-maskable-512.png", 512, true],
  // iOS rounds the corners itself and shows no transparency: the full square.
  ["apple-touch-icon.png", 180, true],
];
for (const [name, size, maskable] of files) {
  await writeFile(path.join(out, name), await icon(size, { maskable }));
  console.log(`wrote public/icons/${name}`);
}
