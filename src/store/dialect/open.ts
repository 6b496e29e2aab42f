/** Opens the database a location names: PostgreSQL at its URL, else SQLite in the data directory. */
import type { OpenedDialect, StoreLocation } from "./dialect.js";
import { openPostgres } from "./postgres/adapter.js";
import { openSqlite } from "./sqlite/adapter.js";

export function openDialect(location: StoreLocation): OpenedDialect {
  return location.databaseUrl === undefined
    ? openSqlite(location.dataDir)
    : openPostgres(location.databaseUrl);
}
