import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { shouldCompress } from "./app";

const req = { headers: { "accept-encoding": "gzip, br" } } as unknown as Request;
const res = (type: string) => ({ getHeader: (name: string) => (name.toLowerCase() === "content-type" ? type : undefined) }) as unknown as Response;

describe("shouldCompress", () => {
  it("never compresses server-sent events, which must flush as written", () => {
    expect(shouldCompress(req, res("text/event-stream; charset=utf-8"))).toBe(false);
  });
  it("compresses HTML, JSON and JavaScript", () => {
    expect(shouldCompress(req, res("text/html; charset=utf-8"))).toBe(true);
    expect(shouldCompress(req, res("application/json"))).toBe(true);
    expect(shouldCompress(req, res("text/javascript"))).toBe(true);
  });
  it("leaves already-compressed images alone", () => {
    expect(shouldCompress(req, res("image/webp"))).toBe(false);
  });
});
