import { describe, expect, it } from "vitest";
import { cn } from "./utils";

describe("cn", () => {
  it("lets a later class override an earlier one of its group, as the components rely on", () => {
    expect(cn("inline-flex h-9 px-4", "hidden h-11")).toBe("px-4 hidden h-11");
    expect(cn("p-4", "px-2")).toBe("p-4 px-2");
    expect(cn("px-2", "p-4")).toBe("p-4");
    expect(cn("text-sm text-muted-foreground", "text-primary")).toBe("text-sm text-primary");
    expect(cn("bg-primary hover:bg-primary/90", "hover:bg-accent")).toBe("bg-primary hover:bg-accent");
    expect(cn("md:hover:p-2", "hover:md:p-4")).toBe("hover:md:p-4");
    expect(cn("p-2", "!p-4", "p-6")).toBe("!p-4 p-6");
    expect(cn("p-2 p-2")).toBe("p-2");
  });

  it("knows the theme's own colours (app.css) as colours, not sizes", () => {
    expect(cn("text-xs text-destructive-foreground", "text-surface-art")).toBe("text-xs text-surface-art");
    expect(cn("bg-surface-art", "bg-card")).toBe("bg-card");
    expect(cn("border-border", "border-input border-2")).toBe("border-input border-2");
    expect(cn("text-[0.97rem] text-muted-foreground", "text-accent")).toBe("text-[0.97rem] text-accent");
  });

  it("keeps a class it does not know, and drops what clsx drops", () => {
    expect(cn("", undefined, false, "  ")).toBe("");
    expect(cn("une-classe-a-nous", "p-2", "une-classe-a-nous")).toBe("une-classe-a-nous p-2 une-classe-a-nous");
    expect(cn("size-2 rounded-full", "animate-pulse-thrice bg-success")).toBe("size-2 rounded-full animate-pulse-thrice bg-success");
    expect(cn({ "p-2": true, "p-4": false }, ["mt-1", ["mt-2"]])).toBe("p-2 mt-2");
  });
});
