import type { Key, ReactNode } from "react";
import { cn } from "~/lib/utils";

/** A column's header; numbers are right-aligned, like their cells. */
export type AdminColumn = { label: string; numeric?: boolean };

const PADDING = {
  /** Inside a card that has its own padding: none on the table's outer edges. */
  inset: { cell: "py-2", between: "pr-3" },
  /** The table is the card: room on every side of each cell. */
  card: { cell: "p-3", between: "" },
} as const;

/**
 * A plain admin data table: a header row (a column given as `false` is left out), then one row per
 * item, divided by a line; each caller renders its row's cells (their padding matching `padding`)
 * and wraps the table to scroll on narrow screens.
 */
export function AdminTable<T>({
  columns,
  rows,
  rowKey,
  renderRow,
  padding = "inset",
  caption,
  className,
}: {
  columns: (AdminColumn | false)[];
  rows: readonly T[];
  rowKey: (row: T) => Key;
  renderRow: (row: T, index: number) => ReactNode;
  padding?: keyof typeof PADDING;
  /** Read by screen readers only. */
  caption?: string;
  className?: string;
}) {
  const shown = columns.filter((column): column is AdminColumn => column !== false);
  const { cell, between } = PADDING[padding];
  return (
    <table className={cn("w-full text-sm", className)}>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead className="text-left text-muted-foreground">
        <tr className="border-b border-border">
          {shown.map((column, i) => (
            <th key={column.label} scope="col" className={cn(cell, i < shown.length - 1 && between, column.numeric && "text-right", "font-medium")}>
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={rowKey(row)} className="border-b border-border last:border-0">
            {renderRow(row, i)}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
