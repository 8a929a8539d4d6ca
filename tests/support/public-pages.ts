/** Stands for a product page in PUBLIC_PAGES: each suite takes one from /catalog's links. */
export const PRODUCT_PAGE = "PRODUCT";

/** A page that does not exist: the shop's 404 page. */
export const NOT_FOUND_PAGE = "/cette-page-n-existe-pas";

/** Every public page a visitor reaches without an account, the 404 included. */
export const PUBLIC_PAGES = [
  "/",
  "/catalog",
  "/tcg",
  "/tcg?category=cards",
  PRODUCT_PAGE,
  "/accessories",
  "/entertainment",
  "/about",
  "/legal",
  "/contact",
  "/rachat",
  "/cart",
  "/login",
  "/signup",
  "/construction",
  NOT_FOUND_PAGE,
];
