import { describe, expect, it } from "vitest";
import { readMultipart } from "./multipart.server";

const BOUNDARY = "----comptoir-test";
const LIMITS = { totalBytes: 3 * 1024 * 1024, fileBytes: 1024 * 1024, files: 2 };

/** A post whose body is made as it is read, in 64 KB chunks: `pulled()` says how much was read. */
function streamedPost(parts: { name: string; file?: string; size?: number; text?: string }[], headers: Record<string, string> = {}) {
  const pieces: (Uint8Array | number)[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.file !== undefined ? `; filename="${part.file}"` : ""}`;
    pieces.push(new TextEncoder().encode(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${part.file !== undefined ? "Content-Type: image/png\r\n" : ""}\r\n${part.text ?? ""}`));
    if (part.size) pieces.push(part.size);
    pieces.push(new TextEncoder().encode("\r\n"));
  }
  pieces.push(new TextEncoder().encode(`--${BOUNDARY}--\r\n`));
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = pieces.shift();
      if (next === undefined) return controller.close();
      if (typeof next === "number") {
        const chunk = new Uint8Array(Math.min(next, 64 * 1024)).fill(0x41);
        if (next > chunk.length) pieces.unshift(next - chunk.length);
        pulled += chunk.length;
        controller.enqueue(chunk);
      } else {
        pulled += next.length;
        controller.enqueue(next);
      }
    },
  });
  const request = new Request("http://localhost/rachat", { method: "POST", body, headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, ...headers }, duplex: "half" } as RequestInit);
  return { request, pulled: () => pulled };
}

describe("readMultipart", () => {
  it("gives the texts, without NUL characters, and the files with their names", async () => {
    const form = new FormData();
    form.append("firstName", "Ma\0rie");
    form.append("photos", new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" }), "classeur é.png");
    form.append("message", "Une collection");
    const result = await readMultipart(new Request("http://localhost/rachat", { method: "POST", body: form }), LIMITS);
    expect(result).toEqual({
      fields: [
        ["firstName", "Marie"],
        ["message", "Une collection"],
      ],
      files: [{ field: "photos", name: "classeur é.png", type: "image/png", bytes: Buffer.from([1, 2, 3]) }],
    });
  });

  it("refuses a file over its ceiling with its name and stops reading there, the texts before it kept", async () => {
    const post = streamedPost([{ name: "firstName", text: "Marie" }, { name: "photos", file: "enorme.png", size: 50 * 1024 * 1024 }]);
    expect(await readMultipart(post.request, { ...LIMITS, totalBytes: 60 * 1024 * 1024 })).toEqual({ refused: "file-too-large", file: "enorme.png", fields: [["firstName", "Marie"]] });
    expect(post.pulled()).toBeLessThan(LIMITS.fileBytes + 256 * 1024);
  });

  it("refuses a body over the total ceiling without a length, as soon as it passes it", async () => {
    const post = streamedPost([{ name: "message", size: 0, text: "x" }, { name: "photos", file: "a.png", size: 900 * 1024 }, { name: "notes", size: 10 * 1024 * 1024 }]);
    expect(await readMultipart(post.request, { ...LIMITS, totalBytes: 2 * 1024 * 1024 })).toMatchObject({ refused: "too-large" });
    expect(post.pulled()).toBeLessThan(2 * 1024 * 1024 + 128 * 1024);
  });

  it("refuses a declared length over the total ceiling without reading anything", async () => {
    const post = streamedPost([{ name: "photos", file: "a.png", size: 10 * 1024 * 1024 }], { "content-length": String(10 * 1024 * 1024 + 200) });
    expect(await readMultipart(post.request, LIMITS)).toEqual({ refused: "too-large", fields: [] });
    expect(post.pulled()).toBeLessThan(200); // the part's header, pulled by the stream itself

  });

  it("refuses more files than allowed", async () => {
    const post = streamedPost([1, 2, 3].map((i) => ({ name: "photos", file: `${i}.png`, size: 100 })));
    expect(await readMultipart(post.request, LIMITS)).toEqual({ refused: "too-many-files", fields: [] });
  });

  it("says unreadable for a body that is not multipart or is cut short", async () => {
    const urlEncoded = new Request("http://localhost/rachat", { method: "POST", body: new URLSearchParams({ a: "b" }) });
    expect(await readMultipart(urlEncoded, LIMITS)).toEqual({ refused: "unreadable", fields: [] });
    const cut = new Request("http://localhost/rachat", { method: "POST", body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="photos"; filename="a.png"\r\n\r\nAAAA`, headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` } });
    expect(await readMultipart(cut, LIMITS)).toMatchObject({ refused: "unreadable" });
  });
});
