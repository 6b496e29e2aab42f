/**
 * Queries shared by the two tables whose rows an emitter numbers `<ms>-<seq>` (events and log
 * lines): comparing ids without row values, reading pages and what follows an id, and finding
 * the newest id.
 */
// Kysely here, not in the store: plain reads of an emitter's id-ordered rows.
import type { ExpressionBuilder, OperandValueExpression, SelectQueryBuilder } from "kysely";
import type { Database, Executor } from "../../store/schema.js";
import { countRows, type Page, type PageRequest, readPage } from "../pagination.js";
import { parseSequenceId, type SequenceId } from "./event-ids.js";

export type SequencedTable = "events" | "emitter_logs";

/**
 * `(ms, seq) <op> id`, without row values so both dialects read it alike. The inclusive bound on
 * `ms` alone comes first because it is what the `(emitter_id, ms, seq)` index can seek to, so only
 * rows near `id` are compared, not the emitter's whole range. `id` is values or expressions.
 */
export function idCompared(
  eb: ExpressionBuilder<Database, SequencedTable>,
  op: "<" | "<=" | ">" | ">=",
  id: {
    readonly ms: OperandValueExpression<Database, SequencedTable, "ms">;
    readonly seq: OperandValueExpression<Database, SequencedTable, "seq">;
  },
) {
  const before = op === "<" || op === "<=";
  return eb.and([
    eb("ms", before ? "<=" : ">=", id.ms),
    eb.or([eb("ms", before ? "<" : ">", id.ms), eb("seq", op, id.seq)]),
  ]);
}

/** The id of the emitter's newest row, or null if it has none. */
export async function newestRowId(
  db: Executor,
  table: SequencedTable,
  emitterId: string,
): Promise<SequenceId | null> {
  const row = await db
    .selectFrom(table)
    .select(["ms", "seq"])
    .where("emitter_id", "=", emitterId)
    .orderBy("ms", "desc")
    .orderBy("seq", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { ms: Number(row.ms), seq: row.seq } : null;
}

/** A query of one of the tables, filtered and with its columns, as the readers below take it. */
type SequencedQuery<TB extends SequencedTable, O> = SelectQueryBuilder<Database, TB, O>;

/**
 * A page of the query's rows, newest first, paged by their `<ms>-<seq>` ids (`after` toward
 * older rows, `before` toward newer ones); the total is the same query counting its rows.
 */
export function readSequencedPage<TB extends SequencedTable, O, T extends { id: string }>(
  request: PageRequest,
  query: SequencedQuery<TB, O>,
  toItem: (row: O) => T,
): Promise<Page<T>> {
  // The table is one of the two, which share the columns used here.
  const rows = query as unknown as SequencedQuery<SequencedTable, O>;
  return readPage(request, {
    async rows(cursor, order, limit) {
      let page = rows;
      if (cursor) {
        const id = parseSequenceId(cursor.id, cursor.op === "<" ? "after" : "before");
        page = page.where((eb) => idCompared(eb, cursor.op, id));
      }
      return (await page.orderBy("ms", order).orderBy("seq", order).limit(limit).execute()).map(toItem);
    },
    count: () => countRows(query),
  });
}

/** The query's rows after `after`, oldest first, at most `limit` (an SSE stream's catch-up). */
export function rowsAfter<TB extends SequencedTable, O>(
  query: SequencedQuery<TB, O>,
  after: SequenceId,
  limit: number,
): Promise<O[]> {
  const rows = query as unknown as SequencedQuery<SequencedTable, O>;
  return rows
    .where((eb) => idCompared(eb, ">", after))
    .orderBy("ms")
    .orderBy("seq")
    .limit(limit)
    .execute();
}
