/** A bulk replay of a workflow's runs as the API shows it: what it covers and how far it got. */
import type { BulkReplay } from "../../core/workflows/bulk-replays.js";

export function bulkReplayView(replay: BulkReplay) {
  const { filter } = replay;
  return {
    id: replay.id,
    workflow_id: replay.workflowId,
    status: replay.status,
    filter: {
      status: filter.statuses.length === 0 ? null : filter.statuses.join(","),
      failed_step: filter.failed_step ?? null,
      since_ms: filter.since ?? null,
      until_ms: filter.until ?? null,
    },
    from_failed_step: replay.fromFailedStep,
    max_in_flight: replay.maxInFlight,
    total: replay.total,
    queued: replay.queued,
    skipped: replay.skipped,
    in_flight: replay.inFlight,
    done: replay.done,
    created_at_ms: replay.createdAt,
    finished_at_ms: replay.finishedAt,
  };
}
