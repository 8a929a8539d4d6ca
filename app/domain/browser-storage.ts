/**
 * The names and lifetimes of what the shop keeps in the browser, beside their code: the privacy
 * notice's cookie table (domain/privacy-notice.ts) is built from these, so a name or a lifetime
 * changed here changes the notice too. (The drops' cookies: domain/drop-cookies.ts and
 * domain/drop-identity.ts; the account hint: lib/viewer.ts.)
 */

/** better-auth's session cookie ("__Secure-" before it over HTTPS) and its lifetime. */
export const SESSION_COOKIE = "better-auth.session_token";
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
/** better-auth's cookie between an admin's right password and their second factor's code. */
export const TWO_FACTOR_COOKIE = "better-auth.two_factor";
export const TWO_FACTOR_COOKIE_SECONDS = 10 * 60;

/** The orders this browser started, for /merci (lib/receipt-cookie.server.ts). */
export const RECEIPT_COOKIE = "comptoir_receipt";
/** How long after its checkout the browser that paid sees the order on /merci. */
export const RECEIPT_VIEW_MS = 2 * 60 * 60 * 1000;

/** A drop waiting room's ticket, per product (server/drop-queue-endpoint.ts). */
export const DROP_TICKET_SECONDS = 24 * 60 * 60;

/** The header's hint of who is signed in (lib/viewer.ts): as long as the session. */
export const VIEWER_COOKIE = "comptoir_viewer";

/** localStorage: the theme chosen (lib/theme.ts). */
export const THEME_STORAGE_KEY = "theme";
/** localStorage: the cart (SPEC.md's format), its delivery choice and its discount code. */
export const CART_KEY = "cart";
export const CART_DELIVERY_KEY = "cart-delivery";
export const CART_CODE_KEY = "cart-discount-code";

/** sessionStorage: the order this tab went to pay for (lib/pending-checkout.ts). */
export const PENDING_CHECKOUT_KEY = "comptoir.pending-checkout";
/** sessionStorage: the information messages closed in this tab (components/layout/site-messages.tsx). */
export const DISMISSED_MESSAGES_KEY = "comptoir.dismissed-messages";
/** sessionStorage: where each page of this tab was scrolled, for Back and Forward (React Router's ScrollRestoration, root.tsx). */
export const SCROLL_POSITIONS_KEY = "react-router-scroll-positions";
/** sessionStorage: the account hint was checked with the server in this browser session (lib/viewer.ts). */
export const VIEWER_CHECKED_KEY = "comptoir_viewer_checked";
