import { useCallback, useEffect, useRef } from "react";
import { useNavigation, useRevalidator } from "react-router";

/**
 * Reloads the page's data, or, while a navigation is under way, once it has ended. React Router
 * restarts a navigation that a reload interrupts, and a form's redirect was lost that way: the
 * product list after "Ajouter le produit", whose save announces a catalogue change to the
 * page saving it (use-live-updates.ts). Several calls during one navigation make one reload.
 */
export function useIdleRevalidate(): () => void {
  const revalidator = useRevalidator();
  const navigating = useNavigation().state !== "idle";
  const navigatingNow = useRef(navigating);
  const waiting = useRef(false);

  useEffect(() => {
    navigatingNow.current = navigating;
    if (navigating || !waiting.current) return;
    waiting.current = false;
    void revalidator.revalidate();
  }, [navigating, revalidator]);

  return useCallback(() => {
    if (navigatingNow.current) waiting.current = true;
    else void revalidator.revalidate();
  }, [revalidator]);
}
