import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "~/lib/utils";

export const badgeVariants = cva(
  "inline-flex items-center gap-1 rounded-md px-2 py-0.5 text-xs font-semibold leading-5 whitespace-nowrap",
  {
    variants: {
      tone: {
        accent: "bg-primary text-primary-foreground",
        info: "bg-accent/15 text-accent ring-1 ring-inset ring-accent/30",
        neutral: "bg-muted text-muted-foreground ring-1 ring-inset ring-border",
        success: "bg-success/15 text-success ring-1 ring-inset ring-success/30",
        warning: "bg-warning/15 text-warning ring-1 ring-inset ring-warning/40",
        destructive: "bg-destructive text-destructive-foreground",
      },
    },
    defaultVariants: { tone: "neutral" },
  },
);

export function Badge({ className, tone, ...props }: ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
