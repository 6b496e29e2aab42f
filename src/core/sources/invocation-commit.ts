/**
 * The commit of an invocation, all of it or none: its events (ordered by ts, deduped), key-value
 * writes, dedupe state, log lines and retention trim, in one transaction. Invocations that queued
 * up meanwhile commit together, in order, with one statement of each kind for all of them and the
 * same outcome as one after another (ARCHITECTURE.md: what one commit holds, group commit).
 */
import type { InvocationResult, LogLine } from "../../runtime/sandbox/sandbox.js";
import type { Store } from "../../store/store.js";
import type { StoreTransaction } from "../../store/transaction.js";
import { insertWrites, preparedWrite, type Write, writeIn } from "../../store/write-together.js";
import {
  type Emitter,
  type NewEvent,
  type PlannedAppend,
  planAppend,
  retention,
  type StoredEvent,
  trimOldest,
} from "../events/emitter-events.js";
import { nextSequenceId, type SequenceId } from "../events/event-ids.js";
import { commitWakeUps } from "../events/topics.js";
import { type FanOut, type ListenerRow, listenersOf, planFanOut } from "../fan-out/fan-out.js";
import { storableText } from "../storable-text.js";
import { readSource, readSourceLocked, updateSource, upsertKv } from "./commit-statements.js";
import { applyDedupe, type DedupeState, orderByTs } from "./dedupe.js";

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
  /** Writes of the caller's, committed with the invocation's (invoker.ts `alsoWrites`). */
  readonly alsoWrites?: () => readonly Write[];
}

export interface CommitOutcome {
  readonly events: StoredEvent[];
  readonly logLines: number;
  /** Deliveries created for subscribed webhooks (in a batch, counted on its last commit). */
  readonly deliveries: number;
  /** The webhooks whose deliveries were queued (in a batch, on its last commit). */
  readonly webhooks: readonly string[];
  /** Runs queued for linked workflows (in a batch, counted on its last commit). */
  readonly runs: number;
  /**
   * The other nodes were told of the commit in its own transaction (PostgreSQL): its topics
   * (core/events/topics.ts) are to be published on this node only.
   */
  readonly othersTold: boolean;
}

export async function commitInvocation(store: Store, request: CommitRequest): Promise<CommitOutcome> {
  const [outcome] = await store.transaction((tx) => commitBatch(tx, store, [request]));
  return outcome as CommitOutcome;
}

/**
 * Commits several invocations of one source, in invocation order, in one transaction: one disk
 * flush for all of them. If the transaction fails, each is committed on its own, so one that
 * cannot be stored does not take the others down with it; its error is its outcome.
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
    return await store.transaction((tx) => commitBatch(tx, store, requests));
  } catch {
    const outcomes: (CommitOutcome | { readonly error: unknown })[] = [];
    for (const request of requests) {
      outcomes.push(await commitInvocation(store, request).catch((error: unknown) => ({ error })));
    }
    return outcomes;
  }
}

/**
 * Commits several invocations of one source in the store's shared transaction (on SQLite, with
 * the commits of other sources that queued meanwhile: one flush for all). If that fails, each is
 * committed on its own, as `commitInvocations` does.
 */
export async function commitInvocationsShared(
  store: Store,
  requests: readonly CommitRequest[],
): Promise<(CommitOutcome | { readonly error: unknown })[]> {
  try {
    return await store.sharedTransaction((tx) => commitBatch(tx, store, requests));
  } catch {
    const outcomes: (CommitOutcome | { readonly error: unknown })[] = [];
    for (const request of requests) {
      outcomes.push(await commitInvocation(store, request).catch((error: unknown) => ({ error })));
    }
    return outcomes;
  }
}

function alsoWritten(requests: readonly CommitRequest[]): Write[] {
  return requests.flatMap((request) => request.alsoWrites?.() ?? []);
}

/** What one invocation of the batch adds, worked out before anything is written. */
interface Planned {
  readonly accepted: NewEvent[];
  readonly logLines: LogLine[];
}

/** The source's row as its commit reads it, locked. */
interface SourceState {
  readonly dedupe_state: string | null;
  readonly last_event_ms: number;
  readonly last_event_seq: number;
  readonly last_log_ms: number;
  readonly last_log_seq: number;
  readonly max_events: number;
  readonly event_count: number;
  readonly log_count: number;
}

type Retention = ReturnType<typeof retention>;

