/**
 * What a dialect can do, as flags its callers read: where the two databases differ, the code that
 * uses the store reads a flag (or calls a method of the adapter, dialect/dialect.ts), never the
 * database's name. A leaf: every part of the store may import it.
 */

/** Which database a dialect speaks; only a key for what is compiled per dialect (store/prepared.ts). */
export type DialectName = "sqlite" | "postgres";

export interface DialectCapabilities {
  readonly name: DialectName;
  /** Row locks that concurrent claimers skip (`FOR UPDATE SKIP LOCKED`). SQLite has one writer, so needs none. */
  readonly skipLocked: boolean;
  /** One server process uses the database (embedded mode holds the data directory's lock). */
  readonly singleProcess: boolean;
  /**
   * Each statement is a round trip to a database server, so one complex statement beats several
   * plain ones (a capped claim, a delivery's outcome with its webhook's next job). In process
   * (SQLite) there is no round trip to save, and a few plain statements cost less than the one
   * complex statement (store/dialect/sqlite/capped-claim.ts).
   */
  readonly roundTrips: boolean;
  /**
   * Writes combine into one statement as data-modifying `WITH`s, and a NOTIFY goes in it
   * (PostgreSQL; store/write-together.ts).
   */
  readonly combinesWrites: boolean;
}
