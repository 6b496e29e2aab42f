/**
 * Kysely's SQLite dialect, with one change: a transaction that SQLite already rolled back by itself
 * is not rolled back again. After SQLITE_FULL (the disk is full), SQLITE_IOERR or SQLITE_NOMEM,
 * SQLite may end the transaction on its own; Kysely's ROLLBACK would then fail with "cannot
 * rollback - no transaction is active", and that error would replace the one that says what
 * happened (a full disk would answer 500 instead of 507 storage_full).
 */
import type SQLite from "better-sqlite3";
import { type DatabaseConnection, type Driver, SqliteDialect, SqliteDriver } from "kysely";

class SqliteDriverKeepingTheCause extends SqliteDriver {
  constructor(private readonly database: SQLite.Database) {
    super({ database });
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.database.inTransaction) return;
    await super.rollbackTransaction(connection);
  }
}

export class EmbeddedSqliteDialect extends SqliteDialect {
  constructor(private readonly database: SQLite.Database) {
    super({ database });
  }

  override createDriver(): Driver {
    return new SqliteDriverKeepingTheCause(this.database);
  }
}
