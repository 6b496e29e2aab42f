/**
 * Searching text columns for what a person typed, the same on both databases: case is ignored,
 * and LIKE's wildcards in the words match only themselves.
 */
import { type RawBuilder, sql } from "kysely";

/**
 * `column` holds `words` anywhere, in any case. ESCAPE is spelled out because SQLite has no
 * default escape character.
 */
export function containsText(column: string, words: string): RawBuilder<boolean> {
  const pattern = `%${words.toLowerCase().replace(/[\\%_]/g, (wildcard) => `\\${wildcard}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}
