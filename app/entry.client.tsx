import "~/lib/react-dom-semantics";
import { Suspense, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { startSlicedHydration } from "~/lib/hydrate-later";
import { quietRoutePatches } from "~/lib/quiet-route-patches";

/**
 * Preact renders into `document` as into `<html>`, whose children are the page's `<head>` and
 * `<body>`; the app's root is `<html>` itself. This stands for the document: its only child is
 * `<html>`, which hydration then claims.
 */
function documentAsParent(): Element {
  const html = document.documentElement;
  const parent = {
    nodeType: 1,
    namespaceURI: html.namespaceURI,
    ownerDocument: document,
    get firstChild() {
      return document.documentElement;
    },
    get childNodes() {
      return [document.documentElement];
    },
    insertBefore: (node: Node, before: Node | null) => document.insertBefore(node, before),
    appendChild: (node: Node) => document.appendChild(node),
    removeChild: (node: Node) => document.removeChild(node),
    contains: (node: Node) => document.contains(node),
  };
  return parent as unknown as Element;
}

quietRoutePatches();
// Says the page has come alive, every part of it hydrated: tests and scripts wait for it.
await startSlicedHydration(() => (document.documentElement.dataset.hydrated = ""));
startTransition(() => {
  hydrateRoot(
    documentAsParent(),
    <Suspense>
      <HydratedRouter />
    </Suspense>,
  );
});
