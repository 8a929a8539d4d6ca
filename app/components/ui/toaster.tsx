import { Toaster as Sonner } from "sonner";
import { useTheme } from "~/lib/theme";

/** Toasts bottom-right, at most 3 visible (DESIGN.md); the theme follows the site's. */
export function Toaster() {
  const { resolved } = useTheme();
  return (
    <Sonner
      theme={resolved}
      position="bottom-right"
      visibleToasts={3}
      duration={5000}
      closeButton
      toastOptions={{
        classNames: {
          toast: "!bg-card !text-card-foreground !border-border !rounded-xl !shadow-xl",
          description: "!text-muted-foreground",
          error: "!bg-destructive !text-destructive-foreground !border-destructive",
        },
      }}
    />
  );
}