/** A batch worked out before anything is written: its writes, and what each invocation gets back. */
interface PlannedBatch {
  readonly plans: readonly Planned[];
  readonly appended: PlannedAppend;
  readonly fannedOut: FanOut;
  /** Every write but the retention trims, in the order they go (one statement on PostgreSQL). */
  readonly writes: Write[];
  readonly notice: ReturnType<Store["notifier"]["noticeToOthers"]>;
  readonly eventRetention: Retention;
  readonly logRetention: Retention;
}

async function commitBatch(
  tx: StoreTransaction,
  store: Store,
  requests: readonly CommitRequest[],
): Promise<CommitOutcome[]> {
  const [first] = requests;
  if (!first || requests.some((request) => request.emitterId !== first.emitterId)) {
    throw new Error("a commit batch holds invocations of one source");
  }
  const emitterId = first.emitterId;
  // The source's row, locked, and what listens to it, in one round trip: a row per subscription.
  const rows = await (store.capabilities.skipLocked ? readSourceLocked : readSource).execute(
    store,
    { id: emitterId },
    { in: tx },
  );
  const emitter = rows[0];
  // Deleted while they ran: nothing of them is kept.
  if (!emitter) {
    await writeIn(tx, store.capabilities, alsoWritten(requests), { last: true });
    return requests.map(() => ({
      events: [],
      logLines: 0,
      deliveries: 0,
      webhooks: [],
      runs: 0,
      othersTold: false,
    }));
  }

  const source = { id: emitterId, accountId: first.accountId };
  const batch = planBatch(store, requests, source, emitter, rows);
  const { writes, notice, eventRetention, logRetention } = batch;
  // Most commits trim nothing: then the writes are the transaction's last statement, and its
  // COMMIT goes right behind them (store/dialect/postgres/driver.ts).
  const trims = eventRetention.excess > 0 || logRetention.excess > 0;
  await writeIn(tx, store.capabilities, writes, { notice, last: !trims });
  await trimOldest(tx, store, "events", emitterId, eventRetention.excess);
  await trimOldest(tx, store, "emitter_logs", emitterId, logRetention.excess);
  return outcomesOf(batch);
}

/**
 * Works out the batch's writes, in the order they go: its events and what they cause, the
 * caller's writes, the key-value writes, the log lines, the source's row; and the notice to
 * the other nodes. `emitter` is the source's row, read under its lock.
 */
function planBatch(
  store: Store,
  requests: readonly CommitRequest[],
  source: Emitter,
  emitter: SourceState,
  listeners: readonly ListenerRow[],
): PlannedBatch {
  const now = Date.now();
  const { plans, dedupeState } = planInvocations(requests, emitter.dedupe_state, now);
  const appended = planAppend(
    source,
    { ms: Number(emitter.last_event_ms), seq: emitter.last_event_seq },
    plans.flatMap((plan) => plan.accepted),
    now,
  );
  const fannedOut = planFanOut(store.jobs, source, appended.events, listenersOf(listeners));
  const writes: Write[] = [...appended.writes, ...fannedOut.writes, ...alsoWritten(requests)];
  pushKvWrites(writes, source.id, requests);
  const storedLog: SequenceId = { ms: Number(emitter.last_log_ms), seq: emitter.last_log_seq };
  const logRows = logLineRows(source.id, requests, plans, storedLog, now);
  writes.push(...insertWrites("emitter_logs", logRows, INSERT_CHUNK));
  // The last log id handed out: the last line's, or the stored one when the batch logs nothing.
  const lastLog: SequenceId = logRows[logRows.length - 1] ?? storedLog;

  // Retention: trim only once a batch over the limit, so most commits pay nothing for it.
  const eventRetention = retention(emitter.event_count + appended.events.length, emitter.max_events);
  const logRetention = retention(emitter.log_count + logRows.length, MAX_LOG_LINES);
  writes.push(
    preparedWrite(updateSource, {
      id: source.id,
      event_count: eventRetention.kept,
      log_count: logRetention.kept,
      dedupe_state: dedupeState === null ? null : JSON.stringify(dedupeState),
      last_event_ms: appended.last.ms,
      last_event_seq: appended.last.seq,
      last_log_ms: lastLog.ms,
      last_log_seq: lastLog.seq,
    }),
  );
  // Everything above in one statement on PostgreSQL: the events, their deliveries and runs, the
  // key-value writes, the log lines, the source's row and the caller's writes, and the NOTIFY
  // that tells the other nodes of them when the transaction commits.
  const notice = store.notifier.noticeToOthers(
    commitWakeUps(source.id, {
      events: appended.events.length,
      logLines: logRows.length,
      deliveries: fannedOut.deliveries,
      runs: fannedOut.runs,
    }).map((wakeUp) => wakeUp.topic),
  );
  return { plans, appended, fannedOut, writes, notice, eventRetention, logRetention };
}

