import { Link } from "react-router";
import { formatEuros } from "~/domain/money";
import type { BuybackFigures } from "~/services/buyback-dashboard.server";

const card = "rounded-2xl border border-border bg-card p-4 sm:p-5";

/** The dashboard's « Rachats » section: the last 30 days' buy-backs and the credit owed today. */
export function BuybackSection({ figures }: { figures: BuybackFigures }) {
  const tiles: { label: string; value: string; detail?: string }[] = [
    { label: "Offres envoyées", value: String(figures.offersSent) },
    { label: "Offres acceptées", value: String(figures.accepted.count), detail: formatEuros(figures.accepted.cents) },
    { label: "Payés en avoir", value: String(figures.paidCredit.count), detail: formatEuros(figures.paidCredit.cents) },
    { label: "Payés par virement", value: String(figures.paidTransfer.count), detail: formatEuros(figures.paidTransfer.cents) },
    { label: "Unités mises en stock", value: String(figures.unitsAdded) },
    { label: "Avoirs dus aux clients (aujourd'hui)", value: formatEuros(figures.creditOutstandingCents) },
  ];
  return (
    <section aria-labelledby="buyback-title">
      <h2 id="buyback-title" className="text-lg font-bold tracking-tight">
        Rachats ({figures.days} derniers jours)
      </h2>
      <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {tiles.map((tile) => (
          <li key={tile.label} className={card}>
            <p className="text-sm text-muted-foreground">{tile.label}</p>
            <p className="tabular mt-1 text-2xl font-extrabold">{tile.value}</p>
            {tile.detail ? <p className="tabular text-sm text-muted-foreground">{tile.detail}</p> : null}
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm">
        <Link to="/admin/registre" className="inline-flex min-h-11 items-center font-medium text-accent hover:underline">
          Voir le registre des objets mobiliers
        </Link>
      </p>
    </section>
  );
}
