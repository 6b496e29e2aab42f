/**
 * The notifier's topics (store/notifier.ts) a commit of a source's invocations publishes: its new
 * events and log lines (SSE streams), the deliveries and workflow runs it queued (the workers).
 */
import { DELIVERIES_TOPIC } from "../delivery/enqueue.js";
import { WORKFLOW_RUNS_TOPIC } from "../workflows/run-queue.js";

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
  /** The webhooks of the deliveries: the groups of the deliveries' topic, for this node only. */
  readonly webhooks?: readonly string[];
  readonly runs: number;
}

/** A topic to publish, with the groups it names on this node (store/notifier.ts `publish`). */
export interface WakeUp {
  readonly topic: string;
  readonly groups?: readonly string[];
}

/** The topics a commit of `sourceId`'s invocations publishes. */
export function commitWakeUps(sourceId: string, committed: Committed): WakeUp[] {
  const wakeUps: WakeUp[] = [];
  if (committed.events > 0) wakeUps.push({ topic: emitsTopic(sourceId) });
  if (committed.deliveries > 0) wakeUps.push({ topic: DELIVERIES_TOPIC, groups: committed.webhooks });
  if (committed.logLines > 0) wakeUps.push({ topic: logsTopic(sourceId) });
  if (committed.runs > 0) wakeUps.push({ topic: WORKFLOW_RUNS_TOPIC });
  return wakeUps;
}
