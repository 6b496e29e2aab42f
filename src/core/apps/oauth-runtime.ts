/** What OAuth needs from the server that runs it; the context carries it (core/context.ts). */
import type { Executor } from "../../store/schema.js";
import type { OAuthTransport } from "./oauth-client.js";
import type { RefreshFlights } from "./refresh-flights.js";

export interface OAuthRuntime {
  /** Token requests, through the SSRF guard. */
  readonly transport: OAuthTransport;
  /** How long a connection attempt's state lives. */
  readonly stateTtlMs: number;
  /**
   * Spends the one-shot grant an attempt was started with (a Connect token), inside the
   * transaction that stores its success; false when it was spent already. The OAuth flow knows
   * grants only by their hash: whoever starts attempts with grants supplies this.
   */
  readonly spendGrant: (tx: Executor, grantHash: string, now: number) => Promise<boolean>;
  /** This node's token refreshes in flight: one per connected account at a time. */
  readonly refreshes: RefreshFlights;
}
