/**
 * A connected account's token refresh as this node runs it: its outcome, and the refreshes in
 * flight. Apart from oauth-refresh.ts so that the OAuth runtime on the core context can hold the
 * flights without importing the refresh, which imports the context.
 */
export type Auth = Record<string, unknown>;

export type RefreshOutcome =
  | { readonly kind: "fresh"; readonly auth: Auth }
  | { readonly kind: "gone" }
  | { readonly kind: "revoked"; readonly error: string }
  | {
      readonly kind: "failed";
      readonly reason: string;
      readonly auth: Auth;
      readonly expiresAt: number | null;
    };

/**
 * This node's token refreshes in flight, by connected account: one at a time for each. The
 * server's OAuth runtime owns one, so two servers in one process never share a flight.
 */
export class RefreshFlights {
  private readonly running = new Map<string, Promise<RefreshOutcome>>();

  /** The refresh of the account already in flight, or `refresh` started now. */
  join(id: string, refresh: () => Promise<RefreshOutcome>): Promise<RefreshOutcome> {
    const current = this.running.get(id);
    if (current) return current;
    const started = refresh().finally(() => this.running.delete(id));
    this.running.set(id, started);
    return started;
  }
}
