/**
 * The notifier's topics (store/notifier.ts) a commit of a source's invocations publishes: its new
 * events and log lines (SSE streams), the deliveries and workflow runs it queued (the workers).
 */
import { DELIVERIES_TOPIC } from "./delivery/enqueue.js";
import { WORKFLOW_RUNS_TOPIC } from "./workflows/run-queue.js";

export function emitsTopic(sourceId: string): string {
  return `emits:${sourceId}`;
}

export function logsTopic(sourceId: string): string {
  return `logs:${sourceId}`;
}

/** What a commit stored, as far as its topics go. */
export interface Committed {
  readonly events: number;
  readonly logLines: number;
  readonly deliveries: number;
  readonly runs: number;
}

/** The topics a commit of `sourceId`'s invocations publishes. */
export function commitTopics(sourceId: string, committed: Committed): string[] {
  const topics: string[] = [];
  if (committed.events > 0) topics.push(emitsTopic(sourceId));
  if (committed.deliveries > 0) topics.push(DELIVERIES_TOPIC);
  if (committed.logLines > 0) topics.push(logsTopic(sourceId));
  if (committed.runs > 0) topics.push(WORKFLOW_RUNS_TOPIC);
  return topics;
}
