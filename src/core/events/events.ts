/**
 * Reading an emitter's events and logs: newest first, paged by their `<ms>-<seq>` ids, and the
 * item shapes of Pipedream's event_summaries (the same shape the SSE streams send).
 */
// Kysely here, not in the store: reads and writes only the emitted rows (events, log lines).
import type { Executor } from "../../store/schema.js";
import type { Store } from "../../store/store.js";
import { InvalidInputError } from "../errors.js";
import { checkPageLimit, type Page, type PageRequest } from "../pagination.js";
import { formatSequenceId, parseSequenceId, type SequenceId } from "./event-ids.js";
import {
  idCompared,
  newestRowId,
  readSequencedPage,
  rowsAfter,
  type SequencedTable,
} from "./sequenced-rows.js";

/** Without expand=event, larger events are left out of summaries. */
export const SUMMARY_EVENT_BYTES = 1024;

export interface EventSummary {
  id: string;
  indexed_at_ms: number;
  event?: unknown;
  event_truncated?: boolean;
  metadata: { emit_id: string; emitter_id: string; name: string; id: string | null; summary: string | null };
}

export interface LogEntry {
  id: string;
  ts: number;
  level: string;
  message: string;
  invocation_id: string;
}

export interface EventQuery {
  readonly limit?: number;
  readonly after?: string;
  readonly before?: string;
  readonly expand?: string;
  readonly event_name?: string;
}

interface EventRow {
  emitter_id: string;
  ms: number;
  seq: number;
  channel: string | null;
  event_key: string | null;
  summary: string | null;
  payload: string;
}

export function toEventSummary(row: EventRow, expand: boolean): EventSummary {
  const id = formatSequenceId({ ms: Number(row.ms), seq: row.seq });
  const summary: EventSummary = {
    id,
    indexed_at_ms: Number(row.ms),
    metadata: {
      emit_id: id,
      emitter_id: row.emitter_id,
      name: row.channel ?? "",
      id: row.event_key,
      summary: row.summary,
    },
  };
  if (expand || Buffer.byteLength(row.payload) <= SUMMARY_EVENT_BYTES)
    summary.event = JSON.parse(row.payload);
  else summary.event_truncated = true;
  return summary;
}

const eventRows = (db: Executor, emitterId: string) =>
  db
    .selectFrom("events")
    .select(["emitter_id", "ms", "seq", "channel", "event_key", "summary", "payload"])
    .where("emitter_id", "=", emitterId);

const logRows = (db: Executor, emitterId: string) =>
  db
    .selectFrom("emitter_logs")
    .select(["ms", "seq", "ts", "level", "message", "invocation_id"])
    .where("emitter_id", "=", emitterId);

export async function listEventSummaries(
  db: Executor,
  emitterId: string,
  query: EventQuery,
): Promise<Page<EventSummary>> {
  // The limit is checked before expand, so a request wrong in both is told of its limit.
  checkPageLimit(query.limit);
  if (query.expand !== undefined && query.expand !== "event") {
    throw new InvalidInputError("expand takes one value: event");
  }
  let rows = eventRows(db, emitterId);
  if (query.event_name !== undefined) {
    rows =
      query.event_name === ""
        ? rows.where("channel", "is", null)
        : rows.where("channel", "=", query.event_name);
  }
  return readSequencedPage(query, rows, (row) => toEventSummary(row, query.expand === "event"));
}

/** Events after `after` (oldest first), for SSE catch-up: at most `limit`. */
export const eventsAfter = async (db: Executor, emitterId: string, after: SequenceId, limit: number) =>
  (await rowsAfter(eventRows(db, emitterId), after, limit)).map((row) => toEventSummary(row, true));

/** The newest id of an emitter's events or log lines, or {0,0} when it has none. */
export async function newestId(db: Executor, table: SequencedTable, emitterId: string): Promise<SequenceId> {
  return (await newestRowId(db, table, emitterId)) ?? { ms: 0, seq: 0 };
}

export const newestEventId = (db: Executor, emitterId: string) => newestId(db, "events", emitterId);
export const newestLogId = (db: Executor, emitterId: string) => newestId(db, "emitter_logs", emitterId);

/**
 * Deletes events from start_id to end_id, both included; without either bound, from the first or
 * to the last. The source's row is locked first, as a commit locks it, so that the event count
 * kept with it (which retention trusts: emitter-events.ts `trimOldest`) counts what is left.
 */
export async function deleteEvents(
  store: Pick<Store, "transaction" | "dbIn" | "capabilities">,
  emitterId: string,
  range: { start_id?: string; end_id?: string },
): Promise<number> {
  const start = range.start_id === undefined ? undefined : parseSequenceId(range.start_id, "start_id");
  const end = range.end_id === undefined ? undefined : parseSequenceId(range.end_id, "end_id");
  return store.transaction(async (tx) => {
    const db = store.dbIn(tx);
    let lock = db.selectFrom("sources").select("id").where("id", "=", emitterId);
    if (store.capabilities.skipLocked) lock = lock.forUpdate();
    await lock.execute();
    let query = db.deleteFrom("events").where("emitter_id", "=", emitterId);
    if (start) query = query.where((eb) => idCompared(eb, ">=", start));
    if (end) query = query.where((eb) => idCompared(eb, "<=", end));
    const result = await query.executeTakeFirst();
    await db
      .updateTable("sources")
      .set((eb) => ({
        event_count: eb
          .selectFrom("events")
          .select(eb.fn.countAll<number>().as("count"))
          .where("emitter_id", "=", emitterId),
      }))
      .where("id", "=", emitterId)
      .execute();
    return Number(result.numDeletedRows);
  });
}

export function listLogs(db: Executor, emitterId: string, query: PageRequest): Promise<Page<LogEntry>> {
  return readSequencedPage(query, logRows(db, emitterId), toLogEntry);
}

/** Log lines after `after` (oldest first), for SSE catch-up: at most `limit`. */
export const logsAfter = async (db: Executor, emitterId: string, after: SequenceId, limit: number) =>
  (await rowsAfter(logRows(db, emitterId), after, limit)).map(toLogEntry);

function toLogEntry(row: {
  ms: number;
  seq: number;
  ts: number;
  level: string;
  message: string;
  invocation_id: string;
}): LogEntry {
  return {
    id: formatSequenceId({ ms: Number(row.ms), seq: row.seq }),
    ts: Number(row.ts),
    level: row.level,
    message: row.message,
    invocation_id: row.invocation_id,
  };
}
