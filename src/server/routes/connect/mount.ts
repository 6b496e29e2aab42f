/**
 * Where a group of Connect routes is mounted: under `/:project_id` for server-side callers, or at
 * the root for connect tokens (which name the project). The OpenAPI document lists the first only.
 */
export interface ConnectMount {
  /** "/:project_id" or "". */
  readonly base: string;
  /** Appended to each operationId so the twin's ids stay unique. */
  readonly suffix: string;
  readonly withProject: boolean;
}

export function connectMount(base: string, suffix: string): ConnectMount {
  return { base, suffix, withProject: base !== "" };
}
