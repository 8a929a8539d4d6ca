import { useEffect, useEffectEvent, useRef } from "react";
import { useFetcher } from "react-router";
import { type ActionToast, useActionToast } from "./use-action-toast";

/**
 * An admin list's create/edit form: its fetcher (the action's toast shown), `onSaved` called
 * once per saved answer, and its heading, brought into view with the focus while `focus` is true
 * (the form opened from a row's "Modifier" or an "Ajouter").
 */
export function useEditorForm<Answer extends ActionToast & { saved?: unknown }>(onSaved: (saved: NonNullable<Answer["saved"]>) => void, focus: boolean) {
  const fetcher = useFetcher<Answer>();
  useActionToast(fetcher.data);
  const answered = useEffectEvent((saved: NonNullable<Answer["saved"]>) => onSaved(saved));
  const saved = fetcher.state === "idle" ? fetcher.data?.saved : undefined;
  // Once per answer (a new object each time).
  useEffect(() => {
    if (saved) answered(saved as NonNullable<Answer["saved"]>);
  }, [saved, fetcher.data]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!focus) return;
    heading.current?.focus({ preventScroll: true });
    heading.current?.scrollIntoView({ block: "start" });
  }, [focus]);
  return { fetcher, heading };
}
