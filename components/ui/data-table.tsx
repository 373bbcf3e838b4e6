// A table of records, one row each, described by its columns.
import type { HTMLAttributes, ReactNode } from "react";
import { DateTime } from "../panel/preferences";

export type TColumn<TItem> = {
  header: ReactNode;
  headerClassName?: string;
  cellClassName?: string;
  cell: (item: TItem) => ReactNode;
};

export function DataTable<TItem extends { id: string }>(props: {
  columns: readonly TColumn<TItem>[];
  items: readonly TItem[];
  /** Scrolls sideways on narrow screens instead of squeezing the columns. */
  scroll?: boolean;
  compact?: boolean;
  rowProps?: (item: TItem) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, unknown>;
}) {
  const table = (
    <table className={props.compact ? "table table-compact" : "table"}>
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
              <td key={index} className={column.cellClassName}>
                {column.cell(item)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return props.scroll ? <div className="table-scroll">{table}</div> : table;
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
