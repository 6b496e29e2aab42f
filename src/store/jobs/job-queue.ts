/**
 * The jobs table's operations (one file each, beside this one) as the store's JobQueue: a plain
 * object of them over one database and its adapter, so a caller may wrap or replace one.
 */
import type { Kysely } from "kysely";
import type { DialectAdapter } from "../dialect/dialect.js";
import type { Database, Executor } from "../schema.js";
import { compiledWrite, type Write } from "../write.js";
import { claimDue } from "./claim-due.js";
import { completeWrite } from "./complete.js";
import type { JobQueue } from "./contract.js";
import { enqueue, enqueueMany, enqueueWrites } from "./enqueue.js";
import { extendLeases } from "./extend-leases.js";
import { failWrite } from "./fail.js";
import { nextRunAt } from "./next-due.js";
import { releaseAllLeases } from "./release-leases.js";
import { rescheduleWrite } from "./reschedule.js";
import { takeNextWrite } from "./take-next.js";
import { takeTurn } from "./take-turn.js";

export function createJobQueue(db: Kysely<Database>, dialect: DialectAdapter): JobQueue {
  const { capabilities } = dialect;
  /** Runs a write alone on `executor`; whether it changed a row. */
  const run = async (executor: Executor, write: Write): Promise<boolean> => {
    const result = await executor.executeQuery(compiledWrite(write, executor, capabilities.name));
    return (result.numAffectedRows ?? 0n) > 0n;
  };
  const claim: JobQueue["claimDue"] = async (options) => {
    if (options.groupLimit === undefined) return claimDue(db, dialect, options);
    return (await dialect.claimCapped(db, options, options.groupLimit, false)).jobs;
  };
  return {
    enqueue: (executor, job) => enqueue(executor, capabilities.name, job),
    enqueueMany,
    enqueueWrites,
    claimDue: claim,
    claimDueThenNext: async (options) =>
      options.groupLimit === undefined
        ? { jobs: await claim(options) }
        : dialect.claimCapped(db, options, options.groupLimit, true),
    extendLeases: (leases, leaseMs) => extendLeases(db, dialect, leases, leaseMs),
    complete: (lease, executor = db) => run(executor, completeWrite(lease)),
    fail: (lease, failure, executor = db) => run(executor, failWrite(lease, failure)),
    takeTurn: (lease, turn) => takeTurn(db, dialect, lease, turn),
    endWrite: (lease, failure) => (failure === undefined ? completeWrite(lease) : failWrite(lease, failure)),
    rescheduleWrite,
    takeNextWrite: (lease, leaseMs, now) => takeNextWrite(capabilities, lease, leaseMs, now),
    releaseAllLeases: () => releaseAllLeases(db),
    nextRunAt: (queue) => nextRunAt(db, capabilities.name, queue),
  };
}
