import { GUARANTEE_NOTICE } from "~/domain/legal-texts";

/**
 * The box the CGV of a seller of goods must contain (Code de la consommation D211-2, model A of
 * its annex, décret n° 2022-946): reproduced word for word (domain/legal-texts.ts, which the
 * order confirmation e-mail repeats).
 */
export function GuaranteeNotice() {
  return (
    <aside aria-label="Encadré légal : garanties légales" className="mt-4 max-w-3xl rounded-2xl border-2 border-foreground/40 bg-card p-5 text-[0.97rem] leading-7 print:border-black [&>p:first-child]:mt-0">
      {GUARANTEE_NOTICE.map((text) => (
        <p key={text}>{text}</p>
      ))}
    </aside>
  );
}
