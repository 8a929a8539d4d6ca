import { describe, expect, it } from "vitest";
import { FlushCoalescer } from "./flush-coalescer.server";

function collect(stream: FlushCoalescer): string[] {
  const chunks: string[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
  return chunks;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("FlushCoalescer", () => {
  it("passes each round of writes on as one chunk, when flushed", async () => {
    const stream = new FlushCoalescer();
    const chunks = collect(stream);
    stream.write("<html>");
    stream.write("<body>");
    await tick();
    expect(chunks).toEqual([]);
    stream.flush();
    await tick();
    expect(chunks).toEqual(["<html><body>"]);
    stream.write("<template>");
    stream.flush();
    stream.flush(); // nothing new: no empty chunk
    await tick();
    expect(chunks).toEqual(["<html><body>", "<template>"]);
  });

  it("passes what is left on at the end, then calls onEnd", async () => {
    let ended = false;
    const stream = new FlushCoalescer(() => (ended = true));
    const chunks = collect(stream);
    const finished = new Promise((resolve) => stream.on("end", resolve));
    stream.write("</body>");
    stream.end("</html>");
    await finished;
    expect(chunks).toEqual(["</body></html>"]);
    expect(ended).toBe(true);
  });
});
