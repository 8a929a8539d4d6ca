import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter, createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { Hero } from "~/components/home/hero";
import type { ShopIdentity } from "~/lib/shop";
import { CountdownBanner } from "./countdown-banner";
import { PromotionBanner } from "./promotion-banner";

const MARKUP = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;
const ESCAPED = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;";

/** The seller's texts are shown as text: never an element, never a script. */
function expectText(html: string) {
  expect(html).toContain(ESCAPED);
  expect(html).not.toContain("<img");
  expect(html).not.toContain("<script");
}

describe("the seller's texts in the banners", () => {
  it("promotion: message and code", () => {
    const html = renderToStaticMarkup(
      createElement(PromotionBanner, {
        promotion: { code: MARKUP, message: MARKUP, position: "banner", percentOff: 15, expiresAt: "2026-03-14T17:00:00.000Z" },
      }),
    );
    expect(html.split(ESCAPED)).toHaveLength(3);
    expectText(html);
    expect(html).toContain("jusqu&#x27;au samedi 14 mars à 18:00");
  });

  it("countdown: message and category; dashes until the browser's clock is known", async () => {
    const Stub = createRoutesStub([
      {
        path: "/",
        Component: () =>
          createElement(CountdownBanner, {
            countdown: { message: MARKUP, targetAt: "2026-03-14T17:00:00.000Z", location: "home", hiddenCategoryLabel: MARKUP },
          }),
      },
    ]);
    const html = renderToStaticMarkup(createElement(Stub));
    expect(html.split(ESCAPED)).toHaveLength(3);
    expectText(html);
    expect(html.match(/>--</g)).toHaveLength(4);
    expect(html).toContain('role="timer"');
  });

  it("hero banner: message and code, in both presentations", () => {
    const shop = { name: "Comptoir", socials: [] } as unknown as ShopIdentity;
    for (const showPromoVersion of [1, 2] as const) {
      const html = renderToStaticMarkup(
        createElement(MemoryRouter, null, createElement(Hero, { shop, banner: { isActive: true, message: MARKUP, promoCode: MARKUP, showPromoVersion } })),
      );
      expect(html.split(ESCAPED)).toHaveLength(3);
      expectText(html);
    }
  });
});
