import { AlertTriangle, CheckCircle2, Info } from "lucide-react";
import type { ReactNode, Ref } from "react";
import { cn } from "~/lib/utils";

const TONES = {
  error: { icon: AlertTriangle, className: "border-destructive/50 bg-destructive/10 text-foreground [&_svg]:text-destructive" },
  success: { icon: CheckCircle2, className: "border-success/40 bg-success/10 text-foreground [&_svg]:text-success" },
  info: { icon: Info, className: "border-accent/40 bg-accent/10 text-foreground [&_svg]:text-accent" },
} as const;

/** A message in the page: errors are announced at once (role=alert), the rest politely. */
export function Alert({
  tone = "info",
  title,
  children,
  className,
  focusRef,
}: {
  tone?: keyof typeof TONES;
  title: string;
  children?: ReactNode;
  className?: string;
  /** Makes the message focusable by script (not by Tab), to take the focus there. */
  focusRef?: Ref<HTMLDivElement>;
}) {
  const { icon: Icon, className: toneClass } = TONES[tone];
  return (
    <div
      ref={focusRef}
      tabIndex={focusRef ? -1 : undefined}
      role={tone === "error" ? "alert" : "status"}
      className={cn("flex gap-3 rounded-xl border p-4 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring", toneClass, className)}
    >
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div>
        <p className="font-semibold">{title}</p>
        {children ? <div className="mt-1 text-muted-foreground">{children}</div> : null}
      </div>
    </div>
  );
}
