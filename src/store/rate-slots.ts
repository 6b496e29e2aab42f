/**
 * The `rate_slots` table: per key (a webhook), the end of the last slot booked, so sends spaced
 * by a rate limit hold for every node of a cluster. A booking is one statement: the slot starts
 * at the later of now and the end of the last one, and is booked only if it starts soon enough.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "./schema.js";

/** What a booking found: the booked slot's end, or (none booked) the end of the slots booked so far. */
export type SlotBooking = { readonly bookedUntil: number } | { readonly takenUntil: number };

export interface RateSlotTable {
  /**
   * Books `key`'s next slot, `spacingMs` long, if it starts within `maxWaitMs` of `now`; else
   * books nothing and says until when the slots are taken.
   */
  book(
    key: string,
    slot: { readonly now: number; readonly spacingMs: number; readonly maxWaitMs: number },
  ): Promise<SlotBooking>;
}

export function createRateSlotTable(db: Kysely<Database>): RateSlotTable {
  return {
    async book(key, { now, spacingMs, maxWaitMs }) {
      const booked = await sql<{ next_at: string | number }>`
        insert into rate_slots (key, next_at) values (${key}, ${now + spacingMs})
        on conflict (key) do update
          set next_at = (case when rate_slots.next_at > ${now} then rate_slots.next_at else ${now} end) + ${spacingMs}
          where rate_slots.next_at <= ${now + maxWaitMs}
        returning next_at`.execute(db);
      const nextAt = booked.rows[0]?.next_at;
      if (nextAt !== undefined) return { bookedUntil: Number(nextAt) };
      const row = await db
        .selectFrom("rate_slots")
        .select("next_at")
        .where("key", "=", key)
        .executeTakeFirst();
      return { takenUntil: Number(row?.next_at ?? now) };
    },
  };
}
