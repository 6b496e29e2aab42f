/** The migrations' index step, one line each. Shipped migrations call it, so what it emits never changes. */
import { type Kysely, sql } from "kysely";

export interface IndexOptions {
  /** Makes the index partial: it holds only the rows where this column is not null. */
  readonly whereNotNull?: string;
}

/** Creates the index `name` on `table`'s `columns`, in that order. */
export async function createIndex<DB>(
  db: Kysely<DB>,
  name: string,
  table: string,
  columns: string[],
  options: IndexOptions = {},
): Promise<void> {
  const index = db.schema.createIndex(name).on(table).columns(columns);
  await (options.whereNotNull === undefined
    ? index
    : index.where(sql.ref(options.whereNotNull), "is not", null)
  ).execute();
}
