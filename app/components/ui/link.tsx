import type { ComponentProps } from "react";

export type LinkProps = Omit<ComponentProps<"a">, "href"> & {
  /** A path of the shop, from its root ("/catalog?page=2"). */
  to: string;
  /** Keep the scroll position (a filter or a page of the same list). */
  preventScrollReset?: boolean;
  replace?: boolean;
};

/**
 * A link inside the shop: a plain <a>, which the root's useLinkNavigation() follows without
 * reloading the page. React Router's <Link> resolves its path through the route tree and sets
 * up its own click handler, three hooks deep, for each link: about 28 µs of server CPU each, and
 * a listing renders fifty of them on every uncached render (docs/performance.md). Here the
 * server writes attributes and the browser pays once. data-discover lets React Router fetch the
 * target's route module ahead, as its own links do.
 */
export function Link({ to, preventScrollReset, replace, ...props }: LinkProps) {
  return (
    <a
      {...props}
      href={to}
      data-discover="true"
      data-link=""
      data-prevent-scroll-reset={preventScrollReset ? "" : undefined}
      data-replace={replace ? "" : undefined}
    />
  );
}
