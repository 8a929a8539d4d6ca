import { Camera, Radio, Share2, Video } from "lucide-react";
import type { ShopIdentity } from "~/lib/shop";
import { cn } from "~/lib/utils";

const ICONS: Record<string, typeof Camera> = { Instagram: Camera, TikTok: Video, Whatnot: Radio };

export function SocialIcon({ label, className }: { label: string; className?: string }) {
  const Icon = ICONS[label] ?? Share2;
  return <Icon className={className} aria-hidden="true" />;
}

/** The shop's social pages, opening in a new tab: labelled buttons, or icons only. */
export function SocialLinks({
  socials,
  label,
  iconsOnly = false,
  className,
}: {
  socials: ShopIdentity["socials"];
  label: string;
  iconsOnly?: boolean;
  className?: string;
}) {
  return (
    <ul className={cn("flex flex-wrap items-center gap-2", className)} aria-label={label}>
      {socials.map((social) => (
        <li key={social.url}>
          <a
            href={social.url}
            target="_blank"
            rel="noopener noreferrer"
            className={cn(
              "inline-flex items-center rounded-lg border border-border hover:bg-muted",
              iconsOnly ? "size-11 justify-center" : "min-h-11 gap-2 px-3 text-sm font-medium",
            )}
            aria-label={iconsOnly ? `${social.label} (nouvelle fenêtre)` : undefined}
          >
            <SocialIcon label={social.label} className={iconsOnly ? "size-5" : "size-4"} />
            {iconsOnly ? null : (
              <>
                {social.label}
                <span className="sr-only"> (nouvelle fenêtre)</span>
              </>
            )}
          </a>
        </li>
      ))}
    </ul>
  );
}
