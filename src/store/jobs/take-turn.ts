/**
 * A held job waiting for its turn (`NewJob.claim.waitsForTurn`) starts if its group has room:
 * fewer than `limit` of the group's jobs are started or wait for their turn ahead of it.
 */
import { type Kysely, type SqlBool, sql } from "kysely";
import type { DialectAdapter } from "../dialect/dialect.js";
import { prepared } from "../prepared.js";
import type { Database } from "../schema.js";
import type { Lease, Turn } from "./contract.js";

/**
 * A held job waiting for its turn starts (counts its attempt) if fewer than `limit` of its
 * group's jobs are started or wait ahead of it; one this lease started already stays started.
 */
const turnTaken = prepared(
  (creator, turn: { id: string; token: string; queue: string; group: string; limit: number; now: number }) =>
    creator
      .updateTable("jobs")
      .set({ attempts: sql`case when attempts > 0 then attempts else 1 end` })
      .where("id", "=", turn.id)
      .where("lease_token", "=", turn.token)
      .where("state", "=", "queued")
      .where((eb) =>
        eb.or([
          eb("attempts", ">", 0),
          eb(
            eb
              .selectFrom("jobs as other")
              .select((count) => count.fn.countAll().as("taken"))
              .where("other.queue", "=", turn.queue)
              .where("other.group_key", "=", turn.group)
              .where("other.state", "=", "queued")
              .where("other.locked_until", ">", turn.now)
              .where("other.id", "!=", turn.id)
              .where((ahead) =>
                ahead.or([
                  ahead("other.attempts", ">", 0),
                  sql<SqlBool>`(other.run_at, other.id) < (jobs.run_at, jobs.id)`,
                ]),
              ),
            "<",
            turn.limit,
          ),
        ]),
      )
      .returning("id"),
);

/** The job, while `token` still holds it. */
const stillHeld = prepared((creator, lease: { id: string; token: string }) =>
  creator
    .selectFrom("jobs")
    .select("id")
    .where("id", "=", lease.id)
    .where("lease_token", "=", lease.token)
    .where("state", "=", "queued"),
);

export function takeTurn(
  db: Kysely<Database>,
  dialect: DialectAdapter,
  lease: Lease,
  turn: { readonly queue: string; readonly groupKey: string; readonly limit: number; readonly now?: number },
): Promise<Turn> {
  const { queue, groupKey, limit, now = Date.now() } = turn;
  const key = { id: lease.id, token: lease.leaseToken };
  const { name } = dialect.capabilities;
  return dialect.takeTurn(db, queue, {
    started: turnTaken.compile(db, name, { ...key, queue, group: groupKey, limit, now }),
    held: stillHeld.compile(db, name, key),
  });
}
