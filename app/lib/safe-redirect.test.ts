import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it("keeps paths of this site", () => {
    expect(safeRedirect("/admin/login", "/")).toBe("/admin/login");
  });
  it("refuses other origins and odd values", () => {
    expect(safeRedirect("https://evil.example", "/")).toBe("/");
    expect(safeRedirect("//evil.example", "/")).toBe("/");
    expect(safeRedirect("/\\evil.example", "/")).toBe("/");
    expect(safeRedirect(null, "/account")).toBe("/account");
  });
  it("refuses tabs and line breaks, which browsers drop from a URL (\"/\\t/evil\" is \"//evil\") or which would break the header", () => {
    for (const target of ["/\t/evil.example/x", "/\n/evil.example", "/\r\nSet-Cookie: x=1", "/a\u0000b", "/a\u007fb"]) {
      expect(safeRedirect(target, "/")).toBe("/");
    }
    // What a browser would have done with it: another origin.
    expect(new URL("/\t/evil.example/x", "https://shop.example").host).toBe("evil.example");
  });
  it("percent-encodes what is not ASCII, so the Location header can carry it", () => {
    expect(safeRedirect("/€", "/")).toBe("/%E2%82%AC");
    expect(safeRedirect("/catalog?q=café", "/")).toBe("/catalog?q=caf%C3%A9");
    expect(safeRedirect("/．/evil.example", "/")).toBe("/%EF%BC%8E/evil.example");
    expect(safeRedirect("/%E3%80%82evil", "/")).toBe("/%E3%80%82evil");
    expect(safeRedirect("/account#commandes", "/")).toBe("/account#commandes");
    for (const target of ["/€", "/café", "/．/x"]) expect(() => new Headers({ Location: safeRedirect(target, "/") })).not.toThrow();
  });
});
