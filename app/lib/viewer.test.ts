import { describe, expect, it } from "vitest";
import { VIEWER_COOKIE, VIEWER_SCRIPT, encodeViewerHint, parseViewerHint, viewerHintCookie } from "./viewer";

describe("the viewer hint cookie", () => {
  it("reads back what it wrote, among other cookies, names with any character included", () => {
    const viewer = { name: "Léa; O'Brien = \"VIP\"", role: "admin" as const };
    const cookies = `theme=dark; ${VIEWER_COOKIE}=${encodeViewerHint(viewer)}; better-auth.session_token=abc`;
    expect(parseViewerHint(cookies)).toEqual(viewer);
  });

  it("ignores a missing, hand-edited or unknown-role hint", () => {
    expect(parseViewerHint("")).toBeNull();
    expect(parseViewerHint("theme=dark")).toBeNull();
    expect(parseViewerHint(`${VIEWER_COOKIE}=%7Bnot-json`)).toBeNull();
    expect(parseViewerHint(`${VIEWER_COOKIE}=${encodeURIComponent(JSON.stringify({ n: "Eve", r: "root" }))}`)).toBeNull();
    expect(parseViewerHint(`x${VIEWER_COOKIE}=${encodeViewerHint({ name: "Eve", role: "user" })}`)).toBeNull();
  });

  it("is set for as long as the session, Secure over HTTPS, and cleared at sign-out", () => {
    const set = viewerHintCookie({ name: "Léa", role: "user" }, { secure: true, maxAgeSeconds: 2_592_000 });
    expect(set).toMatch(new RegExp(`^${VIEWER_COOKIE}=[^;]+; Max-Age=2592000; Path=/; SameSite=Lax; Secure$`));
    expect(set).not.toMatch(/HttpOnly/); // the page's script reads it
    expect(viewerHintCookie(null, { secure: false, maxAgeSeconds: 1 })).toBe(`${VIEWER_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`);
  });

  it("marks <html data-viewer> before the first paint, as parseViewerHint reads it", () => {
    const run = (cookie: string) => {
      const attributes: Record<string, string> = {};
      const document = { cookie, documentElement: { setAttribute: (name: string, value: string) => (attributes[name] = value) } };
      new Function("document", VIEWER_SCRIPT)(document);
      return attributes["data-viewer"];
    };
    expect(run(`a=b; ${VIEWER_COOKIE}=${encodeViewerHint({ name: "Léa", role: "admin" })}`)).toBe("admin");
    expect(run(`${VIEWER_COOKIE}=${encodeViewerHint({ name: "Léa", role: "user" })}`)).toBe("user");
    expect(run("a=b")).toBeUndefined();
    expect(run(`${VIEWER_COOKIE}=%7Bbroken`)).toBeUndefined();
  });
});
