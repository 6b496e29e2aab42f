/**
 * Queries shared by the two tables whose rows an emitter numbers `<ms>-<seq>` (events and log
 * lines): comparing ids without row values, and finding the newest id.
 */
// Kysely here, not in the store: plain reads of an emitter's id-ordered rows.
import type { ExpressionBuilder, OperandValueExpression } from "kysely";
import type { Database, Executor } from "../../store/schema.js";
import type { SequenceId } from "./event-ids.js";

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
