/**
 * The store: the database, opened and migrated in one call, and its contract of domain
 * operations (the jobs table, rate slots, transactions as opaque handles). Core code that still
 * builds its own queries reaches Kysely through `db` or `dbIn(tx)`, and says why where it does.
 */
import { Kysely, Migrator, sql } from "kysely";
import { type ClusterLocks, createLocalLocks, createPostgresLocks } from "./cluster-locks.js";
import type { DialectCapabilities } from "./dialect/capabilities.js";
import type { DialectAdapter, StoreConnection, StoreLocation } from "./dialect/dialect.js";
import { openDialect } from "./dialect/open.js";
import type { JobQueue } from "./jobs/contract.js";
import { createJobQueue } from "./jobs/job-queue.js";
import { migrations } from "./migrations/index.js";
import { createLocalNotifier, createPostgresNotifier, type Notifier, notifyQuery } from "./notifier.js";
import { createRateSlotTable, type RateSlotTable } from "./rate-slots.js";
import type { Database } from "./schema.js";
import { executorOf, handleOf, type StoreTransaction, type TransactionOptions } from "./transaction.js";

export interface Store extends StoreConnection {
  readonly db: Kysely<Database>;
  /** What the database does its own way (store/dialect/dialect.ts). */
  readonly dialect: DialectAdapter;
  readonly capabilities: DialectCapabilities;
  readonly jobs: JobQueue;
  /** Per-webhook rate limits' slots, shared by every node. */
  readonly rateSlots: RateSlotTable;
  /** Post-commit wake-ups, across nodes on PostgreSQL. */
  readonly notifier: Notifier;
  /** Locks one node of the cluster holds at a time (every lock is granted in the embedded mode). */
  readonly locks: ClusterLocks;
  /**
   * Runs `work` in a transaction of its own, or in the caller's when `options.in` is one, so an
   * operation that may run inside another's transaction joins it instead of opening a second.
   */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `work` in a transaction that SQLite shares with the writes that queued meanwhile (one
   * flush for all: store/shared-transaction.ts). `work` must write only through `tx`.
   */
  sharedTransaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /** The query builder inside `tx`, for core code that builds its own queries there. */
  dbIn(tx: StoreTransaction): Kysely<Database>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Told when a pooled connection fails while idle (PostgreSQL restarts); the pool reconnects by itself. */
  onConnectionError?: (error: Error) => void;
}

/** Opens the database and brings its schema to the latest migration. */
export async function openStore(location: StoreLocation, options: OpenStoreOptions = {}): Promise<Store> {
  const opened = openDialect(location);
  opened.onPoolError(options.onConnectionError ?? (() => {}));
  const db = new Kysely<Database>({ dialect: opened.dialect });
  try {
    await migrate(db, opened.adapter);
  } catch (error) {
    await db.destroy();
    opened.release();
    throw error;
  }
  const onError = options.onConnectionError ?? (() => {});
  const notifier =
    location.databaseUrl === undefined
      ? createLocalNotifier()
      : createPostgresNotifier(
          location.databaseUrl,
          async (channel, payload) => {
            await db.executeQuery(notifyQuery({ channel, payload }));
          },
          onError,
        );
  const locks =
    location.databaseUrl === undefined
      ? createLocalLocks()
      : createPostgresLocks(location.databaseUrl, onError);
  const { adapter } = opened;
  return {
    db,
    dialect: adapter,
    capabilities: adapter.capabilities,
    jobs: createJobQueue({ db, dialect: adapter }),
    rateSlots: createRateSlotTable(db),
    notifier,
    locks,
    transaction: (work, options) =>
      options?.in ? work(options.in) : db.transaction().execute((tx) => work(handleOf(tx))),
    sharedTransaction: (work) => adapter.inSharedTransaction(db, (tx) => work(handleOf(tx))),
    dbIn: executorOf,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await locks.close();
      await notifier.close();
      await db.destroy();
      opened.release();
    },
  };
}

async function migrate(db: Kysely<Database>, dialect: DialectAdapter): Promise<void> {
  const schema = await dialect.migrationSchema(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === "Error")?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      failed ? `Database migration ${failed} failed: ${reason}` : `Cannot open the database: ${reason}`,
      { cause: error },
    );
  }
}

export type { StoreLocation } from "./dialect/dialect.js";
