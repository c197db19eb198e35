import { describe, expect, it } from "vitest";
import { readFormData } from "./forms.server";

const post = (body: string, type: string) =>
  new Request("http://localhost/login", { method: "POST", body, headers: { "content-type": type } });

describe("readFormData", () => {
  it("reads a urlencoded form", async () => {
    const form = await readFormData(post("email=a%40b.jp&x=1", "application/x-www-form-urlencoded"));
    expect(form.get("email")).toBe("a@b.jp");
  });

  it("answers 400 for a body that is not a form", async () => {
    const error = await readFormData(post('{"email":"a@b.jp"}', "application/json")).catch((e: unknown) => e);
    // Thrown data() becomes the 400 response the route's error boundary renders.
    expect((error as { init?: { status?: number } }).init?.status).toBe(400);
  });
});
