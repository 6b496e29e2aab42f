/**
 * A list page's table and its states, so no list is ever blank: loading, the error, the empty
 * message, the rows, and the pager when the list is paged on the server. Columns name their
 * header and cell; a table marked `cards` shows each row as a card under 720 px, each cell under
 * its header (`data-label`). A page whose rows are components of their own passes `renderRow`.
 */
import { Fragment, type ReactNode } from "react";
import type { PageInfo } from "../../client/types.js";
import { Pager } from "./pager.js";
import { Empty, ErrorBox, Loading } from "./status.js";

export interface Column<T> {
  header: string;
  /** The header is for screen readers only (an actions column); its cells get no card label. */
  hideHeader?: boolean;
  className?: string;
  /** Omitted when the page renders its rows itself (`renderRow`). */
  cell?: (row: T) => ReactNode;
}

export interface DataTableProps<T> {
  /** The list's query: its pending and error states. */
  query: { isPending: boolean; error: unknown };
  /** The rows loaded, or undefined while there are none yet. */
  rows: readonly T[] | undefined;
  /** What is loading ("sources"), for the loading message. */
  what: string;
  /** Shown when the list is loaded and empty. */
  empty: ReactNode;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  /** The table's accessible name. */
  label?: string;
  cards?: boolean;
  renderRow?: (row: T) => ReactNode;
  /** For a list paged on the server: its page info and the next page's cursor. */
  pageInfo?: PageInfo | undefined;
  onNext?: (cursor: string) => void;
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { query, rows, columns, rowKey, renderRow, cards = false } = props;
  return (
    <>
      {query.isPending && <Loading what={props.what} />}
      {query.error ? <ErrorBox error={query.error} /> : null}
      {rows && rows.length === 0 && <Empty>{props.empty}</Empty>}
      {rows && rows.length > 0 && (
        <div className="table-wrap">
          <table aria-label={props.label} className={cards ? "cards" : undefined}>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th scope="col" key={column.header}>
                    {column.hideHeader ? (
                      <span className="visually-hidden">{column.header}</span>
                    ) : (
                      column.header
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) =>
                renderRow ? (
                  <Fragment key={rowKey(row)}>{renderRow(row)}</Fragment>
                ) : (
                  <tr key={rowKey(row)}>
                    {columns.map((column) => (
                      <td
                        key={column.header}
                        className={column.className}
                        data-label={cards && !column.hideHeader ? column.header : undefined}
                      >
                        {column.cell?.(row)}
                      </td>
                    ))}
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
      {props.onNext && <Pager info={props.pageInfo} onNext={props.onNext} />}
    </>
  );
}
