import { describe, expect, it } from "vitest";
import { isSameOriginPost } from "./session.server";

const post = (headers: Record<string, string>) => new Request("http://127.0.0.1:3000/admin", { method: "POST", headers });
const PUBLIC_URL = "https://comptoir.example";

describe("isSameOriginPost (admin writes)", () => {
  it("accepts the shop's own pages, by the request's origin or the public URL", () => {
    expect(isSameOriginPost(post({ origin: "http://127.0.0.1:3000" }), PUBLIC_URL)).toBe(true);
    expect(isSameOriginPost(post({ origin: PUBLIC_URL }), PUBLIC_URL)).toBe(true);
    expect(isSameOriginPost(post({ "sec-fetch-site": "same-origin" }), PUBLIC_URL)).toBe(true);
  });

  it("refuses another site's form or fetch", () => {
    expect(isSameOriginPost(post({ origin: "https://evil.example" }), PUBLIC_URL)).toBe(false);
    expect(isSameOriginPost(post({ origin: "null" }), PUBLIC_URL)).toBe(false);
    expect(isSameOriginPost(post({ "sec-fetch-site": "cross-site" }), PUBLIC_URL)).toBe(false);
    expect(isSameOriginPost(post({ "sec-fetch-site": "same-site" }), PUBLIC_URL)).toBe(false);
  });

  it("lets a script with neither header through (it holds its own cookie: the role check decides)", () => {
    expect(isSameOriginPost(post({}), PUBLIC_URL)).toBe(true);
  });
});
