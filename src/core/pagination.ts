/**
 * Cursor pagination over id-ordered lists (ids sort by creation time). Lists are newest first:
 * `after` pages toward older items, `before` toward newer ones. The shape is Pipedream's:
 * `{ data, page_info: { total_count, count, start_cursor, end_cursor } }`.
 */
// Kysely here, not in the store: it pages any query a core module built, by that query's id column.
import type { SelectQueryBuilder, StringReference } from "kysely";
import { InvalidInputError } from "./errors.js";

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  readonly limit?: number;
  readonly after?: string;
  readonly before?: string;
}

export interface PageInfo {
  total_count: number;
  count: number;
  start_cursor: string | null;
  end_cursor: string | null;
}

export interface Page<T> {
  readonly items: T[];
  readonly pageInfo: PageInfo;
}

export interface IdCursor {
  readonly op: "<" | ">";
  readonly id: string;
}

/** How a list is read: rows relative to a cursor in an order, and the total without cursors. */
export interface PageSource<T> {
  rows(cursor: IdCursor | null, order: "asc" | "desc", limit: number): Promise<T[]>;
  count(): Promise<number>;
}

/** The page size asked for, or the default; InvalidInputError outside 1 to MAX_PAGE_SIZE. */
export function checkPageLimit(limit: number | undefined): number {
  const value = limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(value) || value < 1 || value > MAX_PAGE_SIZE) {
    throw new InvalidInputError(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return value;
}

export async function readPage<T extends { id: string }>(
  request: PageRequest,
  source: PageSource<T>,
): Promise<Page<T>> {
  const limit = checkPageLimit(request.limit);
  if (request.after !== undefined && request.before !== undefined) {
    throw new InvalidInputError("Pass either after or before, not both");
  }
  let items: T[];
  if (request.before !== undefined) {
    items = (await source.rows({ op: ">", id: request.before }, "asc", limit)).reverse();
  } else {
    const cursor: IdCursor | null = request.after === undefined ? null : { op: "<", id: request.after };
    items = await source.rows(cursor, "desc", limit);
  }
  return {
    items,
    pageInfo: {
      total_count: await source.count(),
      count: items.length,
      start_cursor: items[0]?.id ?? null,
      end_cursor: items.at(-1)?.id ?? null,
    },
  };
}

/**
 * A page of a query's rows, by their id column (`"id"`, or `"table.id"` in a join). The query
 * holds the filters and the columns; the total is the same query counting its rows.
 */
export function readQueryPage<DB, TB extends keyof DB, O, T extends { id: string }>(
  request: PageRequest,
  query: SelectQueryBuilder<DB, TB, O>,
  toItem: (row: O) => T,
  idColumn?: StringReference<DB, TB>,
): Promise<Page<T>> {
  // Only the id column matters here; the caller's types checked the query and the column.
  const rows = query as unknown as SelectQueryBuilder<{ t: { id: string } }, "t", O>;
  const id = (idColumn ?? "id") as "id";
  return readPage(request, {
    async rows(cursor, order, limit) {
      const page = cursor ? rows.where(id, cursor.op, cursor.id) : rows;
      return (await page.orderBy(id, order).limit(limit).execute()).map(toItem);
    },
    count: () => countRows(query),
  });
}

/** How many rows the query has (its columns aside). */
export async function countRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  // The count's type does not depend on the query's tables.
  const row = await (query as unknown as SelectQueryBuilder<{ t: object }, "t", O>)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
