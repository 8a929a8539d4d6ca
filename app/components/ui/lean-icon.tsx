import { createElement, type ReactNode, type SVGProps } from "react";

/** A lucide-react icon module's drawing (`__iconData`): its name, aliases and SVG children. */
export type LucideIconData = {
  name: string;
  node: LucideNode[];
  aliases?: string[];
  size?: number;
};
type LucideNode = [tag: string, attributes: Record<string, string | number>, children?: LucideNode[]];

/** lucide's rule: an icon with children, a role, a title or any aria-* prop names something. */
function namesSomething(props: Record<string, unknown>, children: unknown): boolean {
  if (children) return true;
  return Object.entries(props).some(([name, value]) => (name.startsWith("aria-") || name === "role" || name === "title") && value != null);
}

function draw([tag, attributes, children]: LucideNode, index: number): ReactNode {
  return createElement(tag, { key: index, ...attributes }, children?.map(draw));
}

/**
 * lucide-react's icon as one function component that writes the same <svg> (classes, default
 * attributes, aria-hidden when the icon names nothing). lucide's own is three components deep
 * (two forwardRef and Icon, which reads a context and rebuilds its attributes on every render):
 * the shell alone renders about twenty, on every uncached page and again while it hydrates.
 * The build swaps it in for every `lucide-react` import of the app (vite.config.ts,
 * lucideIconImports).
 */
export function leanIcon(data: LucideIconData) {
  const size = data.size ?? 24;
  const classes = ["lucide", `lucide-${data.name}`, ...(data.aliases ?? []).map((alias) => `lucide-${alias}`)].join(" ");
  function LeanIcon({ className, children, ...props }: SVGProps<SVGSVGElement>) {
    return createElement(
      "svg",
      {
        xmlns: "http://www.w3.org/2000/svg",
        width: 24,
        height: 24,
        viewBox: `0 0 ${size} ${size}`,
        fill: "none",
        stroke: "currentColor",
        strokeWidth: 2,
        strokeLinecap: "round",
        strokeLinejoin: "round",
        "aria-hidden": namesSomething(props, children) ? undefined : "true",
        ...props,
        className: className ? `${classes} ${className}` : classes,
      },
      data.node.map(draw),
      children,
    );
  }
  return LeanIcon;
}
