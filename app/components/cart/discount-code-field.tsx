import { TicketPercent, X } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { formatEuros } from "~/domain/money";
import { forgetDiscountCode } from "~/lib/cart-store";
import type { useDiscountPreview } from "./use-discount-preview";

const EMPTY_CODE = "Saisissez un code promo.";

/**
 * "Code promo" in the cart's summary: type a code and apply it (the server says what it takes
 * off, or why not, in French under the field), or take the applied code off. A refusal at the
 * checkout itself (the code ran out meanwhile) lands here too, with the focus.
 */
export function DiscountCodeField({ discount, disabled }: { discount: ReturnType<typeof useDiscountPreview>; disabled: boolean }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const [typed, setTyped] = useState("");
  const [emptyTried, setEmptyTried] = useState(false);
  const [shownRefusal, setShownRefusal] = useState(discount.refusal);
  const { code, refusal, line, checking } = discount;

  // A refusal puts the refused code back in the field, to correct or retry.
  if (refusal !== shownRefusal) {
    setShownRefusal(refusal);
    if (refusal) setTyped(refusal.code);
  }
  useEffect(() => {
    if (refusal?.fromCheckout) input.current?.focus();
  }, [refusal]);

  // Focus follows the control that replaces the one used: "Retirer" after applying, the field after removing.
  const applied = code !== null;
  const wasApplied = useRef(applied);
  useEffect(() => {
    if (applied === wasApplied.current) return;
    wasApplied.current = applied;
    const owner = applied ? input.current : removeButton.current;
    // Only when the focus was on what disappeared (not when another tab changed the code).
    if (document.activeElement === document.body || document.activeElement === owner) (applied ? removeButton : input).current?.focus();
  }, [applied]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = typed.trim();
    setEmptyTried(!value);
    if (value) discount.apply(value);
    else input.current?.focus();
  }

  const error = code !== null ? undefined : emptyTried ? EMPTY_CODE : refusal?.message;
  return (
    <div className="flex flex-col gap-1.5">
      {applied ? (
        <div className="flex items-center justify-between gap-2 rounded-xl border border-success/40 bg-success/10 py-1 pr-1 pl-3">
          <span className="flex min-w-0 items-center gap-2 text-sm">
            <TicketPercent className="size-4 shrink-0 text-success" aria-hidden="true" />
            {/* Wraps rather than overflows: a code may be 32 characters long. */}
            <span className="min-w-0 [overflow-wrap:anywhere]">
              Code <strong className="font-semibold tracking-wide">{code}</strong> appliqué
            </span>
          </span>
          <Button
            ref={removeButton}
            type="button"
            variant="ghost"
            onClick={forgetDiscountCode}
            disabled={disabled}
            aria-label={`Retirer le code promo ${code}`}
            className="shrink-0"
          >
            <X aria-hidden="true" /> Retirer
          </Button>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="flex flex-col gap-1.5">
          <label htmlFor={id} className="text-sm font-medium">
            Code promo
          </label>
          <div className="flex gap-2">
            <Input
              ref={input}
              id={id}
              name="code"
              value={typed}
              onChange={(event) => {
                setTyped(event.target.value);
                setEmptyTried(false);
                if (refusal) forgetDiscountCode();
              }}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={64}
              className="uppercase placeholder:normal-case"
              placeholder="Votre code"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              disabled={disabled}
            />
            <Button type="submit" variant="secondary" disabled={disabled || checking} className="shrink-0">
              {checking ? "Vérification..." : "Appliquer"}
            </Button>
          </div>
        </form>
      )}
      {/* Said as it changes: the refusal (also the field's description), or what the code took off. */}
      <div aria-live="polite" aria-atomic="true">
        {error ? (
          <p id={`${id}-error`} className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
        {applied && line?.figures ? <p className="sr-only">{`Code ${line.code} appliqué\u00a0: −${formatEuros(line.figures.discountCents)}.`}</p> : null}
      </div>
    </div>
  );
}
