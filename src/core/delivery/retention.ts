/**
 * The delivery log's retention: a delivery that is over (delivered, or failed with no attempt left)
 * and unchanged for `SLUICE_DELIVERY_RETENTION_DAYS` is removed with its attempts, so the log does
 * not grow for as long as the server runs; a pending one never is. Each node sweeps on its own, in
 * batches; concurrent sweeps remove each row once and never wait for a row while holding others.
 */
// Kysely here, not in the store: a sweep of its own tables (deliveries, their attempts).
import type { Store } from "../../store/store.js";

/** Deliveries removed in one transaction at most. */
const BATCH = 500;
/** The longest wait between sweeps; a short retention (tests) sweeps more often. */
const MAX_INTERVAL_MS = 3_600_000;
/** The first sweep comes this long after the start at most (jittered), so restarts still sweep. */
const FIRST_SWEEP_MS = 30_000;

export interface DeliveryRetention {
  /** Starts sweeping; does nothing when the retention is 0 (keep every delivery). */
  start(): void;
  /** Stops sweeping; resolves once a sweep under way has ended. */
  stop(): Promise<void>;
}

export interface DeliveryRetentionOptions {
  readonly store: Store;
  /** How long a delivery that is over is kept after its last change; 0: forever. */
  readonly retentionMs: number;
  readonly onError: (error: unknown) => void;
  /** Told how many were removed by a sweep that removed any. */
  readonly onSwept?: (removed: number) => void;
}

export function createDeliveryRetention(options: DeliveryRetentionOptions): DeliveryRetention {
  const { store, retentionMs } = options;
  const intervalMs = Math.min(MAX_INTERVAL_MS, Math.max(1_000, retentionMs / 10));
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let sweeping: Promise<unknown> = Promise.resolve();

  /** One batch, in one transaction: how many deliveries it removed (with their attempts). */
  const removeBatch = (cutoff: number): Promise<number> =>
    store.transaction(async (tx) => {
      const db = store.dbIn(tx);
      const removed = await db
        .deleteFrom("deliveries")
        .where("id", "in", (eb) =>
          eb
            .selectFrom("deliveries")
            .select("id")
            .where("status", "in", ["delivered", "failed"])
            .where("created_at", "<", cutoff)
            .where("updated_at", "<", cutoff)
            .limit(BATCH)
            // PostgreSQL: the rows locked as they are found, passing over those another
            // transaction holds (a resend of many, say), so this one never waits while holding
            // others: no deadlock with it, and no row that changed meanwhile. SQLite has one writer.
            .$if(store.capabilities.skipLocked, (query) => query.forUpdate().skipLocked()),
        )
        .returning("id")
        .execute();
      if (removed.length > 0) {
        await db
          .deleteFrom("delivery_attempts")
          .where(
            "delivery_id",
            "in",
            removed.map((row) => row.id),
          )
          .execute();
      }
      return removed.length;
    });

  const sweep = async (): Promise<number> => {
    const cutoff = Date.now() - retentionMs;
    let total = 0;
    for (;;) {
      const started = performance.now();
      const removed = await removeBatch(cutoff);
      total += removed;
      // A batch not full: nothing older is left. Otherwise the next, after a pause as long as
      // this batch took: a large backlog (the first sweep after an upgrade) takes at most half
      // of the database's writes while it goes.
      if (removed < BATCH || !running) return total;
      await new Promise((resolve) => setTimeout(resolve, Math.max(10, performance.now() - started)));
    }
  };

  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      timer = undefined;
      sweeping = sweep()
        .then((removed) => {
          if (removed > 0) options.onSwept?.(removed);
        })
        .catch(options.onError)
        .finally(() => {
          if (running) schedule(intervalMs);
        });
    }, delayMs);
    timer.unref();
  };

  return {
    start() {
      if (retentionMs <= 0 || running) return;
      running = true;
      schedule(Math.round(Math.min(intervalMs, FIRST_SWEEP_MS) * (0.5 + Math.random() / 2)));
    },
    async stop() {
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await sweeping;
    },
  };
}
