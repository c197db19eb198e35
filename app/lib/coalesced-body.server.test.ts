import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { coalescedBody } from "./coalesced-body.server";

function collect(stream: NodeJS.ReadableStream): Buffer[] {
  const pieces: Buffer[] = [];
  stream.on("data", (piece: Buffer) => pieces.push(piece));
  return pieces;
}

describe("coalescedBody", () => {
  it("sends the pieces written in one turn as one piece, bytes and order unchanged", async () => {
    const body = coalescedBody();
    const pieces = collect(body);
    for (const text of ["<!DOCTYPE html>", "<html>", "<body>", "ポケポケ"]) body.write(Buffer.from(text));
    expect(pieces).toEqual([]);
    await nextTurn();
    expect(pieces.map((p) => p.toString())).toEqual(["<!DOCTYPE html><html><body>ポケポケ"]);
  });

  it("still sends a part written in a later turn on its own, as soon as it is written", async () => {
    const body = coalescedBody();
    const pieces = collect(body);
    body.write(Buffer.from("<div>shell</div>"));
    await nextTurn();
    body.write(Buffer.from("<template>late</template>"));
    await nextTurn();
    expect(pieces.map((p) => p.toString())).toEqual(["<div>shell</div>", "<template>late</template>"]);
  });

  it("sends what is left when the writer ends, then runs onEnd once and ends", async () => {
    let ended = 0;
    const body = coalescedBody(() => ended++);
    const pieces = collect(body);
    const finished = new Promise((resolve) => body.on("end", resolve));
    body.write(Buffer.from("<p>a</p>"));
    body.end(Buffer.from("</html>"));
    await finished;
    expect(pieces.map((p) => p.toString()).join("")).toBe("<p>a</p></html>");
    expect(ended).toBe(1);
  });

  it("ends a piece after a whole tag: an unfinished one leaves with the next piece", async () => {
    const body = coalescedBody();
    const pieces = collect(body);
    body.write(Buffer.from("<p>ポケ</p><link rel=\"module"));
    await nextTurn();
    body.write(Buffer.from("preload\" href=\"/assets/a.js\"/>"));
    await nextTurn();
    expect(pieces.map((p) => p.toString())).toEqual(["<p>ポケ</p>", '<link rel="modulepreload" fetchpriority="low" href="/assets/a.js"/>']);
  });

  it("asks for every module preload at low priority and leaves other links as they are", async () => {
    const body = coalescedBody();
    const pieces = collect(body);
    const finished = new Promise((resolve) => body.on("end", resolve));
    body.end(Buffer.from('<link rel="stylesheet" href="/assets/root.css"/><link rel="modulepreload" href="/assets/a.js"/><link rel="modulepreload" href="/assets/b.js"/>'));
    await finished;
    expect(pieces.map((p) => p.toString()).join("")).toBe(
      '<link rel="stylesheet" href="/assets/root.css"/><link rel="modulepreload" fetchpriority="low" href="/assets/a.js"/><link rel="modulepreload" fetchpriority="low" href="/assets/b.js"/>',
    );
  });
});

