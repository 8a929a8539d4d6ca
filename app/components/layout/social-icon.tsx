import { Camera, Radio, Share2, Video } from "lucide-react";

const ICONS: Record<string, typeof Camera> = { Instagram: Camera, TikTok: Video, Whatnot: Radio };

export function SocialIcon({ label, className }: { label: string; className?: string }) {
  const Icon = ICONS[label] ?? Share2;
  return <Icon className={className} aria-hidden="true" />;
}
