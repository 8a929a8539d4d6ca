import { cn } from "~/lib/utils";
import { Link } from "react-router";

/** The shop's mark: a foil-gold card with the shop name beside it. */
export function ShopLogo({ name, place, wordmarkClassName }: { name: string; place: "header" | "footer"; wordmarkClassName?: string }) {
  // One id per logo, named after its place: the header and the footer each draw one.
  const foil = `logo-foil-${place}`;
  return (
    <Link to="/" className="flex min-h-11 items-center gap-2 rounded-lg pr-2 font-extrabold tracking-tight" aria-label={`${name}, accueil`}>
      <svg viewBox="0 0 24 32" className="h-7 w-5" aria-hidden="true">
        <defs>
          <linearGradient id={foil} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#fde68a" />
            <stop offset="0.55" stopColor="#f59e0b" />
            <stop offset="1" stopColor="#67e8f9" />
          </linearGradient>
        </defs>
        <rect x="1" y="1" width="22" height="30" rx="3.5" fill={`url(#${foil})`} />
        <circle cx="12" cy="14" r="5" fill="none" stroke="#0b1120" strokeWidth="2" />
        <path d="M1.5 14h5.5M17 14h5.5" stroke="#0b1120" strokeWidth="2" />
      </svg>
      <span className={cn("text-lg", wordmarkClassName)}>{name}</span>
    </Link>
  );
}
