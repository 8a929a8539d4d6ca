import { X } from "lucide-react";
import { Dialog } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "~/lib/utils";

/** A panel sliding in from a side of the screen (mobile menu, cart). */
export const Sheet = Dialog.Root;
export const SheetTrigger = Dialog.Trigger;
export const SheetClose = Dialog.Close;

export function SheetContent({
  side = "left",
  title,
  description,
  className,
  children,
  ...props
}: ComponentProps<typeof Dialog.Content> & { side?: "left" | "right"; title: string; description?: string; children: ReactNode }) {
  return (
    <Dialog.Portal>
      <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 data-[state=open]:animate-in data-[state=open]:fade-in" />
      <Dialog.Content
        className={cn(
          "fixed inset-y-0 z-50 flex w-[85vw] max-w-sm flex-col gap-4 overflow-y-auto border-border bg-background p-5 shadow-2xl",
          side === "left" ? "left-0 border-r" : "right-0 border-l",
          className,
        )}
        {...(description ? {} : { "aria-describedby": undefined })}
        {...props}
      >
        <div className="flex items-center justify-between">
          <Dialog.Title className="text-lg font-bold">{title}</Dialog.Title>
          <Dialog.Close className="inline-flex size-11 items-center justify-center rounded-lg hover:bg-muted" aria-label="Fermer">
            <X className="size-5" aria-hidden="true" />
          </Dialog.Close>
        </div>
        {description ? <Dialog.Description className="sr-only">{description}</Dialog.Description> : null}
        {children}
      </Dialog.Content>
    </Dialog.Portal>
  );
}
