/**
 * Per-webhook rate limits: sends to a webhook with `rate_limit` N start at least 1.05/N s apart, so
 * a burst is smoothed, never dropped. A delivery books its webhook's next free slot (a bounded wait
 * ahead) and waits for it in memory; one that would start late books anew, so a receiver sees at
 * most N + 1 requests in any second. Slots live in memory on SQLite and in a row per webhook on
 * PostgreSQL, so the limit holds for the cluster, not per node.
 */
import type { Store } from "../../store/store.js";

/** A booked slot's start (epoch ms), or when to try again when none was free soon enough. */
export type Booking = { readonly startAt: number } | { readonly retryAt: number };

export interface RateSlots {
  /**
   * Books the webhook's next free slot if it starts within `maxWaitMs` from `now`. Else nothing
   * is booked, and `retryAt` says when to try again.
   */
  book(webhookId: string, perSecond: number, now: number, maxWaitMs: number): Promise<Booking>;
  /** Webhooks whose booked slots reach past `now` (as far as this node knows): claims leave them out. */
  heldBack(now: number): string[];
  /** Ms until the next held-back webhook's slots run out (Infinity when none is held back). */
  nextChange(now: number): number;
}

/**
 * Sends start this much further apart than 1/N s: what happens between a send's start and its
 * arrival (signing, the request, a busy event loop) varies, and without the margin two arrivals
 * pushed together could put N + 2 in one second at the receiver.
 */
const SPACING_MARGIN = 0.05;

/** The spacing of sends at `perSecond`, rounded up to a whole ms (never faster than the limit). */
const spacingMs = (perSecond: number) => Math.ceil((1000 * (1 + SPACING_MARGIN)) / perSecond);

export function createRateSlots(store: Store): RateSlots {
  /** Per webhook, the end of the last slot this node booked or saw booked. */
  const bookedUntil = new Map<string, number>();
  const seen = (webhookId: string, until: number) => {
    if (until > (bookedUntil.get(webhookId) ?? 0)) bookedUntil.set(webhookId, until);
  };

  const bookInMemory = (webhookId: string, perSecond: number, now: number, maxWaitMs: number): Booking => {
    const start = Math.max(now, bookedUntil.get(webhookId) ?? now);
    if (start - now > maxWaitMs) return { retryAt: start - maxWaitMs };
    bookedUntil.set(webhookId, start + spacingMs(perSecond));
    return { startAt: start };
  };

  const bookInDatabase = async (
    webhookId: string,
    perSecond: number,
    now: number,
    maxWaitMs: number,
  ): Promise<Booking> => {
    const spacing = spacingMs(perSecond);
    const booking = await store.rateSlots.book(webhookId, { now, spacingMs: spacing, maxWaitMs });
    if ("bookedUntil" in booking) {
      seen(webhookId, booking.bookedUntil);
      return { startAt: booking.bookedUntil - spacing };
    }
    seen(webhookId, booking.takenUntil);
    return { retryAt: Math.max(now + 1, booking.takenUntil - maxWaitMs) };
  };

  return {
    book: (webhookId, perSecond, now, maxWaitMs) =>
      store.capabilities.singleProcess
        ? Promise.resolve(bookInMemory(webhookId, perSecond, now, maxWaitMs))
        : bookInDatabase(webhookId, perSecond, now, maxWaitMs),
    heldBack(now) {
      const held: string[] = [];
      for (const [webhookId, until] of bookedUntil) {
        if (until > now) held.push(webhookId);
        else if (until < now - 60_000) bookedUntil.delete(webhookId);
      }
      return held;
    },
    nextChange(now) {
      let soonest = Number.POSITIVE_INFINITY;
      for (const until of bookedUntil.values()) if (until > now) soonest = Math.min(soonest, until - now);
      return soonest;
    },
  };
}

/**
 * Waits for the webhook's turn: undefined once the send may start, or `retryAt` when its turn is
 * more than `maxWaitMs` away (the delivery goes back to the queue until then).
 * A turn missed by more than a quarter of the spacing (the process was busy) is given up for the
 * next free one.
 */
export async function awaitTurn(
  slots: RateSlots,
  webhookId: string,
  perSecond: number,
  maxWaitMs: number,
): Promise<{ readonly retryAt: number } | undefined> {
  const tolerance = spacingMs(perSecond) / 4;
  const giveUpAt = Date.now() + maxWaitMs;
  for (;;) {
    const now = Date.now();
    const booking = await slots.book(webhookId, perSecond, now, Math.max(0, giveUpAt - now));
    if ("retryAt" in booking) return booking;
    const wait = booking.startAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (Date.now() - booking.startAt <= tolerance) return undefined;
  }
}
