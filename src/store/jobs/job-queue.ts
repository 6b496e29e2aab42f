/**
 * The jobs table's operations (one file each, beside this one) as the store's JobQueue: a plain
 * object of them over one database and its adapter, so a caller may wrap or replace one.
 */
import type { StoreConnection } from "../dialect/dialect.js";
import { executorOf, type StoreTransaction } from "../transaction.js";
import { compiledWrite, type Write } from "../write.js";
import { claimDue } from "./claim-due.js";
import { completeWrite } from "./complete.js";
import type { JobQueue } from "./contract.js";
import { enqueue, enqueueMany, enqueueWrites } from "./enqueue.js";
import { extendLeases } from "./extend-leases.js";
import { failWrite } from "./fail.js";
import { takeNext } from "./hand-off.js";
import { createHandOffGroups, type HandOffGroups } from "./hand-off-groups.js";
import { nextRunAt } from "./next-due.js";
import { releaseAllLeases } from "./release-leases.js";
import { rescheduleWrite } from "./reschedule.js";
import { takeTurn } from "./take-turn.js";
import { wakeWrite } from "./wake.js";

export function createJobQueue(store: StoreConnection): JobQueue {
  const { db, dialect } = store;
  const { capabilities } = dialect;
  /** Runs a write alone, or in `tx`; whether it changed a row. */
  const run = async (write: Write, tx: StoreTransaction | undefined): Promise<boolean> => {
    const executor = tx === undefined ? db : executorOf(tx);
    const result = await executor.executeQuery(compiledWrite(write, executor, capabilities.name));
    return (result.numAffectedRows ?? 0n) > 0n;
  };
  const claim: JobQueue["claimDue"] = async (options) => {
    if (options.groupLimit === undefined) return claimDue(db, dialect, options);
    return (await dialect.claimCapped(db, options, options.groupLimit, false)).jobs;
  };
  /** Hand-offs that end together commit together (PostgreSQL); made at the first that may. */
  let groups: HandOffGroups | undefined;
  return {
    enqueue: (job, tx) => enqueue(store, job, tx),
    enqueueMany: (jobs, tx) => enqueueMany(tx === undefined ? db : executorOf(tx), jobs),
    enqueueWrites,
    claimDue: claim,
    claimDueThenNext: async (options) =>
      options.groupLimit === undefined
        ? { jobs: await claim(options) }
        : dialect.claimCapped(db, options, options.groupLimit, true),
    extendLeases: (leases, leaseMs) => extendLeases(db, dialect, leases, leaseMs),
    complete: (lease, tx) => run(completeWrite(lease), tx),
    fail: (lease, failure, tx) => run(failWrite(lease, failure), tx),
    takeTurn: (lease, turn) => takeTurn(db, dialect, lease, turn),
    endWrite: (lease, failure) => (failure === undefined ? completeWrite(lease) : failWrite(lease, failure)),
    rescheduleWrite,
    wakeWrite,
    takeNext: (finished, options) => {
      if (options.together && dialect.batch) groups ??= createHandOffGroups(db, dialect.batch);
      return takeNext(store, finished, options, groups);
    },
    releaseAllLeases: () => releaseAllLeases(db),
    nextRunAt: (queue) => nextRunAt(store, queue),
  };
}
