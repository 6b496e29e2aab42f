/**
 * PostgreSQL: a pool of pipelined connections shared by every node of a cluster. Its adapter
 * sends what it can in one round trip (a capped claim with its lock, a turn under the claim lock)
 * and locks rows that concurrent claimers skip.
 */
import { type CompiledQuery, type Expression, type Kysely, sql } from "kysely";
import pg from "pg";
import type { ClaimOptions, GroupLimitColumn, Turn } from "../../jobs/contract.js";
import { serverStatementName } from "../../named-statements.js";
import type { Database, Executor } from "../../schema.js";
import type { DialectCapabilities } from "../capabilities.js";
import type { CappedClaim, DialectAdapter, OpenedDialect } from "../dialect.js";
import { claimCappedOnPostgres } from "./capped-claim.js";
import { queueLock } from "./claim-lock.js";
import { idIn } from "./id-in.js";
import { SluicePostgresDialect } from "./kysely-dialect.js";
import { createStatementBatch, type StatementBatch } from "./statement-batch.js";

const CAPABILITIES: DialectCapabilities = {
  name: "postgres",
  skipLocked: true,
  singleProcess: false,
  roundTrips: true,
  combinesWrites: true,
};

export class PostgresAdapter implements DialectAdapter {
  readonly capabilities = CAPABILITIES;
  readonly batch: StatementBatch;

  constructor(batch: StatementBatch) {
    this.batch = batch;
  }

  idIn(subquery: Expression<unknown>) {
    return idIn(subquery);
  }

  claimCapped(
    db: Kysely<Database>,
    options: ClaimOptions,
    groupLimit: number | GroupLimitColumn,
    thenNext: boolean,
  ): Promise<CappedClaim> {
    // The claim takes the queue's lock for its transaction, held across its statements by the batch.
    return claimCappedOnPostgres(db, this.batch, options, groupLimit, thenNext);
  }

  async takeTurn(
    db: Kysely<Database>,
    queue: string,
    { started, held }: { readonly started: CompiledQuery; readonly held: CompiledQuery },
  ): Promise<Turn> {
    // In the claim's lock, so that this count and a claim's are never taken side by side: the
    // statements after the lock see what its last holder committed.
    const results = await this.batch([queueLock(db, queue), started, held]);
    if ((results[1] ?? []).length > 0) return "started";
    return (results[2] ?? []).length > 0 ? "waiting" : "lost";
  }

  inSharedTransaction<T>(db: Kysely<Database>, work: (tx: Executor) => Promise<T>): Promise<T> {
    // Each piece of work keeps a transaction of its own, on the pool's connections, side by side.
    return db.transaction().execute(work);
  }

  /**
   * The migration bookkeeping lives in the connection's own schema, and is looked for there only
   * (introspector.ts), so databases in other schemas of the same server (other deployments, test
   * runs) never get in its way.
   */
  async migrationSchema(db: Kysely<Database>): Promise<string | undefined> {
    const result = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    return result.rows[0]?.schema ?? undefined;
  }
}

const INT8_OID = 20;

/**
 * A connection that runs the statements prepared with `reusePlan` (store/prepared.ts) as named
 * statements: PostgreSQL parses each once per connection and can keep its plan. Kysely sends
 * every statement as text and values; the name is looked up by the text.
 */
class NamedStatementClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (typeof text === "string" && Array.isArray(values) && args.length === 2) {
      const name = serverStatementName(text);
      if (name !== undefined) return super.query({ name, text, values }) as never;
    }
    return (super.query as (...all: unknown[]) => unknown)(...args) as never;
  }
}

export function openPostgres(connectionString: string): OpenedDialect {
  const pool = new pg.Pool({
    Client: NamedStatementClient,
    connectionString,
    max: 10,
    // A statement is sent without waiting for the one before: a transaction's BEGIN and COMMIT
    // go along with its statements (driver.ts).
    pipeline: true,
    // bigint columns hold epoch milliseconds and counts, all well inside Number's exact range.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // The pool hears errors of idle clients only: a checked-out one losing its connection (a
  // database restart) would emit an 'error' nobody hears, and Node would end the process. Its
  // query fails instead, and the pool drops the broken client when it is released.
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  return {
    dialect: new SluicePostgresDialect(pool),
    adapter: new PostgresAdapter(createStatementBatch(pool)),
    // An idle client losing its connection (a database restart) must not crash the process.
    onPoolError: (listener) => pool.on("error", listener),
    release: () => {},
  };
}
