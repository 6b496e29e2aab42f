/**
 * The commit of an invocation: in one transaction, the emitted events (ordered by ts and
 * deduped), the key-value writes, the dedupe state, the log lines and the retention trim. Either
 * all of it is stored or none of it. What the component wrote cannot make the commit fail: its
 * text is made storable first (storable-text.ts).
 */
import type { InvocationResult, LogLine } from "../runtime/sandbox/sandbox.js";
import type { Executor } from "../store/schema.js";
import type { Store } from "../store/store.js";
import { applyDedupe, type DedupeState, orderByTs } from "./dedupe.js";
import { appendEvents, type StoredEvent, trimRows } from "./emitter-events.js";
import { nextSequenceId, type SequenceId } from "./event-ids.js";
import { storableText } from "./storable-text.js";

/** Log lines kept per emitter. */
export const MAX_LOG_LINES = 1000;
const INSERT_CHUNK = 200;

export interface CommitRequest {
  readonly emitterId: string;
  readonly accountId: string;
  readonly invocationId: string;
  readonly dedupe: string | undefined;
  readonly result: InvocationResult;
  /** Extra lines to log before the component's own (what triggered the invocation, say). */
  readonly notes?: readonly LogLine[];
}

export interface CommitOutcome {
  readonly events: StoredEvent[];
  readonly logLines: number;
  /** Deliveries created for subscribed webhooks. */
  readonly deliveries: number;
  /** Runs queued for linked workflows. */
  readonly runs: number;
}

export function commitInvocation(store: Store, request: CommitRequest): Promise<CommitOutcome> {
  return store.db.transaction().execute((tx) => commitIn(tx, store, request));
}

/**
 * Commits several invocations (of one source, in invocation order) in one transaction: one
 * disk flush for all of them. If the transaction fails, each is committed on its own, so one
 * that cannot be stored does not take the others down with it; its error is its outcome.
 */
export async function commitInvocations(
  store: Store,
  requests: readonly CommitRequest[],
): Promise<(CommitOutcome | { readonly error: unknown })[]> {
  if (requests.length === 1) {
    const [only] = requests as [CommitRequest];
    return [await commitInvocation(store, only).catch((error: unknown) => ({ error }))];
  }
  try {
    return await store.db.transaction().execute(async (tx) => {
      const outcomes: CommitOutcome[] = [];
      for (const request of requests) outcomes.push(await commitIn(tx, store, request));
      return outcomes;
    });
  } catch {
    const outcomes: (CommitOutcome | { readonly error: unknown })[] = [];
    for (const request of requests) {
      outcomes.push(await commitInvocation(store, request).catch((error: unknown) => ({ error })));
    }
    return outcomes;
  }
}

async function commitIn(tx: Executor, store: Store, request: CommitRequest): Promise<CommitOutcome> {
  const { result } = request;
  let query = tx
    .selectFrom("sources")
    .select([
      "dedupe_state",
      "last_event_ms",
      "last_event_seq",
      "last_log_ms",
      "last_log_seq",
      "max_events",
      "event_count",
      "log_count",
    ])
    .where("id", "=", request.emitterId);
  if (store.capabilities.skipLocked) query = query.forUpdate();
  const emitter = await query.executeTakeFirst();
  // Deleted while it ran: nothing of it is kept.
  if (!emitter) return { events: [], logLines: 0, deliveries: 0, runs: 0 };

  const now = Date.now();
  const previous = emitter.dedupe_state === null ? null : (JSON.parse(emitter.dedupe_state) as DedupeState);
  const dedupe = applyDedupe(request.dedupe, previous, orderByTs(result.emits, now));

  const appended = await appendEvents(
    tx,
    store.jobs,
    { id: request.emitterId, accountId: request.accountId },
    { ms: Number(emitter.last_event_ms), seq: emitter.last_event_seq },
    dedupe.accepted.map((emit) => ({
      channel: emit.meta.name === undefined || emit.meta.name === "" ? null : String(emit.meta.name),
      eventKey: emit.meta.id === undefined ? null : String(emit.meta.id),
      summary: emit.meta.summary === undefined ? null : String(emit.meta.summary),
      payload: emit.event ?? null,
    })),
    now,
  );
  const { events, last: lastEvent, deliveries, runs } = appended;

  for (const [key, value] of Object.entries(result.dbWrites)) {
    const text = JSON.stringify(value ?? null);
    await tx
      .insertInto("kv")
      .values({ emitter_id: request.emitterId, key: storableText(key), value: text })
      .onConflict((conflict) => conflict.columns(["emitter_id", "key"]).doUpdateSet({ value: text }))
      .execute();
  }

  const lines: LogLine[] = [...(request.notes ?? []), ...result.logs];
  for (const { reason } of dedupe.refused)
    lines.push({ ts: now, level: "error", message: `event refused: ${reason}` });
  if (dedupe.duplicates > 0) {
    lines.push({
      ts: now,
      level: "info",
      message: `dedupe '${request.dedupe}': ${dedupe.duplicates} of ${result.emits.length} events already emitted`,
    });
  }
  if (result.failure) {
    const detail = result.failure.stack ?? result.failure.message;
    lines.push({
      ts: now,
      level: "error",
      message: `invocation failed (${result.failure.reason}): ${detail}`,
    });
  }
  let lastLog: SequenceId = { ms: Number(emitter.last_log_ms), seq: emitter.last_log_seq };
  const logRows = lines.map((line) => {
    lastLog = nextSequenceId(lastLog, now);
    return {
      emitter_id: request.emitterId,
      ...lastLog,
      invocation_id: request.invocationId,
      level: line.level,
      message: storableText(line.message.slice(0, 64 * 1024)),
      ts: line.ts,
    };
  });
  for (let start = 0; start < logRows.length; start += INSERT_CHUNK) {
    await tx
      .insertInto("emitter_logs")
      .values(logRows.slice(start, start + INSERT_CHUNK))
      .execute();
  }

  // Retention: trim only once over the limit, so a commit normally pays nothing for it.
  const eventCount = emitter.event_count + events.length;
  const logCount = emitter.log_count + logRows.length;
  await tx
    .updateTable("sources")
    .set({
      event_count: Math.min(eventCount, emitter.max_events),
      log_count: Math.min(logCount, MAX_LOG_LINES),
      dedupe_state: dedupe.state === null ? null : JSON.stringify(dedupe.state),
      last_event_ms: lastEvent.ms,
      last_event_seq: lastEvent.seq,
      last_log_ms: lastLog.ms,
      last_log_seq: lastLog.seq,
    })
    .where("id", "=", request.emitterId)
    .execute();

  if (eventCount > emitter.max_events) await trimRows(tx, "events", request.emitterId, emitter.max_events);
  if (logCount > MAX_LOG_LINES) await trimRows(tx, "emitter_logs", request.emitterId, MAX_LOG_LINES);
  return { events, logLines: logRows.length, deliveries, runs };
}
