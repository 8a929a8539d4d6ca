import { cn } from "~/lib/utils";

/** The Commission's consumer page on guarantees, in French ("L'Europe est à vous"). */
export const YOUR_EUROPE_GUARANTEES_URL = "https://europa.eu/youreurope/citizens/consumers/shopping/guarantees-returns/index_fr.htm";

/**
 * The harmonised notice on the legal guarantee of conformity (Directive 2011/83/EU art. 22a as
 * amended by Directive (EU) 2024/825; design and content: Commission Implementing Regulation (EU)
 * 2025/1960, applicable from 27 September 2026), shown in the cart before the order and in the CGV.
 *
 * NOT the official artwork: the annex's French wording and graphic files could not be read from
 * here (decision 044). What follows keeps the elements the regulation's recitals name: the legal
 * guarantee, its minimum of two years, the free repair or replacement then price reduction or
 * refund, that national law may give longer, that sellers and producers may add commercial
 * guarantees, and the link to the Commission's page; drawn in the EU's blue and yellow, in colour
 * as required online. The obligation applies since 27 September 2026: replace this with the
 * Commission's French RGB file and wording as soon as they can be fetched (blocked here: no network).
 */
export function HarmonisedGuaranteeNotice({ className }: { className?: string }) {
  return (
    <aside
      aria-labelledby="harmonised-guarantee-title"
      data-testid="harmonised-guarantee-notice"
      className={cn("flex flex-col gap-3 rounded-2xl border-2 border-[#003399] sm:flex-row sm:gap-4 bg-white p-4 text-sm leading-6 text-[#1a1a1a]", className)}
    >
      <TwoYearsPictogram />
      <div>
        {/* Not a heading: it sits in the cart and inside a CGV article, whose outlines it would break. */}
        <p id="harmonised-guarantee-title" className="text-base font-bold text-[#003399]">
          Garantie légale de conformité&nbsp;: 2 ans minimum
        </p>
        <p className="mt-1">
          Si le bien est défectueux ou n'est pas conforme à ce qui a été annoncé, le vendeur doit le réparer ou le remplacer gratuitement pendant au moins 2 ans
          à compter de la livraison&nbsp;; à défaut, vous pouvez obtenir une réduction du prix ou être remboursé. Le droit national peut prévoir une durée plus
          longue.
        </p>
        <p className="mt-1">Les vendeurs et les producteurs peuvent proposer en plus des garanties commerciales.</p>
        <p className="mt-1">
          {/* Its own blue, over the CGV article's link colour (the box stays white in the dark theme). */}
          <a href={YOUR_EUROPE_GUARANTEES_URL} className="font-semibold text-[#003399]! underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[#003399]">
            Vos droits dans l'Union européenne (L'Europe est à vous)
          </a>
        </p>
      </div>
    </aside>
  );
}

/** A blue disc with the twelve yellow stars around "2 ans"; the heading says it in words. */
function TwoYearsPictogram() {
  const stars = Array.from({ length: 12 }, (_, i) => {
    const angle = (i * Math.PI) / 6;
    return { x: 32 + 24 * Math.sin(angle), y: 32 - 24 * Math.cos(angle) };
  });
  return (
    <svg viewBox="0 0 64 64" className="size-16 shrink-0" aria-hidden="true" focusable="false">
      <circle cx="32" cy="32" r="32" fill="#003399" />
      {stars.map((star) => (
        <circle key={`${star.x.toFixed(1)}-${star.y.toFixed(1)}`} cx={star.x} cy={star.y} r="2.2" fill="#FFCC00" />
      ))}
      <text x="32" y="34" textAnchor="middle" fontSize="20" fontWeight="800" fill="#fff" fontFamily="inherit">
        2
      </text>
      <text x="32" y="45" textAnchor="middle" fontSize="8" fontWeight="700" fill="#fff" fontFamily="inherit">
        ANS
      </text>
    </svg>
  );
}
