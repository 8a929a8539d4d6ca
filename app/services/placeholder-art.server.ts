/**
 * Artwork for the sample catalogue, drawn as SVG (no text, so no font is needed) and
 * rasterised by sharp. Each kind of product gets a recognisable silhouette.
 */
export type ArtKind = "single" | "booster" | "display" | "bundle" | "tcg-other" | "accessory" | "binder" | "manga" | "game";

function hue(seed: string): number {
  let h = 0;
  for (const c of seed) h = (h * 31 + c.charCodeAt(0)) % 360;
  return h;
}

export function artworkSvg(kind: ArtKind, seed: string): { svg: string; width: number; height: number } {
  const h = hue(seed);
  const c1 = `hsl(${h} 70% 55%)`;
  const c2 = `hsl(${(h + 50) % 360} 75% 40%)`;
  const c3 = `hsl(${(h + 180) % 360} 60% 70%)`;
  const defs = `<defs>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient>
    <linearGradient id="foil" x1="0" y1="0" x2="1" y2="0.6"><stop offset="0" stop-color="#fde68a" stop-opacity=".9"/><stop offset=".5" stop-color="#f0abfc" stop-opacity=".6"/><stop offset="1" stop-color="#67e8f9" stop-opacity=".85"/></linearGradient>
    <radialGradient id="bg" cx=".5" cy=".4" r=".8"><stop offset="0" stop-color="#1e293b"/><stop offset="1" stop-color="#0b1120"/></radialGradient>
  </defs>`;
  if (kind === "single") {
    const w = 700;
    const hgt = 980;
    return {
      width: w,
      height: hgt,
      svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${hgt}" viewBox="0 0 ${w} ${hgt}">${defs}
        <rect x="10" y="10" width="680" height="960" rx="36" fill="#facc15"/>
        <rect x="40" y="40" width="620" height="900" rx="20" fill="url(#g)"/>
        <rect x="70" y="110" width="560" height="400" rx="10" fill="url(#foil)"/>
        <circle cx="350" cy="310" r="120" fill="${c3}" opacity=".9"/>
        <circle cx="350" cy="310" r="60" fill="#fff" opacity=".55"/>
        <rect x="70" y="60" width="360" height="34" rx="8" fill="#fff" opacity=".75"/>
        <circle cx="600" cy="77" r="20" fill="${c3}"/>
        <rect x="70" y="550" width="560" height="70" rx="10" fill="#fff" opacity=".25"/>
        <rect x="70" y="645" width="560" height="70" rx="10" fill="#fff" opacity=".18"/>
        <rect x="70" y="740" width="560" height="70" rx="10" fill="#fff" opacity=".12"/>
        <rect x="70" y="860" width="220" height="24" rx="6" fill="#fff" opacity=".5"/>
      </svg>`,
    };
  }
  const size = 900;
  const frame = (inner: string) => ({
    width: size,
    height: size,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">${defs}
      <rect width="${size}" height="${size}" fill="url(#bg)"/>${inner}</svg>`,
  });
  switch (kind) {
    case "booster":
      return frame(`<path d="M300 120 l20 -20 l20 20 l20 -20 l20 20 l20 -20 l20 20 l20 -20 l20 20 l20 -20 l20 20 l20 -20 l20 20 l20 -20 V780 l-20 20 l-20 -20 l-20 20 l-20 -20 l-20 20 l-20 -20 l-20 20 l-20 -20 l-20 20 l-20 -20 l-20 20 l-20 -20 l-20 20 Z" fill="url(#g)"/>
        <rect x="330" y="250" width="240" height="300" rx="20" fill="url(#foil)"/>
        <circle cx="450" cy="400" r="80" fill="${c3}"/>
        <rect x="330" y="620" width="240" height="40" rx="10" fill="#fff" opacity=".6"/>`);
    case "display":
      return frame(`<path d="M170 330 L450 230 L730 330 L450 430 Z" fill="${c3}"/>
        <path d="M170 330 L450 430 L450 760 L170 660 Z" fill="url(#g)"/>
        <path d="M730 330 L450 430 L450 760 L730 660 Z" fill="${c2}"/>
        <path d="M230 420 L400 480 L400 640 L230 580 Z" fill="url(#foil)"/>
        <path d="M500 480 L680 420 L680 520 L500 580 Z" fill="#fff" opacity=".3"/>`);
    case "bundle":
      return frame(`<rect x="190" y="300" width="520" height="440" rx="18" fill="url(#g)"/>
        <rect x="170" y="230" width="560" height="110" rx="18" fill="${c2}"/>
        <rect x="420" y="230" width="60" height="510" fill="url(#foil)"/>
        <circle cx="450" cy="520" r="110" fill="${c3}" opacity=".85"/>
        <circle cx="450" cy="520" r="45" fill="#fff" opacity=".6"/>`);
    case "tcg-other":
      return frame(`<g transform="rotate(-8 450 450)"><rect x="260" y="160" width="380" height="560" rx="26" fill="${c2}"/></g>
        <rect x="270" y="170" width="380" height="560" rx="26" fill="url(#g)"/>
        <rect x="300" y="200" width="320" height="500" rx="14" fill="none" stroke="url(#foil)" stroke-width="10"/>
        <ellipse cx="460" cy="450" rx="110" ry="150" fill="${c3}" opacity=".85"/>
        <ellipse cx="460" cy="450" rx="50" ry="70" fill="#fff" opacity=".5"/>`);
    case "accessory":
      return frame(`<rect x="220" y="170" width="360" height="520" rx="20" fill="url(#g)" opacity=".55" transform="rotate(-10 400 430)"/>
        <rect x="290" y="190" width="360" height="520" rx="20" fill="url(#g)" opacity=".8"/>
        <rect x="340" y="230" width="360" height="520" rx="20" fill="url(#foil)" opacity=".9"/>
        <rect x="340" y="230" width="360" height="80" rx="20" fill="#fff" opacity=".35"/>`);
    case "binder":
      return frame(`<rect x="200" y="170" width="500" height="580" rx="30" fill="url(#g)"/>
        <rect x="200" y="170" width="70" height="580" rx="20" fill="${c2}"/>
        ${[0, 1, 2].map((r) => [0, 1, 2].map((c) => `<rect x="${310 + c * 125}" y="${230 + r * 160}" width="105" height="140" rx="10" fill="url(#foil)" opacity=".8"/>`).join("")).join("")}`);
    case "manga":
      return frame(`<rect x="250" y="140" width="400" height="620" rx="10" fill="#f8fafc"/>
        <rect x="250" y="140" width="400" height="620" rx="10" fill="url(#g)" opacity=".9"/>
        <rect x="250" y="140" width="40" height="620" fill="${c2}"/>
        <circle cx="480" cy="400" r="140" fill="${c3}"/>
        <path d="M380 560 L580 560 L480 380 Z" fill="#fff" opacity=".6"/>
        <rect x="320" y="640" width="260" height="50" rx="8" fill="#fff" opacity=".7"/>`);
    case "game":
      return frame(`<rect x="230" y="110" width="440" height="680" rx="24" fill="#dc2626"/>
        <rect x="260" y="200" width="380" height="560" rx="10" fill="url(#g)"/>
        <circle cx="450" cy="430" r="120" fill="url(#foil)"/>
        <rect x="300" y="130" width="300" height="46" rx="12" fill="#fff" opacity=".9"/>`);
  }
}
