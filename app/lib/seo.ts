import type { MetaDescriptor } from "react-router";
import { sliceText } from "~/domain/text-rules";
import type { ShopIdentity } from "./shop";

export const META_DESCRIPTION_LENGTH = 155;

/** The first 155 characters of a text, on one line (SPEC.md: product meta description). */
export function metaDescription(text: string): string {
  return sliceText(text.replace(/\s+/g, " ").trim(), META_DESCRIPTION_LENGTH);
}

/** What the root loader gives every meta function. */
export type SeoRoot = { shop: ShopIdentity; publicUrl: string };

export function seoRoot(matches: readonly ({ id: string; loaderData?: unknown } | undefined)[]): SeoRoot {
  const root = matches.find((m) => m?.id === "root")?.loaderData as Partial<SeoRoot> | undefined;
  return {
    shop: root?.shop ?? ({ name: "Comptoir" } as ShopIdentity),
    publicUrl: root?.publicUrl ?? "",
  };
}

export function absoluteUrl(publicUrl: string, path: string): string {
  if (/^https?:\/\//.test(path)) return path;
  return `${publicUrl.replace(/\/$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
}

/**
 * Title, description, canonical URL and Open Graph tags of a page. `path` is the canonical
 * path with only the query parameters that change the content.
 */
export function pageMeta(
  root: SeoRoot,
  page: {
    title: string;
    description: string;
    path: string;
    image?: string | null;
    type?: "website" | "product";
    noindex?: boolean;
  },
): MetaDescriptor[] {
  const url = absoluteUrl(root.publicUrl, page.path);
  const description = metaDescription(page.description);
  const tags: MetaDescriptor[] = [
    { title: page.title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: root.shop.name },
    { property: "og:locale", content: "fr_FR" },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: page.title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: page.image ? "summary_large_image" : "summary" },
  ];
  if (page.image) tags.push({ property: "og:image", content: absoluteUrl(root.publicUrl, page.image) });
  if (page.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}
