/**
 * Prometheus metrics (`GET /metrics`): deliveries by outcome, attempt latency, deliveries removed
 * past their retention, and, read from the
 * database at scrape time, the depth of the delivery queue and the age of the oldest pending
 * delivery. Process metrics (memory, event loop lag) come from prom-client's defaults.
 */
// Kysely here, not in the store: read-only counts for the metrics endpoint.
import client from "prom-client";
import type { Store } from "../store/store.js";
import { DELIVERY_QUEUE } from "./delivery/enqueue.js";

export type DeliveryOutcomeLabel = "delivered" | "failed_attempt" | "exhausted" | "blocked" | "disabled";

export interface Metrics {
  readonly registry: client.Registry;
  deliveryAttempt(outcome: DeliveryOutcomeLabel, latencyMs: number): void;
  /** Deliveries (with their attempts) this node removed from the log past their retention. */
  deliveriesRemoved(count: number): void;
}

export function createMetrics(store: Store): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: "sluice_" });
  const deliveries = new client.Counter({
    name: "sluice_delivery_attempts_total",
    help: "Webhook delivery attempts, by outcome",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const latency = new client.Histogram({
    name: "sluice_delivery_attempt_duration_seconds",
    help: "Time from sending a delivery to its answer (or failure)",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [registry],
  });
  const removed = new client.Counter({
    name: "sluice_deliveries_removed_total",
    help: "Deliveries removed from the log, with their attempts, past SLUICE_DELIVERY_RETENTION_DAYS",
    registers: [registry],
  });
  new client.Gauge({
    name: "sluice_delivery_queue_depth",
    help: "Delivery jobs waiting or in flight",
    registers: [registry],
    async collect() {
      const row = await store.db
        .selectFrom("jobs")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("queue", "=", DELIVERY_QUEUE)
        .where("state", "=", "queued")
        .executeTakeFirst();
      this.set(Number(row?.count ?? 0));
    },
  });
  new client.Gauge({
    name: "sluice_delivery_oldest_pending_age_seconds",
    help: "Age of the oldest delivery not yet delivered nor given up",
    registers: [registry],
    async collect() {
      const row = await store.db
        .selectFrom("deliveries")
        .select((eb) => eb.fn.min("created_at").as("oldest"))
        .where("status", "=", "pending")
        .executeTakeFirst();
      const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
      this.set(oldest === null ? 0 : (Date.now() - oldest) / 1000);
    },
  });
  return {
    registry,
    deliveryAttempt(outcome, latencyMs) {
      deliveries.inc({ outcome });
      latency.observe(latencyMs / 1000);
    },
    deliveriesRemoved(count) {
      removed.inc(count);
    },
  };
}
