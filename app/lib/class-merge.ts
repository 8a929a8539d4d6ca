import { CLASS_GROUP_ENTRIES, CLASS_GROUPS, ORDER_SENSITIVE_MODIFIERS } from "./class-groups.generated";

/**
 * tailwind-merge's merge (a later class overrides an earlier one of the same group, under the
 * same modifiers) with its decisions precomputed for the classes this app writes
 * (scripts/class-groups.mjs): the same results for a few kilobytes instead of its whole
 * configuration in every page's JavaScript (decision 018). A word missing from the table is kept
 * as it is, as tailwind-merge keeps a class it does not know.
 */
export function mergeClasses(classList: string): string {
  let merged = merges.get(classList);
  if (merged === undefined) {
    // The lists are the components' own strings, a few hundred in all: each is merged once
    // (it was 2–3 % of a page's server render), as tailwind-merge keeps an LRU cache.
    if (merges.size >= MERGES_KEPT) merges.clear();
    merged = merge(classList);
    merges.set(classList, merged);
  }
  return merged;
}

const MERGES_KEPT = 1_000;
const merges = new Map<string, string>();

function merge(classList: string): string {
  const claimed: string[] = [];
  const words = classList.trim().split(/\s+/);
  let result = "";
  for (let index = words.length - 1; index >= 0; index -= 1) {
    const word = words[index]!;
    const { modifiers, important, base } = parseClass(word);
    const entry = CLASS_GROUPS.get(base);
    if (entry !== undefined) {
      // The group, then the groups it overrides.
      const groups = CLASS_GROUP_ENTRIES[entry]!;
      const modifierId = (modifiers.length <= 1 ? modifiers.join("") : sortModifiers(modifiers).join(":")) + (important ? "!" : "");
      if (claimed.includes(modifierId + groups[0])) continue;
      for (const group of groups) claimed.push(modifierId + group);
    }
    result = result.length > 0 ? `${word} ${result}` : word;
  }
  return result;
}

/** `md:hover:!p-4` → modifiers md and hover, important, base p-4 (brackets and parentheses kept whole). */
function parseClass(word: string): { modifiers: string[]; important: boolean; base: string } {
  const modifiers: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < word.length; index += 1) {
    const character = word[index];
    if (character === "[" || character === "(") depth += 1;
    else if (character === "]" || character === ")") depth -= 1;
    else if (character === ":" && depth === 0) {
      modifiers.push(word.slice(start, index));
      start = index + 1;
    }
  }
  let base = word.slice(start);
  let important = false;
  if (base.endsWith("!")) {
    base = base.slice(0, -1);
    important = true;
  } else if (base.startsWith("!")) {
    base = base.slice(1);
    important = true;
  }
  return { modifiers, important, base };
}

/** Sorted, except that arbitrary and order-sensitive modifiers keep their place. */
function sortModifiers(modifiers: string[]): string[] {
  const sorted: string[] = [];
  let segment: string[] = [];
  for (const modifier of modifiers) {
    if (modifier.startsWith("[") || ORDER_SENSITIVE_MODIFIERS.includes(modifier)) {
      sorted.push(...segment.sort(), modifier);
      segment = [];
    } else {
      segment.push(modifier);
    }
  }
  return [...sorted, ...segment.sort()];
}
