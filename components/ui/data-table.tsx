// A table of records, one row each, described by its columns.
import type { HTMLAttributes, ReactNode } from "react";
import { DateTime } from "../panel/preferences";
import { ScrollRegion } from "./scroll-region";

export type TColumn<TItem> = {
  header: ReactNode;
  headerClassName?: string;
  cellClassName?: string;
  cell: (item: TItem) => ReactNode;
};

export function DataTable<TItem extends { id: string }>(props: {
  columns: readonly TColumn<TItem>[];
  items: readonly TItem[];
  /**
   * Kept for callers; every table now scrolls sideways inside its card when it is wider than the
   * screen (a page is never wider than a 390 px phone).
   */
  scroll?: boolean;
  /** The name a screen reader hears for the table's scrolling box while it overflows. */
  label?: string;
  /**
   * On a phone each row becomes a small card, every cell under its column's name (the header
   * when it is text), the first cell across the card; instead of scrolling sideways.
   */
  stack?: boolean;
  compact?: boolean;
  rowProps?: (item: TItem) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, unknown>;
}) {
  const table = (
    <table
      className={["table", props.compact ? "table-compact" : null, props.stack ? "table-stack" : null].filter(Boolean).join(" ")}
    >
      <thead>
        <tr>
          {props.columns.map((column, index) => (
            <th key={index} scope="col" className={column.headerClassName}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.items.map((item) => (
          <tr key={item.id} {...props.rowProps?.(item)}>
            {props.columns.map((column, index) => (
              <td
                key={index}
                className={column.cellClassName}
                data-label={typeof column.header === "string" ? column.header : undefined}
              >
                {column.cell(item)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return <ScrollRegion label={props.label ?? "Table (scrolls sideways)"}>{table}</ScrollRegion>;
}

/** The last column of most lists: when the record was created, on the right. */
export function createdColumn<TItem extends { created_at: string }>(): TColumn<TItem> {
  return {
    header: "Created",
    headerClassName: "cell-right",
    cellClassName: "cell-date cell-right",
    cell: (item) => <DateTime iso={item.created_at} />,
  };
}
