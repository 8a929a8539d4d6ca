import fs from "node:fs";
import { twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { classVocabulary, GENERATED_FILE, generateClassGroups } from "../../scripts/class-groups.mjs";
import { CLASS_GROUPS } from "./class-groups.generated";
import { mergeClasses } from "./class-merge";
import { cn } from "./utils";

const vocabulary: string[] = classVocabulary();
const classes = [...CLASS_GROUPS.keys()];

/** Compared only when they differ: an expect per list would cost more than the merges (hundreds of thousands). */
function expectTailwindMergeResult(list: string) {
  const merged = mergeClasses(list);
  if (merged !== twMerge(list)) expect(merged, list).toBe(twMerge(list));
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % below;
  };
}

describe("the class table", () => {
  it("is up to date with the classes written in app/ (else run node scripts/class-groups.mjs)", () => {
    expect(fs.readFileSync(GENERATED_FILE, "utf8")).toBe(generateClassGroups());
  });

  it("knows the classes the components override", () => {
    for (const name of ["inline-flex", "hidden", "h-9", "h-11", "px-4", "p-2", "bg-primary", "text-sm", "text-muted-foreground", "rounded-md", "w-full"]) {
      expect(CLASS_GROUPS.has(name), name).toBe(true);
    }
  });
});

describe("mergeClasses gives tailwind-merge's result", () => {
  it("on the cases the components rely on", () => {
    expect(cn("inline-flex h-9 px-4", "hidden h-11")).toBe("px-4 hidden h-11");
    expect(cn("p-4", "px-2")).toBe("p-4 px-2");
    expect(cn("px-2", "p-4")).toBe("p-4");
    expect(cn("text-sm text-muted-foreground", "text-primary")).toBe("text-sm text-primary");
    expect(cn("bg-primary hover:bg-primary/90", "hover:bg-accent")).toBe("bg-primary hover:bg-accent");
    expect(cn("md:hover:p-2", "hover:md:p-4")).toBe("hover:md:p-4");
    expect(cn("p-2", "!p-4", "p-6")).toBe("!p-4 p-6");
    expect(cn("p-2 p-2")).toBe("p-2");
    expect(cn("", undefined, false, "  ")).toBe("");
    expect(cn("une-classe-a-nous", "p-2", "une-classe-a-nous")).toBe("une-classe-a-nous p-2 une-classe-a-nous");
    expect(cn({ "p-2": true, "p-4": false }, ["mt-1", ["mt-2"]])).toBe("p-2 mt-2");
  });

  it("on every pair of the app's classes, in both orders", () => {
    let compared = 0;
    for (const a of classes) {
      for (const b of classes) {
        expectTailwindMergeResult(`${a} ${b}`);
        compared += 1;
      }
    }
    expect(compared).toBe(classes.length ** 2);
  });

  it("on pairs under the modifiers the app uses, important ones included", () => {
    const modifiers = [...new Set(vocabulary.filter((word) => word.includes(":")).map((word) => word.slice(0, word.lastIndexOf(":") + 1)))];
    expect(modifiers.length).toBeGreaterThan(10);
    const pick = random(13);
    for (let round = 0; round < 40_000; round += 1) {
      const prefix = () => (pick(3) === 0 ? "" : modifiers[pick(modifiers.length)]!) + (pick(10) === 0 ? "!" : "");
      expectTailwindMergeResult(`${prefix()}${classes[pick(classes.length)]} ${prefix()}${classes[pick(classes.length)]}`);
    }
  });

  it("on longer lists drawn from every word of the sources", () => {
    const pick = random(7);
    for (let round = 0; round < 20_000; round += 1) {
      const words = Array.from({ length: 2 + pick(8) }, () => (pick(2) === 0 ? classes[pick(classes.length)] : vocabulary[pick(vocabulary.length)]));
      expectTailwindMergeResult(words.join(pick(4) === 0 ? "  " : " "));
    }
  });
});
