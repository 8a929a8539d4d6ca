/** The two kinds of product on /entertainment, each with its badge. */
export type EntertainmentKind = "manga" | "gaming";

export const ENTERTAINMENT_KIND_LABELS: Record<EntertainmentKind, string> = { manga: "Manga", gaming: "Gaming" };

/**
 * SPEC.md: "Manga" when the sub-category contains Manga, "Gaming" for anything else (video
 * games, consoles, no sub-category). Case is ignored: the seller types sub-categories by hand.
 */
export function entertainmentKind(subCategory: string | null | undefined): EntertainmentKind {
  return subCategory?.toLowerCase().includes("manga") ? "manga" : "gaming";
}
