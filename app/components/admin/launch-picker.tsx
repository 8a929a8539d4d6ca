import { CalendarDays, X } from "lucide-react";
import { useState } from "react";
import { DayPicker } from "react-day-picker";
import { fr } from "react-day-picker/locale";
import "react-day-picker/style.css";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { focusGroup } from "~/lib/restore-focus";

const longDate = new Intl.DateTimeFormat("fr-FR", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** "2026-12-01" ↔ a Date at UTC midnight: the calendar only deals in days, never in hours. */
const toDay = (iso: string) => (iso ? new Date(`${iso}T00:00:00Z`) : undefined);
const toIso = (day: Date) => day.toISOString().slice(0, 10);

/**
 * The optional launch date and time (SPEC.md "Product form"): a French calendar whose weeks
 * start on Monday, a time field usable once a day is chosen, a clear button, and the notice that
 * the product goes online by itself at that moment (Paris time). Posts launchDate and launchTime.
 */
export function LaunchPicker({
  date,
  time,
  onChange,
  error,
  today,
}: {
  date: string;
  time: string;
  onChange: (value: { date: string; time: string }) => void;
  error?: string;
  /** Today in Paris, "YYYY-MM-DD": earlier days cannot be picked. */
  today: string;
}) {
  const [open, setOpen] = useState(false);
  const selected = toDay(date);
  return (
    <fieldset className="flex flex-col gap-2" {...focusGroup()}>
      <legend className="text-sm font-medium">Date de lancement (facultative)</legend>
      <input type="hidden" name="launchDate" value={date} />
      <div className="flex flex-wrap items-end gap-3">
        <Popover open={open} onOpenChange={setOpen}>
          <PopoverTrigger asChild>
            <Button type="button" variant="outline" className="min-w-60 justify-start font-normal" aria-invalid={error ? true : undefined} aria-describedby={error ? "launch-error" : "launch-hint"}>
              <CalendarDays aria-hidden="true" />
              {selected ? <span className="first-letter:uppercase">{longDate.format(selected)}</span> : <span className="text-muted-foreground">Choisir une date</span>}
            </Button>
          </PopoverTrigger>
          {/* Focus goes to the chosen day (else today), as a date picker's keyboard users expect, not to "mois précédent". */}
          <PopoverContent align="start" className="w-auto p-3" onOpenAutoFocus={(event) => event.preventDefault()}>
            <DayPicker
              autoFocus
              mode="single"
              locale={fr}
              weekStartsOn={1}
              timeZone="UTC"
              // Paris's today, not the browser's UTC one: between midnight in Paris and in UTC
              // they differ, and "aujourd'hui" (and the focus) would be on a day that cannot be picked.
              today={toDay(today)}
              selected={selected}
              defaultMonth={selected ?? toDay(today)}
              disabled={{ before: toDay(today)! }}
              onSelect={(day) => {
                onChange({ date: day ? toIso(day) : "", time: day ? time || "10:00" : "" });
                setOpen(false);
              }}
              classNames={{
                root: "rdp-root text-sm",
                day_button: "size-10 rounded-lg hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring",
                selected: "[&>button]:bg-primary [&>button]:text-primary-foreground [&>button]:font-bold",
                today: "font-bold text-accent",
                disabled: "opacity-40",
                chevron: "fill-foreground",
              }}
            />
          </PopoverContent>
        </Popover>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Heure
          <Input
            type="time"
            name="launchTime"
            value={time}
            disabled={!date}
            step={1}
            onChange={(event) => onChange({ date, time: event.target.value })}
            className="w-32"
            aria-describedby={!date ? "launch-time-hint" : undefined}
          />
        </label>
        {date ? (
          <Button type="button" variant="ghost" onClick={() => onChange({ date: "", time: "" })}>
            <X aria-hidden="true" /> Effacer la date
          </Button>
        ) : null}
      </div>
      {!date ? (
        <p id="launch-time-hint" className="text-xs text-muted-foreground">
          Choisissez d'abord une date pour indiquer l'heure.
        </p>
      ) : (
        <p id="launch-hint" className="rounded-lg bg-accent/10 px-3 py-2 text-sm">
          Le produit sera mis en ligne automatiquement le {longDate.format(selected!)} à {time || "…"} (heure de Paris). D'ici là, il est « À venir ».
        </p>
      )}
      {error ? (
        <p id="launch-error" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
