/**
 * Prepared writes (store/prepared.ts) as one PostgreSQL statement of data-modifying `WITH`s,
 * without building it: the writes' compiled SQL texts are joined, each one's placeholders
 * (`$1`, `$2`, …) numbered on after the previous one's. The text of each combination is kept,
 * and when every write reuses its plan on the server, so does the combination: a commit of a
 * source's events, their deliveries and its row is then parsed and planned once per connection,
 * not each time.
 */
import { CompiledQuery } from "kysely";
import { reusePlanOf, reusesPlan } from "./named-statements.js";

/** Combinations kept; past it all are forgotten, and joined again when next used. */
const KEPT_COMBINATIONS = 512;

/**
 * The joined text of each combination, found by its parts' texts one after another (a node per
 * text: the texts of prepared statements are the same strings every time, so each lookup hashes
 * nothing new, where a key joined from the texts would hash all of them). `text` is null where
 * the parts could not be joined.
 */
interface Combination {
  readonly next: Map<string, Combination>;
  text?: string | null;
}
let combinations: Combination = { next: new Map() };
let kept = 0;

const WRITTEN = CompiledQuery.raw('select 1 as "written"');

/**
 * `parts` as one statement, or undefined when one of them does not number its placeholders
 * plainly. `then` is the statement's own `SELECT` (its placeholders numbered after the parts'),
 * one that reads none of them: a `pg_notify`, say.
 */
export function combinedWrites(
  parts: readonly CompiledQuery[],
  then: CompiledQuery = WRITTEN,
): CompiledQuery | undefined {
  return combined(
    parts.map((part, index) => [`write_${index}`, part] as const),
    then,
    parts.every((part) => reusesPlan(part.sql)),
  );
}

/**
 * `writes`, then `last.query` as the `WITH` named `last.name`, then `select` (a statement
 * without parameters that reads it): one statement, or undefined as for `combinedWrites`. Named
 * on the server when `reusePlan` says its plan does not depend on its values.
 */
export function combinedWritesThen(
  writes: readonly CompiledQuery[],
  last: { readonly name: string; readonly query: CompiledQuery },
  select: CompiledQuery,
  options: { readonly reusePlan: boolean },
): CompiledQuery | undefined {
  if (select.parameters.length > 0) return undefined;
  return combined(
    [...writes.map((write, index) => [`write_${index}`, write] as const), [last.name, last.query] as const],
    select,
    options.reusePlan,
  );
}

function combined(
  parts: readonly (readonly [string, CompiledQuery])[],
  select: CompiledQuery,
  reusePlan: boolean,
): CompiledQuery | undefined {
  let node = step(combinations, select.sql);
  for (const [name, part] of parts) node = step(step(node, name), part.sql);
  if (node.text === undefined) {
    if (kept >= KEPT_COMBINATIONS) {
      combinations = { next: new Map() };
      kept = 0;
      return combined(parts, select, reusePlan);
    }
    node.text = joinParts(parts, select) ?? null;
    kept++;
  }
  const { text } = node;
  if (text === null) return undefined;
  if (reusePlan) reusePlanOf(text);
  return CompiledQuery.raw(text, [...parts.flatMap(([, part]) => part.parameters), ...select.parameters]);
}

/** The node after `from` for `key`, made if new. */
function step(from: Combination, key: string): Combination {
  let node = from.next.get(key);
  if (node === undefined) {
    node = { next: new Map() };
    from.next.set(key, node);
  }
  return node;
}

function joinParts(
  parts: readonly (readonly [string, CompiledQuery])[],
  select: CompiledQuery,
): string | undefined {
  let offset = 0;
  const ctes: string[] = [];
  for (const [name, part] of parts) {
    const numbered = renumbered(part, offset);
    if (numbered === undefined) return undefined;
    ctes.push(`"${name}" as (${numbered})`);
    offset += part.parameters.length;
  }
  const last = renumbered(select, offset);
  return last === undefined ? undefined : `with ${ctes.join(", ")} ${last}`;
}

/** `query`'s text with its placeholders numbered on from `offset`; undefined if they are not plain. */
function renumbered(query: CompiledQuery, offset: number): string | undefined {
  const seen = new Set<number>();
  const numbered = query.sql.replace(/\$(\d+)/g, (_, n: string) => {
    seen.add(Number(n));
    return `$${Number(n) + offset}`;
  });
  // Every placeholder of the query, and nothing else that looks like one (a `$` in a literal).
  const count = query.parameters.length;
  if (seen.size !== count || [...seen].some((n) => n < 1 || n > count)) return undefined;
  return numbered;
}
