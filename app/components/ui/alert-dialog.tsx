import { AlertDialog as Primitive } from "radix-ui";
import { type ReactNode, useRef } from "react";
import { restoreFocus } from "~/lib/restore-focus";
import { Button, type ButtonProps } from "./button";

/**
 * A confirmation that interrupts (delete a product): focus goes to "Annuler", Escape cancels,
 * and the page behind cannot be reached until one of the two buttons is chosen. `children`
 * (fields the confirmation needs, such as a tracking number) go between the text and the buttons.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = "Annuler",
  onConfirm,
  busy = false,
  confirmVariant = "destructive",
  size = "md",
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm: () => void;
  busy?: boolean;
  confirmVariant?: ButtonProps["variant"];
  /** "lg" for a confirmation that holds a longer form (a partial refund's articles). */
  size?: "md" | "lg";
  children?: ReactNode;
}) {
  // Opened from a page's state, not a Radix trigger: Radix would leave focus on the body when it
  // closes, so it goes back to what had it (or to the page's heading when that is gone).
  const opener = useRef<Element | null>(null);
  return (
    <Primitive.Root open={open} onOpenChange={onOpenChange}>
      <Primitive.Portal>
        <Primitive.Overlay className="fixed inset-0 z-50 bg-black/60 data-[state=open]:animate-in data-[state=open]:fade-in" />
        <Primitive.Content
          onOpenAutoFocus={() => (opener.current = document.activeElement)}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            restoreFocus(opener.current);
          }}
          className={`fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-border bg-background p-6 shadow-2xl ${size === "lg" ? "max-w-xl" : "max-w-md"}`}>
          <Primitive.Title className="text-lg font-bold">{title}</Primitive.Title>
          <Primitive.Description className="mt-2 text-sm text-muted-foreground">{description}</Primitive.Description>
          {children}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Primitive.Cancel asChild>
              <Button variant="outline">{cancelLabel}</Button>
            </Primitive.Cancel>
            <Primitive.Action asChild>
              <Button
                variant={confirmVariant}
                disabled={busy}
                onClick={(event) => {
                  // The caller closes the dialog once its request is sent.
                  event.preventDefault();
                  onConfirm();
                }}
              >
                {confirmLabel}
              </Button>
            </Primitive.Action>
          </div>
        </Primitive.Content>
      </Primitive.Portal>
    </Primitive.Root>
  );
}
