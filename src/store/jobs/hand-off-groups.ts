/**
 * Hand-offs committed together on PostgreSQL: while `MAX_IN_FLIGHT` transactions of them are being
 * written, the hand-offs that end meanwhile wait and go as one transaction in one round trip, so
 * each costs no transaction of its own; one that finds room goes alone at once. A transaction of
 * several gives up on slow locks and falls back to each alone, so none waits holding others'
 * locks (a deadlock with a webhook's delete); why, and what a lost connection does:
 * core/delivery/ARCHITECTURE.md.
 */
import { CompiledQuery, type Kysely } from "kysely";
import { rolledBack, type StatementBatch } from "../dialect/postgres/statement-batch.js";
import type { Database } from "../schema.js";

/** Transactions of hand-offs being written at once; past it, hand-offs wait to go together. */
const MAX_IN_FLIGHT = 2;
/** Hand-offs in one transaction at most. */
const MAX_PER_TRANSACTION = 8;
/** How long a transaction of several waits for a lock before it gives up, and a hand-off queued at most. */
const LOCK_WAIT_MS = 100;

const GIVE_UP_ON_LOCKS = CompiledQuery.raw(`set local lock_timeout = ${LOCK_WAIT_MS}`);

export interface HandOffGroups {
  /** Commits the hand-off's statement, with others that wait meanwhile; its rows. */
  commit(statement: CompiledQuery): Promise<readonly unknown[]>;
}

interface Waiting {
  readonly statement: CompiledQuery;
  /** When it was queued (epoch ms). */
  readonly at: number;
  readonly resolve: (rows: readonly unknown[]) => void;
  readonly reject: (error: unknown) => void;
}

export function createHandOffGroups(db: Kysely<Database>, batch: StatementBatch): HandOffGroups {
  const waiting: Waiting[] = [];
  let inFlight = 0;
  let overdue: NodeJS.Timeout | undefined;

  const alone = (hand: Waiting): Promise<void> =>
    db.executeQuery(hand.statement).then((result) => hand.resolve(result.rows), hand.reject);

  const together = async (group: readonly Waiting[]): Promise<void> => {
    let results: unknown[][];
    try {
      results = await batch([GIVE_UP_ON_LOCKS, ...group.map((hand) => hand.statement)]);
    } catch (error) {
      // Rolled back (a lock waited for too long, or one statement failed): each again alone,
      // outside the count in flight, so that one that waits holds up no other.
      if (rolledBack(error)) for (const hand of group) void alone(hand);
      else for (const hand of group) hand.reject(error);
      return;
    }
    for (const [index, hand] of group.entries()) hand.resolve(results[index + 1] ?? []);
  };

  const send = (group: readonly Waiting[]): void => {
    inFlight++;
    void (group.length === 1 ? alone(group[0] as Waiting) : together(group)).finally(() => {
      inFlight--;
      pump();
    });
  };

  const pump = (): void => {
    while (inFlight < MAX_IN_FLIGHT && waiting.length > 0) send(waiting.splice(0, MAX_PER_TRANSACTION));
    const oldest = waiting[0];
    if (oldest === undefined || overdue !== undefined) return;
    overdue = setTimeout(
      () => {
        overdue = undefined;
        // Those in flight are slow (one waits for a lock, say): the overdue go anyway.
        while ((waiting[0]?.at ?? Number.POSITIVE_INFINITY) <= Date.now() - LOCK_WAIT_MS) {
          send(waiting.splice(0, MAX_PER_TRANSACTION));
        }
        pump();
      },
      Math.max(1, oldest.at + LOCK_WAIT_MS - Date.now()),
    );
  };

  return {
    commit(statement) {
      return new Promise((resolve, reject) => {
        waiting.push({ statement, at: Date.now(), resolve, reject });
        pump();
      });
    },
  };
}
