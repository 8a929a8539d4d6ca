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
});
