/**
 * Hand-offs committed together on PostgreSQL. A delivery's hand-off is one statement
 * (hand-off.ts); sent alone it is a transaction of its own, and each costs PostgreSQL a
 * transaction's start and commit and the server a round trip. While `MAX_IN_FLIGHT` are being
 * written, the hand-offs that end meanwhile wait, and the next to go takes up to
 * `MAX_PER_TRANSACTION` of them as one transaction, in one round trip (store/dialect/postgres/statement-batch.ts).
 * At the deliveries' max rate that cut PostgreSQL's CPU a delivery nearly by half (bench/RESULTS.md).
 * One that finds nothing in flight goes alone at once, as before: a lone delivery waits for none.
 *
 * A transaction of several holds the rows its first statements locked while its later ones run.
 * So that it never waits long holding them (a webhook's delete walking its jobs, say, which
 * could be waiting for one of them: a deadlock), it gives up on any lock it waits for longer than
 * `LOCK_WAIT_MS` (`lock_timeout`, well below PostgreSQL's one second before it looks for a
 * deadlock): it rolls back, and each of its hand-offs is sent again alone, the lone statement
 * that waits for what it needs holding nothing (store/jobs/contract.ts `takeNext`). Likewise, if the
 * transaction fails on the database for any other reason, each goes again alone, so one that
 * cannot be written fails alone. A failure of the connection (the commit may have happened),
 * PostgreSQL's own answer that it ends the session included (a restart's `57P01`, say), fails
 * them all, as it fails a lone statement: the worker records again without a hand-off, since one
 * sent again with its hand-off could take a second next job if the first try had committed.
 *
 * And so that hand-offs never wait long behind one in flight that waits (a lone one whose
 * webhook is being deleted), those queued longer than `LOCK_WAIT_MS` go whatever is in flight.
 */
import { CompiledQuery } from "kysely";
import { rolledBack } from "../../store/dialect/postgres/statement-batch.js";
import type { Store } from "../../store/store.js";

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

export function createHandOffGroups(store: Store): HandOffGroups {
  const { batch } = store;
  if (!batch) throw new Error("hand-offs are committed together on PostgreSQL only");
  const waiting: Waiting[] = [];
  let inFlight = 0;
  let overdue: NodeJS.Timeout | undefined;

  const alone = (hand: Waiting): Promise<void> =>
    store.db.executeQuery(hand.statement).then((result) => hand.resolve(result.rows), hand.reject);

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
