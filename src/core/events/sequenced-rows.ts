/**
 * Queries shared by the two tables whose rows an emitter numbers `<ms>-<seq>` (events and log
 * lines): comparing ids without row values, and finding the newest id.
 */
import type { ExpressionBuilder, OperandValueExpression } from "kysely";
import type { Database, Executor } from "../../store/schema.js";
import type { SequenceId } from "./event-ids.js";

export type SequencedTable = "events" | "emitter_logs";

/**
 * `(ms, seq) <op> id`, written without row values so both dialects read it the same way. The
 * bound on `ms` alone comes first and is inclusive: it is what an index on `(emitter_id, ms, seq)`
 * can seek to, so the rows compared are those on the near side of `id` (plus those of its
 * millisecond), not every row of the emitter. Without it, SQLite walked an emitter's whole index
 * range to delete the one oldest event past its limit (10,000 entries a commit). `id` is values,
 * or expressions (the subqueries of a cutoff found in the same statement).
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
