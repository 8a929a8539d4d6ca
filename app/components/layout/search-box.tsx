import { Search } from "lucide-react";
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from "react";
import { Form, useNavigate } from "react-router";
import { PLACEHOLDER_IMAGE } from "~/domain/images";
import { formatEuros } from "~/domain/money";
import { productPath } from "~/domain/product-url";
import { moveActiveOption, SUGGESTION_QUERY_MAX_LENGTH, type Suggestion, wantsSuggestions } from "~/domain/suggestions";
import { cn } from "~/lib/utils";

const DEBOUNCE_MS = 150;

type SuggestionState = { status: "idle" | "loading" | "done"; suggestions: Suggestion[] };

/**
 * Asks /api/search for the text typed, 150 ms after the last key. Each new text aborts the
 * request before it, so a slow answer for "po" never overwrites the one for "pokemon".
 * While loading, the previous suggestions stay on screen rather than flickering away.
 */
function useSuggestions() {
  const [state, setState] = useState<SuggestionState>({ status: "idle", suggestions: [] });
  const pending = useRef<{ timer?: ReturnType<typeof setTimeout>; controller?: AbortController }>({});

  const cancel = useCallback(() => {
    clearTimeout(pending.current.timer);
    pending.current.controller?.abort();
  }, []);
  useEffect(() => cancel, [cancel]);

  const request = useCallback(
    (text: string) => {
      cancel();
      if (!wantsSuggestions(text)) {
        setState({ status: "idle", suggestions: [] });
        return;
      }
      setState((s) => ({ ...s, status: "loading" }));
      const controller = new AbortController();
      const timer = setTimeout(async () => {
        try {
          const response = await fetch(`/api/search?q=${encodeURIComponent(text.trim())}`, { signal: controller.signal });
          if (!response.ok) throw new Error(`/api/search: ${response.status}`);
          const body = (await response.json()) as { suggestions: Suggestion[] };
          setState({ status: "done", suggestions: body.suggestions });
        } catch {
          // Aborted means a newer text owns the state; on a real failure the box just closes,
          // and Enter still searches the catalogue.
          if (!controller.signal.aborted) setState({ status: "idle", suggestions: [] });
        }
      }, DEBOUNCE_MS);
      pending.current = { timer, controller };
    },
    [cancel],
  );

  return { ...state, request };
}

/**
 * Product search (ARIA 1.2 combobox with a listbox popup). Suggestions lead to a product
 * page; Enter with no option chosen submits the form to the catalogue search, which is also
 * all it does without JavaScript. `id` must be unique: the header renders it twice.
 */
export function SearchBox({ className, id = "site-search" }: { className?: string; id?: string }) {
  const listboxId = `${id}-listbox`;
  const optionId = (s: Suggestion) => `${listboxId}-${s.id}`;
  const navigate = useNavigate();
  const { status, suggestions, request } = useSuggestions();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const formRef = useRef<HTMLFormElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  const visible = open && status !== "idle";
  const expanded = visible && suggestions.length > 0;
  const message = !visible || expanded ? null : status === "loading" ? "Chargement..." : "Aucun produit trouvé.";
  const activeSuggestion = expanded ? suggestions[active] : undefined;

  const close = useCallback(() => {
    setOpen(false);
    setActive(-1);
  }, []);

  // Focus stays in the input, so a click elsewhere may not blur it (iOS): watch the page too.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!formRef.current?.contains(event.target as Node)) close();
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open, close]);

  useEffect(() => {
    if (active >= 0) listRef.current?.children[active]?.scrollIntoView({ block: "nearest" });
  }, [active]);

  const choose = (suggestion: Suggestion) => {
    close();
    navigate(productPath(suggestion));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        if (status === "idle") return;
        event.preventDefault();
        const direction = event.key === "ArrowDown" ? 1 : -1;
        setOpen(true);
        setActive((current) => moveActiveOption(open ? current : -1, suggestions.length, direction));
        break;
      }
      case "Enter":
        if (activeSuggestion) {
          event.preventDefault();
          choose(activeSuggestion);
        }
        break;
      case "Escape":
        // Only when something is open: otherwise the search input's own Escape clears the text.
        if (visible) {
          event.preventDefault();
          close();
        }
        break;
    }
  };

  return (
    <Form
      ref={formRef}
      action="/catalog"
      method="get"
      role="search"
      className={cn("relative", className)}
      onSubmit={close}
    >
      <label htmlFor={id} className="sr-only">
        Rechercher un produit
      </label>
      <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <input
        id={id}
        name="q"
        // A text field: the standard allows the combobox role on it, not on type=search.
        type="text"
        enterKeyHint="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listboxId}
        aria-activedescendant={activeSuggestion ? optionId(activeSuggestion) : undefined}
        placeholder="Rechercher un produit..."
        autoComplete="off"
        maxLength={SUGGESTION_QUERY_MAX_LENGTH}
        onChange={(event) => {
          request(event.currentTarget.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={close}
        onKeyDown={onKeyDown}
        className="h-11 w-full rounded-lg border border-input bg-card pl-9 pr-3 text-sm placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
      />
      <ul
        ref={listRef}
        id={listboxId}
        role="listbox"
        aria-label="Suggestions de produits"
        hidden={!expanded}
        // Keeps the focus (and the open list) in the input while an option is clicked.
        onMouseDown={(event) => event.preventDefault()}
        className={cn(popupClass, "overflow-y-auto p-1.5 max-h-[min(34rem,calc(100dvh-9rem))]")}
      >
        {suggestions.map((suggestion, index) => (
          <li
            key={suggestion.id}
            id={optionId(suggestion)}
            role="option"
            aria-selected={index === active}
            onClick={() => choose(suggestion)}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-2 py-1.5 hover:bg-muted aria-selected:bg-muted aria-selected:outline-2 aria-selected:-outline-offset-2 aria-selected:outline-ring"
          >
            <img
              src={suggestion.thumbnail ?? PLACEHOLDER_IMAGE}
              alt=""
              width={40}
              height={40}
              loading="lazy"
              decoding="async"
              className="size-10 shrink-0 rounded-md bg-surface-art object-contain"
            />
            <span className="min-w-0 flex-1">
              <span className="line-clamp-2 text-sm font-medium leading-snug">{suggestion.name}</span>
              <span className="block truncate text-xs text-muted-foreground">{suggestion.category}</span>
            </span>
            <span className="tabular shrink-0 text-sm font-semibold">{formatEuros(suggestion.priceCents)}</span>
          </li>
        ))}
      </ul>
      {/* Always in the page so screen readers hear the changes; shown as a popup only for the two texts of SPEC.md. */}
      <p role="status" className={message ? cn(popupClass, "px-4 py-3 text-sm text-muted-foreground") : "sr-only"}>
        {message ?? (expanded ? `${suggestions.length} suggestion${suggestions.length > 1 ? "s" : ""}` : "")}
      </p>
    </Form>
  );
}

const popupClass =
  "absolute right-0 top-full z-50 mt-2 w-full min-w-[min(22rem,calc(100vw-2rem))] rounded-xl border border-border bg-card text-card-foreground shadow-xl";
