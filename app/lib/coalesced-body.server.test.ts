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
});
