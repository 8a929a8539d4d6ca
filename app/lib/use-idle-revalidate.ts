import { useCallback, useContext, useEffect, useRef } from "react";
import { UNSAFE_DataRouterStateContext, useNavigation, useRevalidator } from "react-router";

/**
 * Reloads the page's data, or, while a navigation is under way, once it has ended. React Router
 * restarts a navigation that a reload interrupts, and a form's redirect was lost that way: the
 * product list after "Ajouter le produit", whose save announces a catalogue change to the
 * page saving it (use-live-updates.ts). Several calls during one navigation make one reload.
 *
 * Nor while the page shows a form's answer (a route action's data): React Router's reload drops
 * it, and a withdrawal's acknowledgement, a sent message or the e-mail test's result vanished
 * when a drop opened or the seller saved a setting. The reload waits for the next navigation.
 */
export function useIdleRevalidate(): () => void {
  const revalidator = useRevalidator();
  const navigating = useNavigation().state !== "idle";
  const showsAnswer = useContext(UNSAFE_DataRouterStateContext)?.actionData != null;
  const busy = navigating || showsAnswer;
  const busyNow = useRef(busy);
  const waiting = useRef(false);

  useEffect(() => {
    busyNow.current = busy;
    if (busy || !waiting.current) return;
    waiting.current = false;
    void revalidator.revalidate();
  }, [busy, revalidator]);

  return useCallback(() => {
    if (busyNow.current) waiting.current = true;
    else void revalidator.revalidate();
  }, [revalidator]);
}
