/** Placeholder (issue 12): the active site messages of this page's location, from the root loader's `siteMessages`. */
export function SiteMessages() {
  return null;
}
