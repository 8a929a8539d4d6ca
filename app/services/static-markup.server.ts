import type { ReactElement } from "react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";

/**
 * A component tree rendered to HTML on the server, inside a router (their <Link>s need one):
 * what a page shows without shipping the components' code (components/ui/server-markup.tsx), and
 * what the CGV's versions are read from.
 */
export function renderStaticMarkup(element: ReactElement): string {
  return renderToStaticMarkup(createElement(MemoryRouter, null, element));
}
