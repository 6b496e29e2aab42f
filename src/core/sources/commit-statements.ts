/**
 * The statements of every invocation's commit (core/sources/invocation-commit.ts), prepared
 * (store/prepared.ts): built and compiled once, run with each commit's values. Their builders
 * pass the values on and never look at them.
 */
// Kysely here, not in the store: plain prepared statements that run alike on both databases.
import type { QueryCreator } from "kysely";
import { prepared } from "../../store/prepared.js";
import type { Database } from "../../store/schema.js";
import { emitterWithListeners } from "../fan-out/emitter-listeners.js";

/** The source's commit state and what listens to it. */
function sourceWithListeners(creator: QueryCreator<Database>, id: string) {
  return emitterWithListeners(creator, "sources")
    .where("emitter.id", "=", id)
    .select([
      "emitter.dedupe_state",
      "emitter.last_event_ms",
      "emitter.last_event_seq",
      "emitter.last_log_ms",
      "emitter.last_log_seq",
      "emitter.max_events",
      "emitter.event_count",
      "emitter.log_count",
    ]);
}

type SourceRow = Awaited<ReturnType<ReturnType<typeof sourceWithListeners>["executeTakeFirstOrThrow"]>>;

/** The source's row and listeners (SQLite: its one writer needs no row lock). */
export const readSource = prepared<{ id: string }, SourceRow>(
  (creator, source) => sourceWithListeners(creator, source.id),
  { reusePlan: true },
);

/** The same, the source's row locked until the commit (`FOR UPDATE OF emitter`: PostgreSQL). */
export const readSourceLocked = prepared<{ id: string }, SourceRow>(
  (creator, source) => sourceWithListeners(creator, source.id).forUpdate(["emitter"]),
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
