/**
 * What a redeploy changed, in words: settings, the trigger, and steps added, removed, moved or
 * given another component or other props. Compared on the API's records before and after the PUT.
 */
import { isDeepStrictEqual } from "node:util";
import type { Workflow } from "../client/types.js";

const SETTINGS = ["name", "active", "concurrency", "retries", "retry_timeouts", "timeout_seconds"] as const;

export function workflowChanges(before: Workflow, after: Workflow): string[] {
  const changes: string[] = [];
  for (const setting of SETTINGS) {
    if (before[setting] !== after[setting]) {
      changes.push(`${setting} ${String(before[setting])} → ${String(after[setting])}`);
    }
  }
  if (!isDeepStrictEqual(comparable(before.trigger), comparable(after.trigger))) {
    changes.push(`trigger ${triggerLabel(before)} → ${triggerLabel(after)}`);
  }
  const beforeNames = before.steps.map((step) => step.name);
  const afterNames = after.steps.map((step) => step.name);
  for (const step of after.steps) {
    const old = before.steps.find((candidate) => candidate.name === step.name);
    if (!old) changes.push(`step ${step.name} added`);
    else if (old.component_id !== step.component_id) changes.push(`step ${step.name}: new code`);
    else if (!isDeepStrictEqual(old.props, step.props)) changes.push(`step ${step.name}: props`);
  }
  for (const name of beforeNames) {
    if (!afterNames.includes(name)) changes.push(`step ${name} removed`);
  }
  const kept = afterNames.filter((name) => beforeNames.includes(name));
  if (
    !isDeepStrictEqual(
      kept,
      beforeNames.filter((name) => afterNames.includes(name)),
    )
  ) {
    changes.push(`steps reordered: ${afterNames.join(", ")}`);
  }
  return changes;
}

/** A trigger without what a redeploy may renew on its own: the source deployed for a `uses` trigger. */
function comparable(trigger: Workflow["trigger"]): unknown {
  return trigger.type === "uses" ? { type: trigger.type, component_id: trigger.component_id } : trigger;
}

/** A trigger in a few words: `http`, `http (custom response)`, `timer 60s`, `source dc_…`. */
export function triggerLabel(workflow: Workflow): string {
  const trigger = workflow.trigger;
  switch (trigger.type) {
    case "http":
      return trigger.custom_response ? "http (custom response)" : "http";
    case "timer":
      return trigger.cron
        ? `cron ${trigger.cron}${trigger.timezone ? ` ${trigger.timezone}` : ""}`
        : `timer ${trigger.interval_seconds ?? "?"}s`;
    case "source":
      return `source ${trigger.source_id}${trigger.event_name ? ` [${trigger.event_name}]` : ""}`;
    case "uses":
      return `source ${trigger.source_id} (${trigger.component_id})`;
    default:
      return "manual";
  }
}
