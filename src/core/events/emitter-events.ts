/**
 * Appending events to an emitter (a source or a workflow) inside the caller's transaction: ids
 * that rise strictly per emitter, the rows, and the retention trim. What listens to the emitter is
 * fan-out's (core/fan-out/): events import none of their consumers.
 */
// Kysely here, not in the store: plain prepared statements that run alike on both databases.
import { prepared } from "../../store/prepared.js";
import type { Store } from "../../store/store.js";
import type { InTransaction } from "../../store/transaction.js";
import { insertWrites, type Write } from "../../store/write-together.js";
import { storableText } from "../storable-text.js";
import { formatSequenceId, nextSequenceId, type SequenceId } from "./event-ids.js";
import { idCompared, type SequencedTable } from "./sequenced-rows.js";

const INSERT_CHUNK = 200;

export interface StoredEvent {
  readonly id: string;
  readonly ms: number;
  readonly seq: number;
  readonly channel: string | null;
  readonly eventKey: string | null;
  readonly summary: string | null;
  readonly payload: unknown;
}

export interface NewEvent {
  readonly payload: unknown;
  readonly channel: string | null;
  readonly eventKey: string | null;
  readonly summary: string | null;
}

export interface Emitter {
  readonly id: string;
  readonly accountId: string;
}

export interface AppendOutcome {
  readonly events: StoredEvent[];
  /** The emitter's last event id after the append. */
  readonly last: SequenceId;
}

/** An append worked out before it is written: the events with their ids, and the writes that store them. */
export interface PlannedAppend extends AppendOutcome {
  readonly writes: readonly Write[];
}

/**
 * Works out the append of `items` after `last` (the emitter's last id, read under its row lock):
 * the events' rows, as writes for the caller's transaction. What the events cause (deliveries,
 * workflow runs) is fan-out's (core/fan-out/fan-out.ts), planned by the caller beside it.
 */
export function planAppend(
  emitter: Emitter,
  last: SequenceId,
  items: readonly NewEvent[],
  now: number,
): PlannedAppend {
  let cursor = last;
  const events: StoredEvent[] = items.map((item) => {
    cursor = nextSequenceId(cursor, now);
    return {
      id: formatSequenceId(cursor),
      ...cursor,
      // What a component gave cannot make the commit fail (a NUL, say): it is made storable.
      channel: item.channel === null ? null : storableText(item.channel),
      eventKey: item.eventKey === null ? null : storableText(item.eventKey),
      summary: item.summary === null ? null : storableText(item.summary),
      payload: item.payload,
    };
  });
  if (events.length === 0) return { events, last: cursor, writes: [] };
  const rows = events.map((event) => ({
    emitter_id: emitter.id,
    ms: event.ms,
    seq: event.seq,
    account_id: emitter.accountId,
    channel: event.channel,
    event_key: event.eventKey,
    summary: event.summary,
    payload: JSON.stringify(event.payload),
  }));
  return { events, last: cursor, writes: insertWrites("events", rows, INSERT_CHUNK) };
}

/**
 * What a commit that leaves an emitter with `count` rows kept to `limit` trims: nothing until the
 * excess reaches a batch (1% of the limit, at most 100), then all of it, so a busy emitter deletes
 * in batches rather than a few rows every commit; until then a few rows past the limit may be
 * kept (as Redis's `MAXLEN ~`). `kept` is the count to store with the emitter's row.
 */
export function retention(count: number, limit: number): { readonly excess: number; readonly kept: number } {
  const excess = count - limit;
  const batch = Math.min(100, Math.max(1, Math.floor(limit / 100)));
  return excess >= batch ? { excess, kept: limit } : { excess: 0, kept: count };
}

/**
 * Deletes the emitter's `excess` oldest rows of an id-ordered table (what `retention` says a commit
 * drops). The cutoff is found from the oldest end, so the index walk covers only the rows deleted,
 * never the whole retained window.
 */
export async function trimOldest(
  tx: InTransaction,
  store: Store,
  table: SequencedTable,
  emitterId: string,
  excess: number,
): Promise<void> {
  if (excess <= 0) return;
  await trimStatements[table].execute(store, { emitter_id: emitterId, rank: excess - 1 }, { in: tx });
}

/** Per table, the trim as one prepared statement: built once, not at every commit past the limit. */
const trimStatements = {
  events: trimStatementOf("events"),
  emitter_logs: trimStatementOf("emitter_logs"),
};

/**
 * Deletes the emitter's rows up to and including the one `rank` places from its oldest (0: the
 * oldest), found once in a `WITH`: one statement (one round trip on PostgreSQL), and nothing
 * deleted when the emitter has no row at that rank (the comparisons with an empty `cutoff` are
 * null). The comparison is `idCompared`'s (core/events/sequenced-rows.ts): `ms` first, inclusive, so the
 * index seeks to the oldest rows instead of walking the emitter's whole range.
 */
function trimStatementOf(table: SequencedTable) {
  return prepared((creator, values: { emitter_id: string; rank: number }) =>
    creator
      .with("cutoff", (db) =>
        db
          .selectFrom(table)
          .select(["ms", "seq"])
          .where("emitter_id", "=", values.emitter_id)
          .orderBy("ms", "asc")
          .orderBy("seq", "asc")
          .limit(1)
          .offset(values.rank),
      )
      .deleteFrom(table)
      .where("emitter_id", "=", values.emitter_id)
      .where((eb) =>
        idCompared(eb, "<=", {
          ms: eb.selectFrom("cutoff").select("cutoff.ms"),
          seq: eb.selectFrom("cutoff").select("cutoff.seq"),
        }),
      ),
  );
}
