/**
 * Kysely's PostgreSQL dialect with two changes: transactions whose BEGIN and COMMIT ride along
 * with their statements (driver.ts), and a migrator that reads the connection's own
 * schema only (introspector.ts).
 */
import { type DatabaseIntrospector, type Driver, type Kysely, PostgresDialect } from "kysely";
import type pg from "pg";
import { PipelinedPostgresDriver } from "./driver.js";
import { CurrentSchemaIntrospector } from "./introspector.js";

export class SluicePostgresDialect extends PostgresDialect {
  readonly #pool: pg.Pool;

  /** `pool` must make pipelined clients (`pipeline: true`). */
  constructor(pool: pg.Pool) {
    super({ pool });
    this.#pool = pool;
  }

  override createDriver(): Driver {
    return new PipelinedPostgresDriver(this.#pool);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
