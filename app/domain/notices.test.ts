import { describe, expect, it } from "vitest";
import { noticeFor, withNotice } from "./notices";

describe("notices", () => {
  it("adds the notice to a path", () => {
    expect(withNotice("/", "deconnecte")).toBe("/?notice=deconnecte");
    expect(withNotice("/admin?x=1", "admin-connecte")).toBe("/admin?x=1&notice=admin-connecte");
    expect(withNotice("/legal?x=1#cgv", "deconnecte")).toBe("/legal?x=1&notice=deconnecte#cgv");
  });

  it("knows only its own notices", () => {
    expect(noticeFor("deconnecte")?.title).toBe("Déconnecté");
    expect(noticeFor("toString")).toBeNull();
    expect(noticeFor(null)).toBeNull();
  });
});
