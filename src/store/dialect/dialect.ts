/**
 * The contract each database's adapter keeps (dialect/sqlite/, dialect/postgres/), as Kysely's
 * dialects do: capability flags for what a caller may choose between, and methods for what the
 * two databases do differently, so no code outside an adapter asks which database it is on.
 */
import type { CompiledQuery, Dialect, Expression, Kysely, RawBuilder, SqlBool } from "kysely";
import type { ClaimedJob, ClaimOptions, GroupLimitColumn, Turn } from "../jobs/contract.js";
import type { Database, Executor } from "../schema.js";
import type { DialectCapabilities } from "./capabilities.js";
import type { StatementBatch } from "./postgres/statement-batch.js";

export interface StoreLocation {
  /** `postgres://…`; undefined selects the embedded SQLite database in dataDir. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
}

/** What a capped claim took, and (when asked for and read along) the queue's next due time. */
export interface CappedClaim {
  readonly jobs: ClaimedJob[];
  readonly nextRunAt?: number | null;
}

export interface DialectAdapter {
  readonly capabilities: DialectCapabilities;
  /** Several statements in one round trip (PostgreSQL; dialect/postgres/statement-batch.ts). */
  readonly batch?: StatementBatch;
  /** `id` is one of the ids `subquery` selects, in the form this database plans best. */
  idIn(subquery: Expression<unknown>): RawBuilder<SqlBool>;
  /**
   * Leases up to `options.limit` due jobs keeping each group within `groupLimit`, counting every
   * claimer's leases (store/jobs/contract.ts `ClaimOptions.groupLimit`). With `thenNext`, the
   * queue's next due time as it is after the claim, where it costs nothing more to read.
   */
  claimCapped(
    db: Kysely<Database>,
    options: ClaimOptions,
    groupLimit: number | GroupLimitColumn,
    thenNext: boolean,
  ): Promise<CappedClaim>;
  /**
   * Runs `started` (the turn's UPDATE … RETURNING) and, if it started nothing, `held` (whether
   * the lease still holds the job), apart from every claim of `queue`.
   */
  takeTurn(
    db: Kysely<Database>,
    queue: string,
    statements: { readonly started: CompiledQuery; readonly held: CompiledQuery },
  ): Promise<Turn>;
  /** Runs `work` in a transaction; SQLite shares it with the work that queued meanwhile. */
  inSharedTransaction<T>(db: Kysely<Database>, work: (tx: Executor) => Promise<T>): Promise<T>;
  /** The schema the migrator keeps its bookkeeping in, when it is not the default one. */
  migrationSchema(db: Kysely<Database>): Promise<string | undefined>;
}

/** A database handle with its adapter: what the store's write helpers need of a Store. */
export interface StoreConnection {
  readonly db: Kysely<Database>;
  readonly dialect: DialectAdapter;
}

export interface OpenedDialect {
  readonly dialect: Dialect;
  readonly adapter: DialectAdapter;
  /** Listens for connections that fail while idle in the pool. */
  readonly onPoolError: (listener: (error: Error) => void) => void;
  /** Releases what the dialect holds outside Kysely (the data directory lock); called after destroy. */
  readonly release: () => void;
}
