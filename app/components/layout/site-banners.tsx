/** Placeholder (issue 12): the promotion banner and the countdown, from the root loader's `banners`. */
export function SiteBanners() {
  return null;
}
