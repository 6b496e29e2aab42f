/**
 * The read at the start of every commit that appends an emitter's events: its row joined with
 * what listens to it, the rows `listenersOf` (fan-out.ts) makes listeners of.
 */
// Kysely here, not in the store: a plain join every commit builds on (prepared by its callers).
import type { QueryCreator } from "kysely";
import type { Database } from "../../store/schema.js";

/** What every emitter's read says of its listeners: a row per subscription (one, empty, if none). */
const LISTENER_COLUMNS = [
  "subscriptions.listener_id",
  "subscriptions.event_name",
  "webhooks.active as webhook_active",
  "listening.active as workflow_active",
] as const;

/** An emitter's row (a source or a workflow, as `emitter`) joined with what listens to it. */
export function emitterWithListeners<E extends "sources" | "workflows">(
  creator: QueryCreator<Database>,
  emitter: E,
) {
  return (creator as unknown as QueryCreator<Omit<Database, "emitter"> & { emitter: Database[E] }>)
    .selectFrom(`${emitter} as emitter` as "emitter")
    .leftJoin("subscriptions", "subscriptions.emitter_id", "emitter.id")
    .leftJoin("webhooks", "webhooks.id", "subscriptions.listener_id")
    .leftJoin("workflows as listening", "listening.id", "subscriptions.listener_id")
    .select(LISTENER_COLUMNS);
}
