/**
 * The CGV as a durable medium (L221-13, L213-1 and D213-1 of the Code de la consommation): the
 * text of the /legal page's CGV section, as rendered for the buyer, kept per order as a list of
 * blocks (headings, paragraphs, list items, quotations). Blocks keep what the buyer read (every
 * word, in order, numbered as shown) and drop how it looked (classes, icons), so restyling the
 * page makes no new version while any change of wording does.
 */
export type CgvBlock = { kind: "h2" | "h3" | "h4" | "p" | "li" | "quote"; text: string };

const BLOCK_TAGS = new Set(["h1", "h2", "h3", "h4", "p", "li", "figcaption"]);
// React's static markup: a tag (attribute values never hold a raw ">": React escapes it) or text.
const TOKEN = /<(\/?)([a-zA-Z][\w-]*)([^>]*)>|([^<]+)/g;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decode(text: string): string {
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") return String.fromCodePoint(name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Spaces as a browser shows them: runs of ASCII white space are one space; no-break spaces stay. */
const collapse = (text: string) => text.replace(/[ \t\r\n]+/g, " ").trim();

type List = { ordered: boolean; unmarked: boolean; count: number };

/**
 * The blocks of a piece of React static markup (renderToStaticMarkup): each heading, paragraph,
 * caption and list item is one block; a list item carries the marker the page shows ("• ",
 * "1. ", nothing for a list styled without markers); paragraphs inside a blockquote are
 * quotations; what an <svg> holds (icons) is not text.
 */
export function cgvBlocksFromMarkup(markup: string): CgvBlock[] {
  const blocks: CgvBlock[] = [];
  const lists: List[] = [];
  let current: { kind: CgvBlock["kind"]; text: string } | null = null;
  let quoteDepth = 0;
  let svgDepth = 0;
  const flush = () => {
    const text = current ? collapse(current.text) : "";
    if (current && text) blocks.push({ kind: current.kind, text });
    current = null;
  };
  for (const [, closing, rawTag, attributes, text] of markup.matchAll(TOKEN)) {
    if (text !== undefined) {
      if (svgDepth === 0 && current) current.text += decode(text);
      continue;
    }
    const tag = rawTag!.toLowerCase();
    const selfClosing = attributes!.trimEnd().endsWith("/");
    if (tag === "svg") {
      if (!selfClosing) svgDepth += closing ? -1 : 1;
      continue;
    }
    if (svgDepth > 0) continue;
    if (tag === "br" && current) current.text += " ";
    if (tag === "blockquote") quoteDepth += closing ? -1 : 1;
    if (tag === "ul" || tag === "ol") {
      if (closing) lists.pop();
      else lists.push({ ordered: tag === "ol", unmarked: /\blist-none\b/.test(attributes!), count: 0 });
      continue;
    }
    if (!BLOCK_TAGS.has(tag)) continue;
    flush();
    if (closing) continue;
    if (tag === "li") {
      const list = lists.at(-1);
      const marker = !list || list.unmarked ? "" : list.ordered ? `${++list.count}. ` : "• ";
      current = { kind: "li", text: marker };
    } else if (tag === "figcaption") current = { kind: "h4", text: "" };
    else if (tag === "p") current = { kind: quoteDepth > 0 ? "quote" : "p", text: "" };
    else current = { kind: tag === "h1" ? "h2" : (tag as "h2" | "h3" | "h4"), text: "" };
  }
  flush();
  return blocks;
}

/** What the version's hash is taken over: the blocks, in one canonical serialisation. */
export function canonicalCgv(blocks: readonly CgvBlock[]): string {
  return JSON.stringify(blocks.map(({ kind, text }) => [kind, text]));
}

/** The version as people read it: the hash's first 8 hex digits. */
export function cgvVersionLabel(hash: string): string {
  return hash.slice(0, 8);
}

/** The PDF's file name, in the e-mail and when downloaded. */
export function cgvFileName(hash: string): string {
  return `CGV-${cgvVersionLabel(hash)}.pdf`;
}

/** Where a version's PDF is read: public, like the /legal page it was rendered from. */
export function cgvPath(hash: string): string {
  return `/cgv/${hash}.pdf`;
}

export const CGV_HASH = /^[0-9a-f]{64}$/;