/**
 * Each invocation's accepted events and log lines, in order. Each invocation's dedupe sees the
 * state the one before it left, as if committed one by one; `dedupeState` is the last one's.
 */
function planInvocations(
  requests: readonly CommitRequest[],
  storedState: string | null,
  now: number,
): { plans: Planned[]; dedupeState: DedupeState | null } {
  let dedupeState = storedState === null ? null : (JSON.parse(storedState) as DedupeState);
  const plans: Planned[] = requests.map((request) => {
    const { result } = request;
    const dedupe = applyDedupe(request.dedupe, dedupeState, orderByTs(result.emits, now));
    dedupeState = dedupe.state;
    const logLines: LogLine[] = [...(request.notes ?? []), ...result.logs];
    for (const { reason } of dedupe.refused)
      logLines.push({ ts: now, level: "error", message: `event refused: ${reason}` });
    if (dedupe.duplicates > 0) {
      logLines.push({
        ts: now,
        level: "info",
        message: `dedupe '${request.dedupe}': ${dedupe.duplicates} of ${result.emits.length} events already emitted`,
      });
    }
    if (result.failure) {
      const detail = result.failure.stack ?? result.failure.message;
      logLines.push({
        ts: now,
        level: "error",
        message: `invocation failed (${result.failure.reason}): ${detail}`,
      });
    }
    const accepted = dedupe.accepted.map((emit) => ({
      channel: emit.meta.name === undefined || emit.meta.name === "" ? null : String(emit.meta.name),
      eventKey: emit.meta.id === undefined ? null : String(emit.meta.id),
      summary: emit.meta.summary === undefined ? null : String(emit.meta.summary),
      payload: emit.event ?? null,
    }));
    return { accepted, logLines };
  });
  return { plans, dedupeState };
}

/** Adds the key-value writes, in invocation order: a later write of a key replaces an earlier one. */
function pushKvWrites(writes: Write[], emitterId: string, requests: readonly CommitRequest[]): void {
  const kv = new Map<string, string>();
  for (const request of requests) {
    for (const [key, value] of Object.entries(request.result.dbWrites)) {
      const stored = storableText(key);
      kv.delete(stored);
      kv.set(stored, JSON.stringify(value ?? null));
    }
  }
  const kvRows = [...kv].map(([key, value]) => ({ emitter_id: emitterId, key, value }));
  for (let start = 0; start < kvRows.length; start += INSERT_CHUNK) {
    const chunk = kvRows.slice(start, start + INSERT_CHUNK);
    writes.push(preparedWrite(upsertKv, { rows: chunk }));
  }
}

/** The batch's log lines as rows, in order, each given the next log id after `lastLog`. */
function logLineRows(
  emitterId: string,
  requests: readonly CommitRequest[],
  plans: readonly Planned[],
  lastLog: SequenceId,
  now: number,
) {
  let last = lastLog;
  return requests.flatMap((request, index) =>
    (plans[index]?.logLines ?? []).map((line) => {
      last = nextSequenceId(last, now);
      return {
        emitter_id: emitterId,
        ...last,
        invocation_id: request.invocationId,
        level: line.level,
        message: storableText(line.message.slice(0, 64 * 1024)),
        ts: line.ts,
      };
    }),
  );
}

/** The stored events, handed back to the invocation that emitted them; what they caused, to the last. */
function outcomesOf({ plans, appended, fannedOut, notice }: PlannedBatch): CommitOutcome[] {
  let taken = 0;
  return plans.map((plan, index) => {
    const events = appended.events.slice(taken, taken + plan.accepted.length);
    taken += plan.accepted.length;
    const last = index === plans.length - 1;
    return {
      events,
      logLines: plan.logLines.length,
      deliveries: last ? fannedOut.deliveries : 0,
      webhooks: last ? fannedOut.webhooks : [],
      runs: last ? fannedOut.runs : 0,
      othersTold: notice !== undefined,
    };
  });
}
