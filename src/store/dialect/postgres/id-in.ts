import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";

/**
 * `id` is one of the ids `subquery` selects, as `= any(array(…))`: the planner then looks each id
 * up by the primary key, where `in (…)` had it hash-join the subquery with a scan of the whole
 * jobs table, every claim paying for the length of the backlog.
 */
export function idIn(subquery: Expression<unknown>): RawBuilder<SqlBool> {
  return sql<SqlBool>`id = any(array(${subquery}))`;
}
