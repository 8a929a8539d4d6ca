import { Megaphone, X } from "lucide-react";
import { Fragment, useMemo, useSyncExternalStore } from "react";
import { Link, useLocation, useRouteLoaderData } from "react-router";
import { DISMISSED_MESSAGES_KEY } from "~/domain/browser-storage";
import { messageSegments, messagesForPath } from "~/domain/site-message-text";
import { useNonce } from "~/lib/nonce";
import { cn } from "~/lib/utils";
import type { loader as rootLoader } from "~/root";

/**
 * The seller's active messages for this page's location plus the global ones (root loader's
 * `siteMessages`), each dismissible for the browser session. Dismissals live in sessionStorage;
 * the server never knows them, so the page stays the same for everyone (and cacheable).
 */
export function SiteMessages() {
  const messages = useRouteLoaderData<typeof rootLoader>("root")?.siteMessages ?? [];
  const { pathname } = useLocation();
  const dismissed = useDismissed();
  const nonce = useNonce();
  const visible = messagesForPath(messages, pathname).filter((m) => !dismissed.has(m.key));
  if (visible.length === 0) return null;

  const dismiss = (key: string, index: number) => {
    // Focus moves to the next message's button (or the previous one), not to the page's start.
    const buttons = document.querySelectorAll<HTMLButtonElement>("#site-messages [data-dismiss]");
    const next = buttons[index + 1] ?? buttons[index - 1];
    dismissMessage(key);
    next?.focus();
  };

  return (
    <section id="site-messages" aria-label="Informations de la boutique" className="mx-auto w-full max-w-7xl px-4 sm:px-6">
      {visible.map((message, index) => (
        // The script below may hide a dismissed message before React takes over: that attribute is expected.
        <div
          key={message.key}
          data-message-key={message.key}
          suppressHydrationWarning
          className="mt-4 flex items-start gap-3 rounded-xl border border-accent/40 bg-accent/10 py-1 pr-1 pl-4 text-sm"
        >
          <Megaphone className="mt-3 size-4 shrink-0 text-accent" aria-hidden="true" />
          <div className="min-w-0 flex-1 py-2">
            <p className="font-semibold">{message.title}</p>
            <SiteMessageContent content={message.content} className="mt-0.5 text-muted-foreground" />
          </div>
          <button
            type="button"
            data-dismiss
            onClick={() => dismiss(message.key, index)}
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
            aria-label={`Masquer le message « ${message.title} »`}
            title="Masquer ce message"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
      ))}
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: HIDE_DISMISSED_SCRIPT }} />
    </section>
  );
}

/** A message's text with its links: text nodes and <a> elements only, never HTML. */
export function SiteMessageContent({ content, className }: { content: string; className?: string }) {
  const link = "font-medium text-accent underline underline-offset-2 hover:no-underline";
  return (
    <p className={cn("whitespace-pre-line [overflow-wrap:anywhere]", className)}>
      {messageSegments(content).map((segment, i) =>
        segment.kind === "text" ? (
          <Fragment key={i}>{segment.text}</Fragment>
        ) : segment.external ? (
          <a key={i} href={segment.href} target="_blank" rel="noopener noreferrer" className={link}>
            {segment.text}
            <span className="sr-only"> (nouvelle fenêtre)</span>
          </a>
        ) : (
          <Link key={i} to={segment.href} className={link}>
            {segment.text}
          </Link>
        ),
      )}
    </p>
  );
}

const STORAGE_KEY = DISMISSED_MESSAGES_KEY;

/**
 * Runs as the page is parsed, before hydration: hides the messages this session dismissed, so
 * they do not flash. React then renders without them (its first render matches the server's).
 */
const HIDE_DISMISSED_SCRIPT = `(function(){try{var d=JSON.parse(sessionStorage.getItem(${JSON.stringify(STORAGE_KEY)})||"[]");if(!Array.isArray(d))return;document.querySelectorAll("#site-messages [data-message-key]").forEach(function(e){if(d.indexOf(e.getAttribute("data-message-key"))>=0)e.hidden=true})}catch(_){}})()`;

// Where sessionStorage is refused (some private modes), dismissals last until the page reloads.
let memory = "[]";
const listeners = new Set<() => void>();

function readStored(): string {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? "[]";
  } catch {
    return memory;
  }
}

function parseKeys(raw: string): string[] {
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((k): k is string => typeof k === "string") : [];
  } catch {
    return [];
  }
}

function dismissMessage(key: string) {
  const keys = parseKeys(readStored());
  if (!keys.includes(key)) keys.push(key);
  memory = JSON.stringify(keys);
  try {
    sessionStorage.setItem(STORAGE_KEY, memory);
  } catch {
    // Kept in memory only.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The keys dismissed this session; none while hydrating, so the first render matches the server's. */
function useDismissed(): Set<string> {
  const raw = useSyncExternalStore(subscribe, readStored, () => "[]");
  return useMemo(() => new Set(parseKeys(raw)), [raw]);
}
