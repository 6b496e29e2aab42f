/**
 * Per-webhook rate limits on this node: sends to a webhook with `rate_limit` N are spaced at
 * least 1/N s apart, so a burst is smoothed to the rate and nothing is dropped (held-back
 * deliveries wait in the queue).
 */
export class RateGate {
  private readonly nextAllowed = new Map<string, number>();

  /** 0 when a send may go now (and books the slot), else how many ms until it may. */
  reserve(webhookId: string, perSecond: number, now: number): number {
    const allowedAt = this.nextAllowed.get(webhookId) ?? now;
    if (allowedAt > now) return allowedAt - now;
    this.nextAllowed.set(webhookId, Math.max(now, allowedAt) + 1000 / perSecond);
    return 0;
  }

  /** Webhooks that may not send yet; claims leave their jobs out. */
  heldBack(now: number): string[] {
    const held: string[] = [];
    for (const [webhookId, allowedAt] of this.nextAllowed) {
      if (allowedAt > now) held.push(webhookId);
      else if (allowedAt < now - 60_000) this.nextAllowed.delete(webhookId);
    }
    return held;
  }

  /** Ms until the next held-back webhook may send again (Infinity when none is held back). */
  nextChange(now: number): number {
    let soonest = Number.POSITIVE_INFINITY;
    for (const allowedAt of this.nextAllowed.values())
      if (allowedAt > now) soonest = Math.min(soonest, allowedAt - now);
    return soonest;
  }
}
