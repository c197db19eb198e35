import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cards } from "#app/db/schema/index.ts";
import { getCard, listCards } from "#app/features/cards/cards.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { loadSpeciesArt, speciesArtFile } from "#app/features/cards/species-art.server.ts";
import { cardShareModel, shareImage, shareImagePath, shareModel } from "#app/features/share/share.server.tsx";
import type { CardShareModel } from "#app/features/share/templates.server.tsx";
import { createLocalStore } from "#app/features/uploads/storage.server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let work: string;

/** A stand-in artwork drawn here (no Pokémon artwork in the repository): a coloured disc. */
const artwork = (colour: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 120"><circle cx="50" cy="60" r="40" fill="${colour}"/></svg>`;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedCatalogue(database.db);
  work = await mkdtemp(path.join(tmpdir(), "species-art-"));
});
afterAll(async () => {
  await database?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("species artwork for the placeholders (cards:art)", () => {
  it("maps a card to its species' artwork file, never a Mega Evolution's or a regional form's", () => {
    expect(speciesArtFile({ nameEn: "Pikachu ex" })).toBe("25");
    expect(speciesArtFile({ nameEn: "Farfetch’d" })).toBe("83");
    expect(speciesArtFile({ nameEn: "Heat Rotom" })).toBe("479-heat");
    expect(speciesArtFile({ nameEn: "Mega Charizard Y ex" })).toBeNull();
    expect(speciesArtFile({ nameEn: "Alolan Raichu ex" })).toBeNull();
    expect(speciesArtFile({ nameEn: "Professor's Research" })).toBeNull();
  });

  it("tells a form the English name does not say from the card's image file or type, and gives none when it cannot", () => {
    const card = (nameEn: string, token: string | null, element: string | null = null) => ({
      nameEn,
      imageFile: token ? `cPK_10_003710_00_${token}_C.webp` : "A4b_170.webp",
      element,
    });
    // Wormadam's three cloaks share the English name.
    expect(speciesArtFile(card("Wormadam", "MINOMADAMKUSAKINOMINO", "grass"))).toBe("413");
    expect(speciesArtFile(card("Wormadam", "MINOMADAMSUNACHINOMINO", "fighting"))).toBe("413-sandy");
    expect(speciesArtFile(card("Wormadam", "MINOMADAMGOMINOMINO", "metal"))).toBe("413-trash");
    expect(speciesArtFile(card("Wormadam", null, "fighting"))).toBe("413-sandy");
    // Origin Forme: Giratina's own file; the artwork set has none of Dialga's or Palkia's.
    expect(speciesArtFile(card("Giratina", "ORIGINGIRATINA", "psychic"))).toBe("487-origin");
    expect(speciesArtFile(card("Giratina ex", "GIRATINAex", "psychic"))).toBe("487");
    expect(speciesArtFile(card("Dialga", "ORIGINDIALGA", "metal"))).toBeNull();
    expect(speciesArtFile(card("Palkia", "ORIGINPALKIA", "water"))).toBeNull();
    expect(speciesArtFile(card("Dialga ex", "DIALGAex", "metal"))).toBe("483");
    // Shaymin's token is the same in both formes: the colourless one is the Sky Forme.
    expect(speciesArtFile(card("Shaymin", "SHAYMIN", "colorless"))).toBe("492-sky");
    expect(speciesArtFile(card("Shaymin", "SHAYMIN", "grass"))).toBe("492");
    // A file that does not say which Giratina it is gets no art rather than maybe the wrong one.
    expect(speciesArtFile(card("Giratina", null, "psychic"))).toBeNull();
    // A form the tables do not know keeps the frame; the usual form of a species with a form word in its token has its file.
    expect(speciesArtFile(card("Oricorio", "ODORIDORIPACHIPACHISTYLE", "lightning"))).toBeNull();
    expect(speciesArtFile(card("Oricorio", "ODORIDORI", "fire"))).toBe("741");
    expect(speciesArtFile(card("Keldeo", "KELDEOITSUMONOSUGATA", "water"))).toBe("647");
  });

  it("renders each species once into the upload store, points its Pokémon cards at it, and a second run stores nothing", async () => {
    const folder = path.join(work, "dream-world");
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, "25.svg"), artwork("#f5d000"));
    await writeFile(path.join(folder, "1.svg"), artwork("#3f9a3a"));
    // Raichu's artwork is there, so Alolan Raichu's keeping the frame is the mapping's doing.
    await writeFile(path.join(folder, "26.svg"), artwork("#e08a2c"));
    await writeFile(path.join(folder, "4.svg"), "<svg this is not an image");
    const uploads = path.join(work, "uploads");
    const store = createLocalStore(uploads, "http://127.0.0.1");

    const first = await loadSpeciesArt(database.db, folder, store);
    expect(first.failed.map((f) => f.file)).toEqual(["4"]);
    expect(first).toMatchObject({ species: 3, stored: 3 });
    const all = await database.db.select({ id: cards.id, nameEn: cards.nameEn, cardType: cards.cardType, speciesArt: cards.speciesArt }).from(cards);
    const pikachus = all.filter((c) => c.nameEn === "Pikachu" || c.nameEn === "Pikachu ex");
    expect(pikachus.length).toBeGreaterThan(2);
    const url = pikachus[0].speciesArt!;
    expect(url).toMatch(/^\/uploads\/card-art\/25-[0-9a-f]{16}\.webp$/);
    for (const card of pikachus) expect(card.speciesArt).toBe(url);
    expect(first.cards).toBe(all.filter((c) => c.speciesArt).length);
    // Trainers, other species and a file that failed keep the designed frame.
    expect(all.filter((c) => c.speciesArt && c.cardType !== "pokemon")).toEqual([]);
    expect(all.find((c) => c.nameEn === "Charmander")?.speciesArt).toBeNull();
    expect(all.find((c) => c.nameEn === "Raichu")?.speciesArt).toMatch(/^\/uploads\/card-art\/26-/);
    const alolan = all.filter((c) => c.nameEn.startsWith("Alolan Raichu"));
    expect(alolan.length).toBeGreaterThan(0);
    expect(alolan.every((c) => c.speciesArt === null)).toBe(true);

    const stored = await sharp(path.join(uploads, url.replace(/^\/uploads\//, ""))).metadata();
    expect([stored.format, stored.width, stored.height, stored.hasAlpha]).toEqual(["webp", 320, 320, true]);

    // The lists and the card page hand the artwork to the placeholder.
    const listed = await listCards(database.db, { packId: "pikachu", q: "ピカチュウ" });
    expect(listed.cards.find((c) => c.nameEn === "Pikachu")?.speciesArt).toBe(url);

    const files = await readdir(path.join(uploads, "card-art"));
    const second = await loadSpeciesArt(database.db, folder, store);
    expect(second).toMatchObject({ species: 3, stored: 0, cards: first.cards });
    expect(await readdir(path.join(uploads, "card-art"))).toEqual(files);

    // A file that is there but cannot be read is a failure, not a missing species: its cards keep their art.
    await rm(path.join(folder, "25.svg"));
    await mkdir(path.join(folder, "25.svg"));
    const unreadable = await loadSpeciesArt(database.db, folder, store);
    expect(unreadable.failed.map((f) => f.file).sort()).toEqual(["25", "4"]);
    expect(unreadable.missing).toBe(second.missing);
    const stillPikachus = await database.db.select({ speciesArt: cards.speciesArt }).from(cards).where(inArray(cards.nameEn, ["Pikachu", "Pikachu ex"]));
    expect(stillPikachus.every((c) => c.speciesArt === url)).toBe(true);
    await rm(path.join(folder, "25.svg"), { recursive: true });
    await writeFile(path.join(folder, "25.svg"), artwork("#f5d000"));

    // Artwork that is gone from the folder is taken off its cards.
    await rm(path.join(folder, "1.svg"));
    await loadSpeciesArt(database.db, folder, store);
    const bulbasaurs = await database.db.select({ speciesArt: cards.speciesArt }).from(cards).where(eq(cards.nameEn, "Bulbasaur"));
    expect(bulbasaurs.every((c) => c.speciesArt === null)).toBe(true);
  });

  it("draws the artwork into the card's share image, under a new revision", async () => {
    const store = createLocalStore(path.join(work, "uploads"), "http://127.0.0.1");
    const [pikachu] = await database.db.select({ id: cards.id }).from(cards).where(inArray(cards.nameEn, ["Pikachu"])).limit(1);
    const card = (await getCard(database.db, pikachu.id))!;
    expect(card.speciesArt).not.toBeNull();
    const model = (await shareModel(database.db, "card", card.id)) as CardShareModel;
    expect(model.card.art).toBe(card.speciesArt);
    const revision = shareImagePath("card", card.id, model).split("/").pop()!.replace(".webp", "");
    expect(shareImagePath("card", card.id, cardShareModel({ ...card, speciesArt: null }, null))).not.toContain(revision);
    // Art that cannot be read (here: an upload store without it) draws the frame only, and that
    // image is not kept under the revision, so a later request draws it again.
    const bare = createLocalStore(path.join(work, "uploads-without-art"), "http://127.0.0.1");
    const partial = await shareImage(database.db, bare, "card", card.id, revision);
    expect(partial).toMatchObject({ kind: "image", kept: false });
    expect(await bare.get(`share/card-${card.id.replace(/[^A-Za-z0-9_-]/g, "_")}-${revision}.webp`)).toBeNull();
    const answer = await shareImage(database.db, store, "card", card.id, revision);
    expect(answer).toMatchObject({ kind: "image", kept: true });
    expect(await store.get(`share/card-${card.id.replace(/[^A-Za-z0-9_-]/g, "_")}-${revision}.webp`)).not.toBeNull();
    const bytes = (answer as { bytes: Buffer }).bytes;
    // The yellow disc is in the picture: some pixels are strongly yellow.
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    let yellow = 0;
    for (let i = 0; i < data.length; i += info.channels) if (data[i] > 220 && data[i + 1] > 190 && data[i + 2] < 60) yellow++;
    expect(yellow).toBeGreaterThan(1000);
  });
});
