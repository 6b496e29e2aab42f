/** How long one run of a component may take, source or action alike (Pipedream's limits). */
export const DEFAULT_TIMEOUT_SECONDS = 30;
export const MAX_TIMEOUT_SECONDS = 900;
