import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DayRevenue } from "~/domain/dashboard";
import { formatEuros } from "~/domain/money";
import { shortDay } from "./day-label";

/**
 * The revenue of the last 30 days, a bar a day (recharts, loaded with the dashboard only: its
 * module is a chunk of its own). Decorative for screen readers: the table beside it says the same.
 */
export default function RevenueChart({ days }: { days: DayRevenue[] }) {
  return (
    <ResponsiveContainer width="100%" height={240}>
      <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 8 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} stroke="var(--color-border)" />
        <XAxis dataKey="day" tickFormatter={shortDay} tick={{ fill: "var(--color-muted-foreground)", fontSize: 12 }} interval="preserveStartEnd" minTickGap={16} />
        <YAxis tickFormatter={(cents: number) => formatEuros(cents).replace(/,00\s€$/, " €")} tick={{ fill: "var(--color-muted-foreground)", fontSize: 12 }} width={72} />
        <Tooltip
          cursor={{ fill: "var(--color-muted)" }}
          contentStyle={{ background: "var(--color-card)", border: "1px solid var(--color-border)", borderRadius: 12, color: "var(--color-foreground)" }}
          labelFormatter={(day) => shortDay(String(day))}
          formatter={(cents) => [formatEuros(Number(cents)), "Chiffre d'affaires TTC"]}
        />
        <Bar dataKey="revenueCents" fill="var(--color-primary)" radius={[4, 4, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
