/**
 * The statements of every invocation's commit (core/sources/invocation-commit.ts), prepared
 * (store/prepared.ts): built and compiled once, run with each commit's values. Their builders
 * pass the values on and never look at them.
 */
// Kysely here, not in the store: plain prepared statements that run alike on both databases.
import type { QueryCreator } from "kysely";
import { prepared } from "../../store/prepared.js";
import type { Database } from "../../store/schema.js";

/** The source's commit state and what listens to it: a row per subscription (one, empty, if none). */
function sourceWithListeners(creator: QueryCreator<Database>, id: string) {
  return creator
    .selectFrom("sources")
    .leftJoin("subscriptions", "subscriptions.emitter_id", "sources.id")
    .leftJoin("webhooks", "webhooks.id", "subscriptions.listener_id")
    .leftJoin("workflows", "workflows.id", "subscriptions.listener_id")
    .select([
      "sources.dedupe_state",
      "sources.last_event_ms",
      "sources.last_event_seq",
      "sources.last_log_ms",
      "sources.last_log_seq",
      "sources.max_events",
      "sources.event_count",
      "sources.log_count",
      "subscriptions.listener_id",
      "subscriptions.event_name",
      "webhooks.active as webhook_active",
      "workflows.active as workflow_active",
    ])
    .where("sources.id", "=", id);
}

type SourceRow = Awaited<ReturnType<ReturnType<typeof sourceWithListeners>["executeTakeFirstOrThrow"]>>;

/** The source's row and listeners (SQLite: its one writer needs no row lock). */
export const readSource = prepared<{ id: string }, SourceRow>(
  (creator, source) => sourceWithListeners(creator, source.id),
  { reusePlan: true },
);

/** The same, the source's row locked until the commit (`FOR UPDATE OF sources`: PostgreSQL). */
export const readSourceLocked = prepared<{ id: string }, SourceRow>(
  (creator, source) => sourceWithListeners(creator, source.id).forUpdate(["sources"]),
  { reusePlan: true },
);

/** The source's row after the commit's events and log lines. */
export const updateSource = prepared(
  (
    creator,
    source: {
      id: string;
      event_count: number;
      log_count: number;
      dedupe_state: string | null;
      last_event_ms: number;
      last_event_seq: number;
      last_log_ms: number;
      last_log_seq: number;
    },
  ) => {
    const { id, ...state } = source;
    return creator.updateTable("sources").set(state).where("id", "=", id);
  },
  { reusePlan: true },
);

/** Key-value writes: a row per key, replacing the key's value where it exists. */
export const upsertKv = prepared(
  (creator, kv: { rows: readonly { emitter_id: string; key: string; value: string }[] }) =>
    creator
      .insertInto("kv")
      .values(kv.rows)
      .onConflict((conflict) =>
        conflict.columns(["emitter_id", "key"]).doUpdateSet((eb) => ({ value: eb.ref("excluded.value") })),
      ),
  { reusePlan: true },
);
