import { describe, expect, it } from "vitest";
import { FORM_LIMIT_BYTES, parseJson, readForm, readFormAtMost, readJson, withoutNul } from "./request-input.server";

const post = (body: BodyInit, contentType?: string) =>
  new Request("http://shop.test/login", { method: "POST", body, headers: contentType ? { "content-type": contentType } : {} });

describe("reading what a post sends", () => {
  it("drops NUL characters from field names and values, and leaves files as they are", async () => {
    const form = new FormData();
    form.append("na\0me", "Ma\0rie\0");
    form.append("photo", new File([new Uint8Array([0, 1, 0])], "a.png", { type: "image/png" }));
    const clean = withoutNul(form);
    expect([...clean.keys()]).toEqual(["name", "photo"]);
    expect(clean.get("name")).toBe("Marie");
    const file = clean.get("photo") as File;
    expect(file.name).toBe("a.png");
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([0, 1, 0]);
  });

  it("reads a URL-encoded or multipart form without its NUL characters", async () => {
    const encoded = await readForm(post("email=a%00%40b.fr&password=x", "application/x-www-form-urlencoded"));
    expect(encoded.get("email")).toBe("a@b.fr");
    const multipart = new FormData();
    multipart.append("message", "Bon\0jour");
    expect((await readForm(post(multipart))).get("message")).toBe("Bonjour");
  });

  it("answers 400 for a body that is not a form and 413 past the ceiling, without reading on", async () => {
    await expect(readForm(post("a=b", "text/plain"))).rejects.toMatchObject({ init: { status: 400 } });
    await expect(readForm(post("--x\r\nbroken", "multipart/form-data; boundary=x"))).rejects.toMatchObject({ init: { status: 400 } });
    const huge = `password=${"a".repeat(FORM_LIMIT_BYTES)}`;
    await expect(readForm(post(huge, "application/x-www-form-urlencoded"))).rejects.toMatchObject({ init: { status: 413 } });
    // Streamed with no declared length: cut at the ceiling all the same.
    const stream = new Blob([huge]).stream();
    const streamed = new Request("http://shop.test/login", { method: "POST", body: stream, duplex: "half", headers: { "content-type": "application/x-www-form-urlencoded" } } as RequestInit);
    expect(await readFormAtMost(streamed, 1024)).toBe("too-large");
  });

  it("parses JSON with NUL characters dropped from every string and key, nested too", () => {
    expect(parseJson('{"code":"AB\\u0000C","items":[{"na\\u0000me":"x\\u0000"}],"n":1}')).toEqual({ code: "ABC", items: [{ name: "x" }], n: 1 });
    expect(() => parseJson("{ pas du json")).toThrow();
  });

  it("reads a JSON body: null when it is not JSON, 413 past the ceiling", async () => {
    expect(await readJson(post('{"code":"A\\u0000"}', "application/json"))).toEqual({ code: "A" });
    expect(await readJson(post("{ pas du json", "application/json"))).toBeNull();
    await expect(readJson(post(JSON.stringify({ pad: "x".repeat(FORM_LIMIT_BYTES) }), "application/json"))).rejects.toMatchObject({ init: { status: 413 } });
  });
});
