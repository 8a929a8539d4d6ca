import { type ReactNode, useEffect } from "react";
import {
  type ErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLoaderData,
  useLocation,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { getPublicBanners } from "./services/site-content.server";
import { listActiveSiteMessages } from "./services/site-messages.server";
import { getShopIdentity } from "./services/shop-identity.server";
import stylesheet from "./app.css?url";
import { SiteFooter } from "./components/layout/site-footer";
import { SiteHeader } from "./components/layout/site-header";
import { NavigationProgress } from "./components/layout/navigation-progress";
import { NotFound } from "./components/layout/not-found";
import { SiteBanners } from "./components/layout/site-banners";
import { SiteMessages } from "./components/layout/site-messages";
import { NoticeToast } from "./components/layout/notice-toast";
import { Toaster } from "./components/ui/toaster";
import { NO_FORM_ON_THIS_PAGE } from "./lib/http";
import { useNonce } from "./lib/nonce";
import { recoverFocus, useFocusOnNewPage } from "./lib/restore-focus";
import { useReleaseAbandonedCheckout } from "./lib/pending-checkout";
import { useLiveUpdates } from "./lib/use-live-updates";
import { SCROLL_POSITIONS_KEY } from "./domain/browser-storage";
import { EARLY_PRESS_SCRIPT } from "./lib/early-press";
import { THEME_SCRIPT } from "./lib/theme";
import { VIEWER_SCRIPT, useViewerSync } from "./lib/viewer";

export const links: Route.LinksFunction = () => [
  // precedence: React puts it first in <head>, before the script preloads, so the browser asks for it first.
  { rel: "stylesheet", href: stylesheet, precedence: "default" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/**
 * The same for every visitor: public pages are one cached HTML for all (server/page-cache.ts).
 * Who is signed in is filled in by the browser (app/lib/viewer.ts), never here.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const now = new Date();
  // Before any query: a change heard after this moment may be missing from the page.
  const renderedAt = now.getTime();
  const [banners, siteMessages, { identity }] = await Promise.all([
    getPublicBanners(context.db, now),
    listActiveSiteMessages(context.db),
    getShopIdentity(context.db, context.shop.legal),
  ]);
  return {
    // The contact address pages show: the saved identity's (SHOP_EMAIL only seeds it), read with
    // the page so a cached page never keeps an older one; empty when not given.
    shop: { ...context.shop, email: identity.email },
    publicUrl: context.publicUrl,
    paymentProvider: context.payments.name,
    banners,
    siteMessages,
    renderedAt,
  };
}

/** Only for the error boundary below: a route's own meta replaces this one on its pages. */
export const meta: Route.MetaFunction = ({ error }) =>
  error
    ? [{ title: isRouteErrorResponse(error) && error.status === 404 ? "Page introuvable" : "Une erreur est survenue" }, { name: "robots", content: "noindex" }]
    : [];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Says the page has come alive: tests and scripts wait for it.
  useEffect(() => void (document.documentElement.dataset.hydrated = ""), []);
  const data = useRouteLoaderData<typeof loader>("root");
  const year = new Date().getFullYear();
  return (
    // "dark" is the default; THEME_SCRIPT corrects it from localStorage before the first paint,
    // VIEWER_SCRIPT marks a signed-in visitor (data-viewer) from the hint cookie.
    <html lang="fr" className="dark" style={{ colorScheme: "dark" }} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b1120" />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: `${THEME_SCRIPT};${VIEWER_SCRIPT};${EARLY_PRESS_SCRIPT}` }} />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#contenu"
          className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-primary focus:px-4 focus:py-2 focus:text-primary-foreground"
        >
          Aller au contenu
        </a>
        {data ? <SiteHeader shopName={data.shop.name} paymentProvider={data.paymentProvider} /> : null}
        {data ? <SiteBanners /> : null}
        {data ? <SiteMessages /> : null}
        <main id="contenu" className="flex-1">
          {children}
        </main>
        {data ? <SiteFooter shop={data.shop} year={year} /> : null}
        <NavigationProgress />
        <NoticeToast />
        <Toaster />
        <ScrollRestoration nonce={nonce} storageKey={SCROLL_POSITIONS_KEY} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { pathname } = useLocation();
  // The admin's pages hear order changes too (the dashboard's figures, the order list).
  useLiveUpdates(useLoaderData<typeof loader>().renderedAt, pathname.startsWith("/admin"));
  useViewerSync();
  useReleaseAbandonedCheckout();
  useEffect(recoverFocus, []);
  useFocusOnNewPage(pathname);
  return <Outlet />;
}

/**
 * Why a request was refused, when the shop worded it (a post too large or unreadable:
 * lib/request-input.server.ts). React Router's own refusals (`internal`) carry an English
 * message for developers: a post to a page without a form gets its French meaning instead.
 */
function refusalReason(error: ErrorResponse): string | null {
  if ((error as ErrorResponse & { internal?: boolean }).internal) return error.status === 405 ? NO_FORM_ON_THIS_PAGE : null;
  return typeof error.data === "string" ? error.data : null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFound />;
  }
  if (typeof document !== "undefined") console.error(error);
  const refusal = isRouteErrorResponse(error) && error.status >= 400 && error.status < 500 ? refusalReason(error) : null;
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center">
      <p className="text-sm font-semibold uppercase tracking-widest text-destructive">Erreur</p>
      <h1 className="mt-3 text-3xl font-extrabold">Une erreur est survenue</h1>
      <p className="mt-4 text-muted-foreground">
        {refusal ?? "Nous n'avons pas pu afficher cette page. Réessayez dans un instant\u00a0; si le problème persiste, écrivez-nous."}
      </p>
      <a href="/" className="mt-8 inline-flex h-11 items-center rounded-lg bg-primary px-5 font-semibold text-primary-foreground">
        Retour à l'accueil
      </a>
    </section>
  );
}
