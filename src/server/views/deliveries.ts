/** The REST API's shapes of deliveries (snake_case, as Pipedream's API shows them): core returns domain objects, the routes answer these. */
import type { DeliveriesTable, DeliveryAttemptsTable } from "../../store/schema.js";

export function deliveryView(row: DeliveriesTable) {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    emitter_id: row.emitter_id,
    event_id: row.event_id,
    channel: row.channel,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_latency_ms: row.last_latency_ms,
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at === null ? null : Math.floor(Number(row.next_attempt_at) / 1000),
    created_at: Math.floor(Number(row.created_at) / 1000),
    updated_at: Math.floor(Number(row.updated_at) / 1000),
  };
}

export function attemptView(row: DeliveryAttemptsTable) {
  return {
    attempt: row.attempt,
    at: Math.floor(Number(row.at) / 1000),
    status_code: row.status_code,
    latency_ms: row.latency_ms,
    error: row.error,
    response_body: row.response_body,
  };
}
