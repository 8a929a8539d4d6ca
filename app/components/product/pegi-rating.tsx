import { PEGI_DESCRIPTOR_LABELS, type PegiAge, type PegiDescriptor, pegiTone } from "~/domain/pegi";
import { cn } from "~/lib/utils";

/** PEGI's colour code in fixed colours (the same in both themes), each readable on its text (AA). */
const TONE = { green: "bg-[#2e7d32] text-white", amber: "bg-[#f5a623] text-[#111]", red: "bg-[#c62828] text-white" } as const;

/**
 * A video game's PEGI rating: the age in PEGI's colour code and the content descriptors as words.
 * Drawn in HTML (not PEGI's artwork): server-rendered, no image to load, read as "PEGI 12".
 */
export function PegiRating({ age, descriptors }: { age: PegiAge; descriptors: readonly PegiDescriptor[] }) {
  return (
    <div className="flex flex-wrap items-center gap-3" data-testid="pegi-rating">
      <div role="img" aria-label={`PEGI ${age}`} className={cn("flex size-14 shrink-0 flex-col items-center justify-center rounded-md leading-none", TONE[pegiTone(age)])}>
        <span aria-hidden="true" className="text-2xl font-extrabold tabular">
          {age}
        </span>
        <span aria-hidden="true" className="mt-0.5 text-[0.65rem] font-bold tracking-wider">
          PEGI
        </span>
      </div>
      {descriptors.length > 0 ? (
        <ul aria-label="Descripteurs de contenu PEGI" className="flex flex-wrap gap-1.5 text-sm">
          {descriptors.map((descriptor) => (
            <li key={descriptor} className="rounded-md border border-border px-2 py-1 font-medium">
              {PEGI_DESCRIPTOR_LABELS[descriptor]}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
